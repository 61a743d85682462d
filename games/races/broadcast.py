"""Telling a race's sockets about a change, from anywhere.

Consumers broadcast for themselves; this is for synchronous code (a view
seating a racer) that changed a race and must tell the sockets on it.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.metrics.definitions import BROADCASTS
from games.races.protocol import encode


def race_group(race_id: int) -> str:
    return f"race-{race_id}"


def race_broadcast(*, race_id: int, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    BROADCASTS.labels(str(message.get("type", "unknown"))).inc()
    async_to_sync(layer.group_send)(
        race_group(race_id), {"type": "race.forward", "text": encode(message)}
    )

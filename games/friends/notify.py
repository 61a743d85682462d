"""Telling a player something wherever they are: their site sockets' group, in any process.

Each change is numbered in the player's own sequence (`presence.version_next`)
before it leaves, so every tab, in every process, sees one order and can tell
a gap. The message is carried as codes; each socket words it (protocol.py).
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from games.friends.presence import version_next


def player_group(player_id: int) -> str:
    return f"site-player-{player_id}"


async def site_tell(player_id: int, kind: str, **payload: Any) -> None:
    version = await sync_to_async(version_next, thread_sensitive=False)(player_id=player_id)
    layer = get_channel_layer()
    await layer.group_send(
        player_group(player_id), {"type": "site.event", "kind": kind, "v": version, **payload}
    )


def site_tell_now(player_id: int, kind: str, **payload: Any) -> None:
    """`site_tell` from synchronous code (a service's after-commit hook)."""
    async_to_sync(site_tell)(player_id, kind, **payload)

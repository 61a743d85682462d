"""The race socket's figures move with what it does (games/metrics/)."""

from __future__ import annotations

import pytest
from prometheus_client import REGISTRY

from games.engine import legal_moves, new_game
from tests.races.conftest import Lobby
from tests.races.helpers import SEED, VARIANT, connect

pytestmark = pytest.mark.django_db(transaction=True)


def _value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_moves_acks_broadcasts_and_sockets_are_counted(started: Lobby):
    accepted = _value("sultan_moves_total", source="race", outcome="accepted", code="ok")
    illegal = _value("sultan_moves_total", source="race", outcome="refused", code="illegal")
    acks = _value("sultan_move_ack_seconds_count")
    progress = _value("sultan_broadcasts_total", kind="progress")
    delivered = _value("sultan_progress_delivery_seconds_count")
    snapshots = _value("sultan_snapshots_total")
    sockets = _value("sultan_sockets_open")

    alice = await connect(started.race, started.keys["alice"])
    bob = await connect(started.race, started.keys["bob"])
    assert _value("sultan_sockets_open") == sockets + 2
    assert _value("sultan_snapshots_total") >= snapshots + 2

    token = legal_moves(new_game(SEED, VARIANT))[0]
    assert (await alice.move(token))["type"] == "ack"
    assert (await alice.move("c9"))["code"] == "illegal"
    await bob.receive_until("progress")

    assert _value("sultan_moves_total", source="race", outcome="accepted", code="ok") == (
        accepted + 1
    )
    assert _value("sultan_moves_total", source="race", outcome="refused", code="illegal") == (
        illegal + 1
    )
    assert _value("sultan_move_ack_seconds_count") == acks + 2
    assert _value("sultan_broadcasts_total", kind="progress") == progress + 1
    # alice's socket and bob's both sent it on.
    assert _value("sultan_progress_delivery_seconds_count") >= delivered + 2
    await alice.close()
    await bob.close()
    assert _value("sultan_sockets_open") == sockets

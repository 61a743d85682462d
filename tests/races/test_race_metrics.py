"""The race socket's figures move with what it does (games/metrics/)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.utils import timezone
from prometheus_client import REGISTRY

from games.engine import legal_moves, new_game
from games.models import RaceEvent
from games.races.publisher import backlog_age_measure, sweep_unpublished
from tests.races.conftest import Lobby
from tests.races.helpers import SEED, VARIANT, connect, db

pytestmark = pytest.mark.django_db(transaction=True)


def _value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def _reaching(name: str, wanted: float, **labels: str) -> float:
    """The figure, once it reaches `wanted` or a second has passed: a send is
    counted when it returns, which may be after a socket sent the message on."""
    for _ in range(100):
        if _value(name, **labels) >= wanted:
            break
        await asyncio.sleep(0.01)
    return _value(name, **labels)


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
    broadcasts = await _reaching("sultan_broadcasts_total", progress + 1, kind="progress")
    assert broadcasts == progress + 1
    # alice's socket and bob's both sent it on.
    sent_on = await _reaching("sultan_progress_delivery_seconds_count", delivered + 2)
    assert sent_on >= delivered + 2
    await alice.close()
    await bob.close()
    assert _value("sultan_sockets_open") == sockets


async def test_the_publisher_reports_its_lag_and_the_age_of_what_it_left_unsent(started: Lobby):
    lag = _value("sultan_publisher_lag_seconds_count")
    alice = await connect(started.race, started.keys["alice"])
    bob = await connect(started.race, started.keys["bob"])
    ack = await alice.move("draw")
    await bob.receive_until("progress")
    await bob.send({"type": "ping"})
    await bob.receive_until("pong")
    # The live send: from the commit handing it over to the channel layer taking it.
    assert await _reaching("sultan_publisher_lag_seconds_count", lag + 1) >= lag + 1
    # The live send is marked in a batch a moment later (MARK_EVERY_S): wait for it, or
    # that late mark lands on the row unmarked below and nobody sends it (seen in CI
    # under load: the count never moved).
    row = RaceEvent.objects.filter(race=started.race, version=ack["v"], published_at__isnull=False)
    for _ in range(300):
        if await db(row.exists)():
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError("the live send was never marked")

    # As if its process had died between the commit and the send, a minute ago.
    # This process's own sweep runs every second on the same database thread: the
    # row is unmarked, measured and the figures read in one call, so no sweep
    # comes between; from there either sweep may send it, and it is sent once.
    def die_and_measure() -> tuple[float, float, float, float]:
        RaceEvent.objects.filter(race=started.race, version=ack["v"]).update(
            published_at=None, created_at=timezone.now() - timedelta(seconds=60)
        )
        age = backlog_age_measure()
        return (
            age,
            _value("sultan_publisher_backlog_age_seconds"),
            _value("sultan_publisher_lag_seconds_count"),
            _value("sultan_publisher_lag_seconds_sum"),
        )

    age, gauge, swept_lag, swept_sum = await db(die_and_measure)()
    assert age >= 60
    assert gauge >= 60
    assert await sweep_unpublished(older_than_s=0) in (0, 1)
    for _ in range(150):  # a sweep of this process's own may be sending it still
        if _value("sultan_publisher_lag_seconds_count") > swept_lag:
            break
        await asyncio.sleep(0.1)
    # The sweep's send counts from the row's creation: the minute it waited.
    assert _value("sultan_publisher_lag_seconds_count") == swept_lag + 1
    assert _value("sultan_publisher_lag_seconds_sum") >= swept_sum + 60
    assert await db(backlog_age_measure)() < 60
    assert _value("sultan_publisher_backlog_age_seconds") < 60
    await alice.close()
    await bob.close()

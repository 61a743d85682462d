"""The race-end clock: one timer per race per process, whatever its sockets (races/clock.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Race
from games.races.clock import race_clock
from tests.races.conftest import Lobby
from tests.races.helpers import connect, db

pytestmark = pytest.mark.django_db(transaction=True)


async def test_sockets_of_one_race_in_one_process_share_one_timer_and_all_hear_the_end(
    started: Lobby,
):
    now = timezone.now()
    await db(Race.objects.filter(pk=started.race.pk).update)(
        starts_at=now - timedelta(seconds=10), ends_at=now + timedelta(seconds=1.5)
    )
    clients = [
        await connect(started.race, started.keys[name])
        for name in ("alice", "bob", "charlie", "dave")
    ]
    clock = race_clock()
    assert clock.races[started.race.pk].sockets == 4
    assert clock.timers(started.race.pk) == 1
    # Nobody moves: the timer alone ends the race, and every socket is told.
    for client in clients:
        end = await client.receive_until("end", timeout=10)
        assert {r["status"] for r in end["results"]} == {"timeout"}
    race = await db(Race.objects.get)(pk=started.race.pk)
    assert race.status == "finished"
    for client in clients:
        await client.close()
    assert started.race.pk not in clock.races


async def test_the_last_socket_of_a_race_takes_its_timer_with_it(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    bob = await connect(started.race, started.keys["bob"])
    clock = race_clock()
    timer = clock.races[started.race.pk].timer
    assert timer is not None
    await alice.close()
    assert clock.timers(started.race.pk) == 1
    assert not timer.cancelled()
    await bob.close()
    assert clock.timers(started.race.pk) == 0
    assert started.race.pk not in clock.races
    assert timer.cancelled()


async def test_a_lobby_arms_its_one_timer_at_the_start(lobby: Lobby):
    alice = await connect(lobby.race, lobby.keys["alice"])
    bob = await connect(lobby.race, lobby.keys["bob"])
    clock = race_clock()
    assert clock.timers(lobby.race.pk) == 0  # no end before the start
    await alice.send({"type": "start"})
    for client in (alice, bob):
        await client.receive_until("snapshot")
    assert clock.timers(lobby.race.pk) == 1
    await alice.close()
    await bob.close()

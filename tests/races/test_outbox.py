"""The race's outbox and the socket's side of it: what is announced, once, how often,
and what is not a versioned change at all."""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Move, RaceEvent
from games.races.fanout import Fanout, ProgressBuffer
from games.races.publisher import sweep_unpublished
from tests.races.conftest import Lobby
from tests.races.helpers import connect, db, versions

pytestmark = pytest.mark.django_db(transaction=True)


async def test_an_announcement_sent_again_is_the_same_message(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    bob = await connect(started.race, started.keys["bob"])
    ack = await alice.move("draw")
    first = await bob.receive_until("progress")
    assert first["vs"] == [ack["v"]]
    # As if the process that sent it had died before marking it sent: the sweep sends it again.
    # This process's publisher marks its live sends in a batch a moment later
    # (MARK_EVERY_S): wait for that, or the late mark lands on the row unmarked below
    # and the sweep finds nothing (CI under load: 0 == 1). Its own sweep takes rows
    # older than SWEEP_AFTER_S: the row unmarked is dated ahead, out of its reach,
    # and this test's sweep reaches past now to it.
    await _all_marked_sent(started.race.pk)
    await db(RaceEvent.objects.filter(race=started.race, version=ack["v"]).update)(
        published_at=None, created_at=timezone.now() + timedelta(hours=1)
    )
    assert await sweep_unpublished(older_than_s=-2 * 3600) == 1
    again = await bob.receive_until("progress")
    assert again == first  # the same version with the same contents: the client drops it
    assert await sweep_unpublished(older_than_s=-2 * 3600) == 0  # marked sent this time
    await alice.close()
    await bob.close()


async def _all_marked_sent(race_id: int) -> None:
    unmarked = RaceEvent.objects.filter(race_id=race_id, published_at__isnull=True)
    for _ in range(300):
        if not await db(unmarked.exists)():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the race's announcements were never marked sent")


async def test_an_ack_names_the_version_its_move_took(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    bob = await connect(started.race, started.keys["bob"])
    first = await alice.move("draw")
    second = await alice.move("draw")
    assert second["v"] == first["v"] + 1
    heard = [v for f in await bob.drain() for v in versions(f)]
    assert heard == [first["v"], second["v"]]
    # A retry's answer names the version of the move it retries.
    await alice.send({"type": "move", "token": "draw", "id": "again", "seq": alice.seq})
    retried = await alice.receive_until("ack")
    await alice.send({"type": "move", "token": "draw", "id": "again", "seq": alice.seq - 1})
    duplicate = await alice.receive_until("ack")
    assert duplicate["duplicate"] is True
    assert duplicate["v"] == retried["v"]
    await alice.close()
    await bob.close()


async def test_opening_and_closing_a_tab_tells_who_is_here_without_a_new_version(
    started: Lobby,
):
    bob = await connect(started.race, started.keys["bob"])
    version = bob.frames[0]["v"]
    alice = await connect(started.race, started.keys["alice"])
    here = await bob.receive_until("presence")
    assert started.players["alice"].pk in here["here"]
    assert "v" not in here
    await alice.close()
    gone = await bob.receive_until("presence")
    assert started.players["alice"].pk not in gone["here"]
    assert gone["at"] >= here["at"]  # the later state wins
    await bob.send({"type": "ping"})
    assert (await bob.receive_until("pong"))["v"] == version
    await bob.close()


async def test_the_server_beats_when_silent_and_closes_a_silent_client(started: Lobby, settings):
    settings.WS_HEARTBEAT_S = 1
    settings.WS_SILENCE_CLOSE_S = 2
    bob = await connect(started.race, started.keys["bob"])
    assert await bob.receive_until("heartbeat", timeout=5) == {"type": "heartbeat"}
    while True:  # bob says nothing: after the silence the server hangs up
        output = await bob.communicator.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
    assert output["code"] == 4010


async def test_a_racer_closing_right_after_a_move_is_no_error_and_the_move_is_announced(
    started: Lobby, caplog
):
    caplog.set_level(logging.DEBUG)
    alice = await connect(started.race, started.keys["alice"])
    bob = await connect(started.race, started.keys["bob"])
    await alice.move("draw")  # the socket knows its game: the next move goes straight in
    await alice.send({"type": "move", "token": "draw", "id": "last", "seq": alice.seq})
    await alice.close()
    stored = False
    for _ in range(20):  # a move already in the database thread still commits
        stored = await db(Move.objects.filter(client_move_id="last").exists)()
        if stored:
            break
        await asyncio.sleep(0.1)
    if stored:  # the close may come first, and then nothing was to be announced
        heard = await bob.receive_until("progress")
        while not any(r["seq"] == 2 for r in heard["racers"]):
            heard = await bob.receive_until("progress")
    await bob.close()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == []
    # Nothing left pending either: the socket's tasks were awaited, not abandoned.
    pending = [t for t in asyncio.all_tasks() if "RaceConsumer" in repr(t.get_coro())]
    assert pending == []


def test_a_buffer_keeps_every_version_and_each_racers_latest_state():
    buffer = ProgressBuffer()
    buffer.add(7, 1, 3, '{"player":1,"seq":3}')
    buffer.add(9, 2, 5, '{"player":2,"seq":5}')
    buffer.add(8, 1, 4, '{"player":1,"seq":4}')
    buffer.add(10, 1, 2, '{"player":1,"seq":2}')  # overtaken on the way: older than seq 4
    frame = json.loads(buffer.take() or "")
    assert frame == {
        "type": "progress",
        "vs": [7, 8, 9, 10],
        "racers": [{"player": 1, "seq": 4}, {"player": 2, "seq": 5}],
    }
    assert buffer.take() is None


async def test_progress_goes_out_at_once_when_quiet_and_together_within_the_interval():
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    fanout = Fanout(send, every_s=0.05)
    for version in (1, 2, 3):
        await fanout.progress(version, 4, version, f'{{"player":4,"seq":{version}}}')
    assert [json.loads(t)["vs"] for t in sent] == [[1]]  # the first at once
    await asyncio.sleep(0.1)
    assert [json.loads(t)["vs"] for t in sent] == [[1], [2, 3]]  # the others together
    assert json.loads(sent[1])["racers"] == [{"player": 4, "seq": 3}]
    await asyncio.sleep(0.1)  # longer than the interval since that frame
    await fanout.progress(4, 4, 4, '{"player":4,"seq":4}')  # quiet again: at once
    await fanout.progress(5, 4, 5, '{"player":4,"seq":5}')
    await fanout.flush()  # another announcement comes next: what is pending goes first
    assert [json.loads(t)["vs"] for t in sent][2:] == [[4], [5]]
    await asyncio.sleep(0.1)
    assert len(sent) == 4  # nothing left to send
    await fanout.close()

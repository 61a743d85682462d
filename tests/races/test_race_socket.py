"""The race socket end to end through the real ASGI application."""

from __future__ import annotations

import json
from datetime import timedelta
from unittest.mock import ANY

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games.models import Game, Move, Race, RaceEvent
from games.races.publisher import race_group
from sultan_site.asgi import application
from tests.races.conftest import Lobby
from tests.races.helpers import (
    careless_policy,
    connect,
    db,
    good_policy,
    progress_entries,
    recorded_game,
    versions,
)

pytestmark = pytest.mark.django_db(transaction=True)


def _log(game_id: int) -> list[str]:
    return list(
        Move.objects.filter(game_id=game_id).order_by("seq").values_list("token", flat=True)
    )


async def test_a_racer_gets_a_snapshot_with_their_own_view_and_no_stock(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    snapshot = alice.frames[0]
    view = snapshot["you"]["game"]["view"]
    assert snapshot["you"]["role"] == "racer"
    assert "stock" not in view
    assert "seed" not in view
    assert "seed" not in snapshot["race"]
    assert view["stock_count"] > 0
    assert view["seq"] == 0
    assert "draw" in view["legal"]
    assert {r["nickname"] for r in snapshot["racers"]} == {"alice", "bob", "charlie"}
    assert all(
        set(r["progress"]) == {"foundations", "cards_played", "passes_used", "status"}
        for r in snapshot["racers"]
    )
    await alice.close()


async def test_the_host_starts_and_every_racer_gets_their_own_game(lobby: Lobby):
    alice = await connect(lobby.race, lobby.keys["alice"])
    bob = await connect(lobby.race, lobby.keys["bob"])
    assert alice.frames[0]["you"]["game"] is None
    await alice.send({"type": "start"})
    for client, name in ((alice, "alice"), (bob, "bob")):
        snapshot = await client.receive_until("snapshot")
        assert snapshot["race"]["status"] == "running"
        game = await db(Game.objects.get)(race=lobby.race, player=lobby.players[name])
        assert snapshot["you"]["game"]["id"] == game.pk
    await alice.close()
    await bob.close()


async def test_only_the_host_starts_the_race(lobby: Lobby):
    bob = await connect(lobby.race, lobby.keys["bob"])
    await bob.send({"type": "start"})
    refusal = await bob.receive_until("error")
    assert refusal["code"] == "not_host"
    assert (await db(Race.objects.get)(pk=lobby.race.pk)).status == "lobby"
    await bob.close()


async def test_it_rejects_a_move_before_the_start(lobby: Lobby):
    alice = await connect(lobby.race, lobby.keys["alice"])
    answer = await alice.move("draw")
    assert answer["type"] == "reject"
    assert answer["code"] == "not_started"
    await alice.close()


async def test_it_rejects_a_move_during_the_countdown(lobby: Lobby):
    from games.races.services import race_start

    await db(race_start)(race=lobby.race, player=lobby.players["alice"], countdown_s=60)
    alice = await connect(lobby.race, lobby.keys["alice"])
    answer = await alice.move("draw")
    assert answer["code"] == "not_started"
    game = await db(Game.objects.get)(race=lobby.race, player=lobby.players["alice"])
    assert await db(_log)(game.pk) == []
    await alice.close()


async def test_an_opponent_sees_progress_and_no_card(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    bob = await connect(started.race, started.keys["bob"])
    tokens = recorded_game(good_policy)
    first_play = next(i for i, t in enumerate(tokens) if t not in ("draw", "redeal"))
    for token in tokens[: first_play + 1]:
        assert (await alice.move(token))["type"] == "ack"
    progress = progress_entries(await bob.drain())
    assert progress[-1]["player"] == started.players["alice"].pk
    assert progress[-1]["progress"]["cards_played"] == 1
    assert not any(isinstance(v, str) and len(v) == 2 for v in _strings(progress))
    await alice.close()
    await bob.close()


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


async def test_a_full_race_ranks_winner_then_cards_played(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    bob = await connect(started.race, started.keys["bob"])
    charlie = await connect(started.race, started.keys["charlie"])
    for token in recorded_game(good_policy)[:40]:
        await charlie.move(token)
    await charlie.send({"type": "resign", "id": "give-up", "seq": charlie.seq})
    assert (await charlie.receive_until("ack"))["view"]["status"] == "resigned"
    for token in recorded_game(careless_policy):
        assert (await bob.move(token))["type"] == "ack"
    for token in recorded_game(good_policy):
        assert (await alice.move(token))["type"] == "ack"
    end = await bob.receive_until("end")
    ranking = [(r["nickname"], r["status"]) for r in end["results"]]
    assert ranking == [("alice", "won"), ("charlie", "resigned"), ("bob", "lost")]
    assert end["results"][0]["cards_played"] == 95
    assert end["race"]["seed"] == str(started.race.seed)
    assert (await db(Race.objects.get)(pk=started.race.pk)).status == "finished"
    answer = await alice.move("draw")
    assert answer["code"] == "finished"
    for client in (alice, bob, charlie):
        await client.close()


async def test_a_tie_on_cards_goes_to_who_reached_the_count_first(started: Lobby):
    bob = await connect(started.race, started.keys["bob"])
    charlie = await connect(started.race, started.keys["charlie"])
    alice = await connect(started.race, started.keys["alice"])
    tokens = recorded_game(good_policy)[:30]
    for token in tokens:
        await charlie.move(token)
    for token in tokens:
        await bob.move(token)
    for client in (alice, bob, charlie):
        await client.send({"type": "resign", "id": "r", "seq": client.seq})
        await client.receive_until("ack")
    end = await alice.receive_until("end")
    assert [r["nickname"] for r in end["results"]] == ["charlie", "bob", "alice"]
    for client in (alice, bob, charlie):
        await client.close()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": ["move"]}', "unknown_type"),
        ('{"type": "move", "token": "draw"}', "bad_message"),
        ('{"type": "move", "token": "draw", "id": "x", "seq": -1}', "bad_message"),
        ('{"type": "ready", "ready": "yes"}', "bad_message"),
    ],
)
async def test_it_answers_a_bad_frame_with_an_error_and_changes_nothing(
    started: Lobby, frame, code
):
    alice = await connect(started.race, started.keys["alice"])
    await alice.send(frame)
    answer = await alice.receive_until("error")
    assert answer["code"] == code
    assert set(answer) == {"type", "code", "message"}
    game = await db(Game.objects.get)(race=started.race, player=started.players["alice"])
    assert await db(_log)(game.pk) == []
    assert (await alice.move("draw"))["type"] == "ack"  # the socket still works
    await alice.close()


async def test_it_refuses_a_binary_frame(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    await alice.communicator.send_to(bytes_data=b"\x00\x01")
    assert (await alice.receive_until("error"))["code"] == "bad_frame"
    await alice.close()


async def test_it_closes_the_socket_on_an_oversized_frame(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    await alice.drain()
    await alice.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
    assert (await alice.receive_until("error"))["code"] == "too_big"
    closed = await alice.communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4009, "reason": "frame too big"}


async def test_it_drops_a_flood_and_closes_a_persistent_flooder(started: Lobby, settings):
    settings.WS_RATE_PER_S = 30
    alice = await connect(started.race, started.keys["alice"])
    await alice.drain()
    for _ in range(100):
        await alice.send({"type": "ping"})
    kinds = []
    while True:
        output = await alice.communicator.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            assert output["code"] == 4008
            break
        kinds.append(json.loads(output["text"])["type"])
    assert kinds.count("error") == 1
    # Accepted frames are answered in turn; those still queued at the close are not.
    assert kinds.count("pong") <= 30


async def test_it_rejects_a_move_on_someone_elses_game(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    bobs = await db(Game.objects.get)(race=started.race, player=started.players["bob"])
    answer = await alice.move("draw", game=bobs.pk)
    assert answer["type"] == "reject"
    assert answer["code"] == "forbidden"
    assert await db(_log)(bobs.pk) == []
    await alice.close()


async def test_a_spectator_sees_race_views_only_and_cannot_move(started: Lobby):
    dave = await connect(started.race, started.keys["dave"])
    alice = await connect(started.race, started.keys["alice"])
    snapshot = dave.frames[0]
    assert snapshot["you"] == {
        "player": started.players["dave"].pk,
        "role": "spectator",
        "game": None,
    }
    answer = await dave.move("draw")
    assert answer["code"] == "forbidden"
    await alice.move("draw")
    progress = await dave.receive_until("progress")
    assert progress["racers"][0]["progress"]["cards_played"] == 0
    anonymous = await connect(started.race, None)
    assert anonymous.frames[0]["you"]["role"] == "spectator"
    for client in (dave, alice, anonymous):
        await client.close()


async def test_it_refuses_a_socket_from_another_site(started: Lobby):
    communicator = WebsocketCommunicator(
        application,
        f"/ws/races/{started.race.code}/",
        headers=[
            (b"origin", b"https://evil.example"),
            (b"cookie", f"sessionid={started.keys['alice']}".encode()),
        ],
    )
    connected, _ = await communicator.connect(timeout=5)
    assert not connected


async def test_it_closes_a_socket_for_an_unknown_race(started: Lobby):
    communicator = WebsocketCommunicator(
        application, "/ws/races/zzzz-zzzz/", headers=[(b"origin", b"http://127.0.0.1")]
    )
    connected, code = await communicator.connect(timeout=5)
    assert not connected
    assert code == 4404


async def test_a_retry_with_the_same_id_returns_the_first_answer(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    await alice.send({"type": "move", "token": "draw", "id": "same", "seq": 0})
    first = await alice.receive_until("ack")
    await alice.send({"type": "move", "token": "draw", "id": "same", "seq": 0})
    again = await alice.receive_until("ack")
    assert again["duplicate"]
    assert again["seq"] == first["seq"] == 1
    assert again["events"] == first["events"]
    game = await db(Game.objects.get)(race=started.race, player=started.players["alice"])
    assert await db(_log)(game.pk) == ["draw"]
    await alice.close()


async def test_a_stale_seq_is_a_conflict(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    await alice.move("draw")
    alice.seq = 0
    answer = await alice.move("draw")
    assert answer["code"] == "conflict"
    assert answer["seq"] == 1
    await alice.close()


async def test_undo_is_illegal_in_a_race(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    await alice.move("draw")
    answer = await alice.move("undo")
    assert answer["code"] == "illegal"
    await alice.close()


async def test_a_racer_reconnects_mid_race_and_goes_on(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    tokens = recorded_game(good_policy)
    for token in tokens[:10]:
        await alice.move(token)
    before = alice.frames[-1]["view"]
    await alice.close()
    again = await connect(started.race, started.keys["alice"])
    view = again.frames[0]["you"]["game"]["view"]
    assert view == before
    assert again.seq == 10
    for token in tokens[10:20]:
        assert (await again.move(token))["type"] == "ack"
    await again.close()


async def test_sync_answers_synced_when_current_and_the_missed_events_when_behind(
    started: Lobby,
):
    alice = await connect(started.race, started.keys["alice"])
    before = alice.frames[0]["v"]
    await alice.move("draw")
    await alice.move("draw")
    await alice.drain()
    await alice.send({"type": "ping"})
    current = (await alice.receive_until("pong"))["v"]
    assert current == before + 2
    await alice.send({"type": "sync", "v": current})
    assert await alice.receive_until("synced") == {"type": "synced", "v": current}
    await alice.send({"type": "sync", "v": before})
    healed = await alice.receive_versioned()
    assert healed["type"] == "progress"
    assert healed["vs"] == [before + 1, before + 2]
    assert healed["racers"] == [
        {"player": started.players["alice"].pk, "seq": 2, "progress": ANY},
    ]
    assert await alice.receive_versioned() == {"type": "synced", "v": current}
    await alice.close()


async def test_sync_answers_a_snapshot_once_the_history_is_gone(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    before = alice.frames[0]["v"]
    await alice.move("draw")
    await alice.drain()
    await db(RaceEvent.objects.filter(race=started.race).delete)()
    await alice.send({"type": "sync", "v": before})
    assert (await alice.receive_until("snapshot"))["v"] == before + 1
    await alice.close()


async def test_every_change_bumps_the_version_by_one(started: Lobby):
    bob = await connect(started.race, started.keys["bob"])
    alice = await connect(started.race, started.keys["alice"])
    await bob.drain()
    seen = [v for f in bob.frames for v in versions(f)]
    for _ in range(3):
        await alice.move("draw")
    seen += [v for f in await bob.drain() for v in versions(f)]
    assert seen == list(range(seen[0], seen[0] + len(seen)))
    await alice.close()
    await bob.close()


async def test_the_race_ends_when_time_is_up_and_closes_open_games(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    await alice.move("draw")
    await db(Race.objects.filter(pk=started.race.pk).update)(
        starts_at=timezone.now() - timedelta(seconds=901),
        ends_at=timezone.now() - timedelta(seconds=1),
    )
    answer = await alice.move("draw")
    assert answer["code"] == "too_late"
    end = await alice.receive_until("end")
    assert {r["status"] for r in end["results"]} == {"timeout"}
    game = await db(Game.objects.get)(race=started.race, player=started.players["alice"])
    assert await db(_log)(game.pk) == ["draw", "timeout"]
    await alice.close()


async def test_a_rematch_opens_one_new_race_for_everyone(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    bob = await connect(started.race, started.keys["bob"])
    for client in (alice, bob):
        await client.send({"type": "resign", "id": "r", "seq": 0})
        await client.receive_until("ack")
    charlie = await connect(started.race, started.keys["charlie"])
    await charlie.send({"type": "resign", "id": "r", "seq": 0})
    await alice.receive_until("end")
    await bob.send({"type": "rematch"})
    invitation = await alice.receive_until("rematch")
    assert (await bob.receive_until("rematch")) == invitation
    rematch = await db(Race.objects.get)(code=invitation["code"])
    assert rematch.seed != started.race.seed
    assert rematch.status == "lobby"
    await alice.send({"type": "rematch"})
    again = await bob.receive_until("rematch")
    assert again["code"] == invitation["code"]
    # A new version, or clients would drop it as seen and the joiner never go there.
    assert again["v"] > invitation["v"]
    seated = await db(_seated)(rematch)
    assert seated == {"alice", "bob"}
    for client in (alice, bob, charlie):
        await client.close()


def _seated(race: Race) -> set[str]:
    return set(race.entries.filter(left_at__isnull=True).values_list("player__nickname", flat=True))


async def test_a_racer_who_leaves_no_longer_counts_as_here(lobby: Lobby):
    from games.models import RaceEntry

    bob = await connect(lobby.race, lobby.keys["bob"])
    await bob.send({"type": "leave"})
    snapshot = await bob.receive_until("snapshot")
    assert snapshot["you"]["role"] == "spectator"
    entry = await db(RaceEntry.objects.get)(race=lobby.race, player=lobby.players["bob"])
    assert entry.connections == 0
    await bob.close()
    entry = await db(RaceEntry.objects.get)(race=lobby.race, player=lobby.players["bob"])
    assert entry.connections == 0


async def test_the_host_closes_the_lobby_and_every_socket_is_told(lobby: Lobby):
    from games.models import RaceEntry

    alice = await connect(lobby.race, lobby.keys["alice"])
    bob = await connect(lobby.race, lobby.keys["bob"])
    await bob.send({"type": "close"})
    assert (await bob.receive_until("error"))["code"] == "not_host"
    await alice.send({"type": "close"})
    for client in (alice, bob):
        assert (await client.receive_until("closed"))["type"] == "closed"
    race = await db(Race.objects.get)(pk=lobby.race.pk)
    assert (race.status, race.starts_at) == ("finished", None)
    seated = RaceEntry.objects.filter(race=lobby.race, left_at__isnull=True).exists
    assert not await db(seated)()
    await alice.send({"type": "sync", "v": 0, "force": True})
    assert (await alice.receive_until("snapshot"))["race"]["closed"] is True
    await alice.close()
    await bob.close()


async def test_a_forced_sync_answers_with_a_snapshot_even_when_current(started: Lobby):
    alice = await connect(started.race, started.keys["alice"])
    await alice.drain()
    await alice.send({"type": "ping"})
    current = (await alice.receive_until("pong"))["v"]
    await alice.send({"type": "sync", "v": current, "force": True})
    assert (await alice.receive_until("snapshot"))["v"] == current
    await alice.send({"type": "sync", "v": current, "force": "yes"})
    assert (await alice.receive_until("error"))["code"] == "bad_message"
    await alice.close()


async def test_a_broadcast_in_the_previous_release_format_still_reaches_the_racers(
    started: Lobby,
):
    bob = await connect(started.race, started.keys["bob"])
    # A process not yet restarted sends the message itself, not its encoding.
    await get_channel_layer().group_send(
        race_group(started.race.pk), {"type": "race.forward", "message": {"type": "x", "v": 0}}
    )
    assert await bob.receive_until("x") == {"type": "x", "v": 0}
    await bob.close()


async def test_a_socket_that_cannot_handle_its_race_messages_is_closed_not_left_deaf(
    started: Lobby,
):
    bob = await connect(started.race, started.keys["bob"])
    await get_channel_layer().group_send(race_group(started.race.pk), {"type": "race.unknown"})
    closed = await bob.communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4011}

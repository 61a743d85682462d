"""The standings go out as the rows that changed, each frame a link of one chain
(games/tournaments/announce.py): a socket holding the last frame's version applies
the next; the whole table goes to one socket at a time, on connect and `sync`."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db.models import F

from games.models import Player
from games.tournaments.announce import _send_due, announce_forget, rows_changed
from games.tournaments.models import Tournament, TournamentTable
from games.tournaments.services import tournament_join, tournament_pause
from tests.tournaments.helpers import (
    arena,
    no_arena_loop,  # noqa: F401 (autouse: nobody is paired)
    tournament_socket,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def _frame(socket: WebsocketCommunicator, past: int = -1) -> dict[str, Any]:
    """The next frame past version `past`: one at or below it is dropped, as a client does
    (a socket may hear the frame its own first table was sent with)."""
    while True:
        frame: dict[str, Any] = json.loads(await socket.receive_from(timeout=5))
        if frame["v"] > past:
            return frame


def _applied(table: dict[int, dict[str, Any]], order: list[int], frame: dict[str, Any]) -> None:
    """The client's rule (frontend/static/js/tournament-socket.js), on a dict."""
    table.update((row["player"], row) for row in frame["rows"])
    if "order" in frame:
        order[:] = frame["order"]


async def test_a_pause_goes_out_as_that_one_row(alice: Player, bob: Player, charlie: Player):
    tournament = await sync_to_async(arena)(alice, bob, charlie, name="Chain")
    socket = await tournament_socket(tournament.code)
    whole = await _frame(socket)
    assert whole["type"] == "standings"
    assert {row["nickname"] for row in whole["rows"]} == {"bob", "charlie"}
    await sync_to_async(tournament_pause)(tournament=tournament, player=bob)
    frame = await _frame(socket, past=whole["v"])
    assert frame["type"] == "rows"
    assert frame["base"] == whole["v"] < frame["v"]
    (row,) = frame["rows"]
    assert (row["nickname"], row["paused"]) == ("bob", True)
    assert "rank" not in row  # a row's rank is its place in the order
    assert "order" not in frame  # nobody moved
    await socket.disconnect()


async def test_every_frame_counts_from_the_one_before_and_adds_up_to_the_table(
    alice: Player, bob: Player, charlie: Player
):
    tournament = await sync_to_async(arena)(alice, name="Chain")
    socket = await tournament_socket(tournament.code)
    whole = await _frame(socket)
    table: dict[int, dict[str, Any]] = {}
    order: list[int] = []
    version = whole["v"]
    for change in (
        lambda: tournament_join(tournament=tournament, player=bob),
        lambda: tournament_join(tournament=tournament, player=charlie),
        lambda: tournament_pause(tournament=tournament, player=charlie),
    ):
        await sync_to_async(change)()
        frame = await _frame(socket, past=version)
        assert frame["base"] == version
        _applied(table, order, frame)
        version = frame["v"]
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    again = await _frame(socket)
    assert again["type"] == "standings"
    assert again["v"] == version
    assert [row["player"] for row in again["rows"]] == order
    assert [row["rank"] for row in again["rows"]] == [1, 2]
    for row in again["rows"]:
        assert table[row["player"]] | {"rank": row["rank"]} == row
    await socket.disconnect()


async def test_a_socket_opened_before_a_change_goes_out_gets_the_table_with_it(
    alice: Player, bob: Player
):
    """A change whose frame has not gone yet (a timer, a process that died) is sent
    by the next socket to connect, and that socket's table is the frame's version."""
    tournament = await sync_to_async(arena)(alice, name="Chain")
    watcher = await tournament_socket(tournament.code)
    before = await _frame(watcher)

    def joined_unsent() -> None:
        entry = tournament_join(tournament=tournament, player=bob)
        # What a change does before its frame goes: the version moved, the table did not.
        Tournament.objects.filter(pk=entry.tournament_id).update(version=before["v"] + 5)

    await sync_to_async(joined_unsent)()
    newcomer = await tournament_socket(tournament.code)
    first = await _frame(newcomer)
    assert first["v"] >= before["v"] + 5
    assert [row["nickname"] for row in first["rows"]] == ["bob"]
    frames = [await _frame(watcher, past=before["v"])]
    while frames[-1]["v"] < first["v"]:
        frames.append(await _frame(watcher, past=frames[-1]["v"]))
    assert frames[0]["base"] == before["v"]
    assert frames[-1]["v"] == first["v"]
    await watcher.disconnect()
    await newcomer.disconnect()


def test_a_table_is_stored_with_its_version(alice: Player, bob: Player) -> None:
    from games.tournaments.announce import tournament_announce

    tournament = arena(alice, bob, name="Chain")
    table = tournament_announce(tournament_id=tournament.pk)
    assert table is not None
    stored = TournamentTable.objects.get(pk=tournament.pk)
    tournament.refresh_from_db()
    assert stored.version == tournament.version
    assert [row["player"] for row in stored.rows] == [bob.pk]
    assert not {"nickname", "bot"} & set(stored.rows[0])  # the player's, read when sent
    assert tournament_announce(tournament_id=tournament.pk) == stored  # nothing new: not sent


def _row(player: int, points: int) -> dict[str, Any]:
    return {"player": player, "nickname": f"p{player}", "points": points, "race": None}


def test_a_racer_passing_ten_others_changes_one_row_and_the_order() -> None:
    before = [_row(p, 20 - p) | {"rank": p} for p in range(1, 12)]
    after = [_row(11, 30) | {"rank": 1}] + [_row(p, 20 - p) | {"rank": p + 1} for p in range(1, 11)]
    changed, order = rows_changed(before=before, after=after)
    assert changed == [_row(11, 30)]
    assert order == [11, *range(1, 11)]


def test_a_table_that_did_not_move_sends_no_order() -> None:
    before = [_row(1, 5) | {"rank": 1}, _row(2, 3) | {"rank": 2}]
    after = [_row(1, 5) | {"rank": 1}, _row(2, 3) | {"rank": 2, "race": "abcd-efgh"}]
    changed, order = rows_changed(before=before, after=after)
    assert changed == [_row(2, 3) | {"race": "abcd-efgh"}]
    assert order is None


async def test_a_deleted_accounts_name_is_kept_in_no_table(alice: Player, bob: Player):
    """The stored table is the chain's base, kept as long as the tournament: a name in it
    would outlive the account's deletion (games/accounts/deletion.py forgets it)."""
    from games.accounts.deletion import account_delete
    from games.models import DELETED_NICKNAME

    tournament = await sync_to_async(arena)(alice, bob, name="Chain")
    socket = await tournament_socket(tournament.code)
    before = await _frame(socket)
    assert [row["nickname"] for row in before["rows"]] == ["bob"]

    def deleted() -> str:
        user = Player.objects.get(pk=bob.pk).user
        assert user is not None
        account_delete(user=user)
        return json.dumps(TournamentTable.objects.get(pk=tournament.pk).rows)

    stored = await sync_to_async(deleted)()
    assert "bob" not in stored
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    again = await _frame(socket)
    assert again["v"] == before["v"]  # nothing the standings count changed
    assert [row["nickname"] for row in again["rows"]] == [DELETED_NICKNAME]
    await socket.disconnect()


def test_a_frame_waiting_for_its_turn_does_not_outlive_its_test(
    alice: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
):
    # Two changes within COALESCE_S: the second's frame waits on a timer thread. One
    # left behind by its test reached the database during a later test (CI: "Database
    # access not allowed" in tests/races/test_matchmaking.py).
    monkeypatch.setattr("games.tournaments.announce.COALESCE_S", 600.0)
    tournament = arena(alice, bob, name="Chain")
    tournament_pause(tournament=tournament, player=bob)
    # Its own timers only: other timers of this process (a house bot's fill) are not its.
    waiting = [
        t
        for t in threading.enumerate()
        if isinstance(t, threading.Timer) and t.function is _send_due and t.is_alive()
    ]
    assert waiting, "the second change sent at once: nothing waited for its turn"
    announce_forget()
    assert not any(t.is_alive() for t in waiting)
    # Forgotten, not sent late: and the next change goes at once, not after an old turn.
    sent = TournamentTable.objects.get(pk=tournament.pk).version
    tournament_join(tournament=tournament, player=bob)
    assert TournamentTable.objects.get(pk=tournament.pk).version > sent


def test_one_tournaments_announce_does_not_wait_for_anothers(
    alice: Player, bob: Player, charlie: Player
) -> None:
    """Senders queue per tournament: a tournament whose sender is slow (a lock waited
    on, a layer slow to take a frame) holds up its own table, never another's."""
    from games.tournaments import announce

    held = arena(alice, bob, name="Held")
    free = arena(alice, charlie, name="Free")  # one tournament at a time for a player
    Tournament.objects.filter(pk=free.pk).update(version=F("version") + 1)  # a frame to send
    holding, sent = threading.Event(), threading.Event()
    outcome: list[bool] = []

    def hold() -> None:
        with announce._announcing(held.pk):
            holding.set()
            # The free tournament's frame goes while this one's turn is held, or not at all.
            outcome.append(sent.wait(timeout=10))

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    assert holding.wait(timeout=10)
    table = announce.tournament_announce(tournament_id=free.pk)
    sent.set()
    holder.join(timeout=30)
    assert outcome == [True], "the free tournament's frame waited for the held one's turn"
    free.refresh_from_db()
    assert table is not None
    assert table.version == free.version
    # Each turn went with its last sender: the dict keeps only tournaments being sent.
    assert held.pk not in announce._senders
    assert free.pk not in announce._senders

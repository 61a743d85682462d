"""The tournament socket through the real ASGI application: versioned standings as they change."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Player
from games.tournaments.services import tournament_join
from sultan_site.asgi import application
from tests.tournaments.helpers import (
    arena,
    no_arena_loop,  # noqa: F401 (autouse: nobody is paired)
    tournament_socket,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_spectator_gets_the_table_then_every_change(alice: Player, bob: Player) -> None:
    tournament = await sync_to_async(arena)(alice, name="Live")
    socket = await tournament_socket(tournament.code)
    first = json.loads(await socket.receive_from(timeout=5))
    assert first["type"] == "standings"
    assert first["protocol"] == 1
    assert first["rows"] == []
    assert first["phase"] == "running"
    await sync_to_async(tournament_join)(tournament=tournament, player=bob)
    frame = json.loads(await socket.receive_from(timeout=5))
    assert frame["type"] == "rows"
    assert frame["v"] > first["v"] == frame["base"]
    (row,) = frame["rows"]
    assert row["nickname"] == "bob"
    assert {"points", "races", "streak", "race", "paused", "fire"} <= set(row)
    assert frame["order"] == [row["player"]]
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    again = json.loads(await socket.receive_from(timeout=5))
    assert again["type"] == "standings"
    assert again["v"] == frame["v"]
    assert again["rows"] == [row | {"rank": 1}]
    await socket.disconnect()


async def test_a_bad_frame_is_answered_with_an_error_and_changes_nothing(alice: Player) -> None:
    tournament = await sync_to_async(arena)(alice, name="Live")
    socket = await tournament_socket(tournament.code)
    await socket.receive_from(timeout=5)
    await socket.send_to(text_data=json.dumps({"type": "join"}))
    error = json.loads(await socket.receive_from(timeout=5))
    assert error["type"] == "error"
    assert error["code"] == "unknown_type"
    await socket.send_to(text_data="not json")
    assert json.loads(await socket.receive_from(timeout=5))["type"] == "error"
    await socket.disconnect()


async def test_an_unknown_tournament_closes_the_socket(db: None) -> None:
    socket = WebsocketCommunicator(
        application, "/ws/tournaments/nosuch/", headers=[(b"origin", b"http://127.0.0.1")]
    )
    connected, code = await socket.connect(timeout=10)
    assert not connected
    assert code == 4404


def test_a_table_due_for_a_tournament_deleted_meanwhile_is_dropped(alice: Player) -> None:
    """A table waits up to COALESCE_S on a timer thread; a moderator may delete the
    tournament before it goes (a warning from that thread was seen in the suite)."""
    from games.tournaments.announce import tournament_announce

    tournament = arena(alice, name="Live")
    tournament_id = tournament.pk
    tournament.delete()
    tournament_announce(tournament_id=tournament_id)  # nothing to send, nothing raised

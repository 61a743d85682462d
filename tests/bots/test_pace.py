"""A bot races through the same socket with its token, at no more than the bots' pace."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from games.api.services import token_create
from games.bots.rules import player_mark_bot
from games.models import Game, Player
from games.races.services import race_create, race_join, race_start
from sultan_site.asgi import application
from tests.races.helpers import Client, db, guest_session

pytestmark = pytest.mark.django_db(transaction=True)


async def _bot_socket(code: str, secret: str) -> Client:
    headers = [(b"authorization", f"Bearer {secret}".encode())]  # no cookie, no Origin
    communicator = WebsocketCommunicator(application, f"/ws/races/{code}/", headers=headers)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    client = Client(communicator)
    snapshot = await client.receive()
    client.seq = snapshot["you"]["game"]["view"]["seq"] if snapshot["you"]["game"] else 0
    return client


def _race_with_bot(bot: Player) -> tuple[str, str, Player]:
    host, _ = guest_session("alice")
    race = race_create(host=host, variant="sultan")
    race_join(race=race, player=bot)
    race_start(race=race, player=host, countdown_s=0)
    secret = token_create(player=bot, name="bot", scope="play").secret
    return race.code, secret, host


@pytest.fixture
def racing(settings: Any, bob: Player) -> tuple[str, str, Player]:
    settings.SULTAN_BOT_MIN_GAP_MS = 300
    settings.WS_RATE_PER_S = 10_000
    return _race_with_bot(player_mark_bot(player=bob))


async def test_a_bot_plays_as_its_tokens_account(racing: tuple[str, str, Player], bob: Player):
    code, secret, _host = racing
    client = await _bot_socket(code, secret)
    snapshot = client.frames[0]
    assert snapshot["you"]["role"] == "racer"
    assert snapshot["you"]["player"] == bob.pk
    assert {(r["nickname"], r["bot"]) for r in snapshot["racers"]} == {
        ("alice", False),
        ("bob", True),
    }
    answer = await client.move("draw")
    assert answer["type"] == "ack"
    await client.close()


async def test_a_bot_moving_sooner_than_the_minimum_gap_is_refused_clearly(
    racing: tuple[str, str, Player], bob: Player, settings: Any
):
    code, secret, _host = racing
    # A gap no loaded machine spends between an ack and the next move (300 ms was: the
    # hasty move arrived late enough to be on time, in a full run beside busy helpers).
    settings.SULTAN_BOT_MIN_GAP_MS = 5_000
    client = await _bot_socket(code, secret)
    assert (await client.move("draw"))["type"] == "ack"
    hasty = await client.move("draw")
    assert hasty["type"] == "reject"
    assert hasty["code"] == "too_fast"
    assert "5000 ms" in hasty["message"]
    assert hasty["seq"] == client.seq  # nothing was written
    game = await db(Game.objects.get)(race__code=code, player=bob)
    assert game.last_seq == 1
    settings.SULTAN_BOT_MIN_GAP_MS = 300
    await asyncio.sleep(0.35)
    assert (await client.move("draw"))["type"] == "ack"
    # Giving up is never too soon.
    await client.send({"type": "resign", "id": "give-up", "seq": client.seq})
    resigned = await client.receive_until("ack")
    assert resigned["token"] == "resign"
    await client.close()


async def test_a_person_is_not_held_to_the_bots_pace(settings: Any):
    settings.SULTAN_BOT_MIN_GAP_MS = 10_000
    settings.WS_RATE_PER_S = 10_000
    from tests.races.helpers import connect

    host, key = await db(guest_session)("alice")
    other, _ = await db(guest_session)("bob")

    def setup() -> Any:
        race = race_create(host=host, variant="sultan")
        race_join(race=race, player=other)
        race_start(race=race, player=host, countdown_s=0)
        race.refresh_from_db()
        return race

    race = await db(setup)()
    client = await connect(race, key)
    for _ in range(3):
        assert (await client.move("draw"))["type"] == "ack"
    await client.close()


async def test_a_program_reconnecting_in_a_loop_meets_its_tokens_bucket(settings):
    """Bots on one machine share its address's limits (tests/races/test_admission.py);
    each token is also a client of its own, as a session is."""
    from games.races.limits import SocketAdmission

    admission = SocketAdmission()
    scope = {"api_token": "looping", "client": ("127.0.0.1", 9)}
    admitted = [await admission.admit(scope) for _ in range(int(settings.WS_CONNECT_BURST) + 2)]
    assert all(admitted[: int(settings.WS_CONNECT_BURST)])
    assert admitted[-1] is None
    # Another token from the same machine still has its own.
    assert await admission.admit({"api_token": "another", "client": ("127.0.0.1", 10)})

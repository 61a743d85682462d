"""The race socket through outages of what it stands on: the channel layer (Redis) and the
database. Regressions: a failed broadcast or a failed query used to end the socket's
message task, leaving the socket open but deaf; a move must never be acknowledged
unless stored."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import DatabaseError, connection

from games.models import Game, Move
from tests.races.conftest import Lobby
from tests.races.helpers import Client, connect, db
from tests.services import POSTGRES_URL, needs_redis_server, private_redis

pytestmark = pytest.mark.django_db(transaction=True)


async def _answer(client: Client, move_id: str, timeout: float = 10) -> dict[str, Any]:
    while True:
        message = await client.receive(timeout)
        if message["type"] in ("ack", "reject") and message["id"] == move_id:
            return message


async def _heard_from(client: Client, player: int, within_s: float) -> bool:
    """Whether `client` gets progress of `player` within the time (without ending the
    socket: a communicator's receive that times out cancels the application)."""
    if await client.communicator.receive_nothing(timeout=within_s):
        return False
    for message in [await client.receive(), *await client.drain(0.1)]:
        if message["type"] == "progress" and player in {r["player"] for r in message["racers"]}:
            return True
    return False


@needs_redis_server
async def test_moves_are_answered_while_redis_is_down_and_progress_resumes_after(
    started: Lobby, settings
):
    with private_redis() as redis:
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "sultan_site.channel_layer.RedisParallelPublishChannelLayer",
                "CONFIG": {"hosts": [redis.url]},
            }
        }
        alice = await connect(started.race, started.keys["alice"])
        bob = await connect(started.race, started.keys["bob"])
        alice_id = started.players["alice"].pk
        await asyncio.to_thread(redis.stop)

        answer = await alice.move("draw")
        assert answer["type"] == "ack"
        # The socket still handles what comes next: before the fix its task had died.
        await alice.send({"type": "ping"})
        assert (await alice.receive_until("pong"))["v"] >= 1

        await asyncio.to_thread(redis.start)
        deadline = time.monotonic() + 15
        heard = False
        while not heard and time.monotonic() < deadline:
            await alice.move("draw")
            heard = await _heard_from(bob, alice_id, within_s=1)
        assert heard, "bob never heard alice again after Redis came back"
        await alice.close()
        await bob.close()


def _postgres_database() -> str | None:
    if connection.vendor != "postgresql":
        return None
    return str(connection.settings_dict["NAME"])


@pytest.fixture
def test_database() -> Iterator[str]:
    name = _postgres_database()
    if name is None:
        pytest.skip("closing a database to connections needs PostgreSQL")
    yield name
    _allow_connections(name, True)
    _drop_connection()  # this thread's, cut with the others: the teardown needs a live one


def _allow_connections(name: str, allowed: bool) -> None:
    """Open or close the test database; closing also cuts the connections it has."""
    import psycopg

    parts = urlsplit(POSTGRES_URL)
    admin = (
        f"host={connection.settings_dict['HOST'] or parts.hostname} "
        f"port={connection.settings_dict['PORT'] or parts.port or 5432} "
        f"user={connection.settings_dict['USER'] or parts.username} dbname=postgres"
    )
    with psycopg.connect(admin, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {str(allowed).lower()}')
        if not allowed:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            )


def _drop_connection() -> None:
    """The test's own connection was cut too: give it back, the pool drops it (closing a cut
    connection may fail as well)."""
    with contextlib.suppress(DatabaseError):
        connection.close()


async def _retried_until_answered(client: Any, frame: dict[str, Any]) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while True:
        await client.send(json.dumps(frame))
        answer = await _answer(client, frame["id"])
        if answer.get("code") != "unavailable" or time.monotonic() > deadline:
            return answer
        await asyncio.sleep(0.2)  # a client's back-off between retries


async def test_a_move_is_refused_while_the_database_is_away_and_accepted_after(
    started: Lobby, test_database
):
    alice = await connect(started.race, started.keys["alice"])
    await alice.drain()
    await asyncio.to_thread(_allow_connections, test_database, False)
    try:
        frame = {"type": "move", "token": "draw", "id": "out-1", "seq": 0}
        await alice.send(frame)
        refused = await _answer(alice, "out-1")
        assert refused["type"] == "reject"
        assert refused["code"] == "unavailable"
        await alice.send({"type": "ping"})
        assert (await alice.receive_until("error"))["code"] == "unavailable"
    finally:
        await asyncio.to_thread(_allow_connections, test_database, True)
        await db(_drop_connection)()
    # The same move again, as a client retries it while it hears `unavailable` (the pool
    # reconnects in the background, in its own time): stored once, answered.
    accepted = await _retried_until_answered(alice, frame)
    assert accepted["type"] == "ack"
    assert accepted["seq"] == 1
    game = await db(Game.objects.get)(race=started.race, player=started.players["alice"])
    assert await db(Move.objects.filter(game=game).count)() == 1
    await alice.close()

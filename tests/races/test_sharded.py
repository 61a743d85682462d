"""Beyond one machine, on existing parts: the channel layer sharded over two Redis
servers (channels_redis hashes each race's group to one of them), three Daphne
processes, and the racers of each race spread over the three (docs/scaling.md)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import redis

from tests.races.live_helpers import (
    listening,
    live_race,
    move,
    open_socket,
    progress_of,
    start_race,
)
from tests.servers import daphne, database_env
from tests.services import REDIS_URL, needs_redis, needs_redis_server

SECOND_REDIS_PORT = 6390
# channels_redis places a name by CRC32 on a ring of 4,096: over many races the two
# shards hold about half each, but the first seven race ids of a fresh database
# all land on the first. The eighth is the first on the second (checked below).
RACES = 8
# Pub/sub channels are not scoped by Redis's database number: a prefix of our own.
PREFIX = f"sultan-sharded-{os.getpid()}"


@contextlib.contextmanager
def second_redis() -> Iterator[str]:
    """A throwaway redis-server on loopback, stopped (by its own pid) afterwards."""
    with tempfile.TemporaryDirectory(prefix="sultan-redis-") as tmp:
        pidfile = Path(tmp) / "redis.pid"
        subprocess.run(
            [
                shutil.which("redis-server") or "redis-server",
                *("--port", str(SECOND_REDIS_PORT), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--daemonize", "yes"),
                *("--pidfile", str(pidfile), "--dir", tmp),
            ],
            check=True,
            timeout=30,
        )
        url = f"redis://127.0.0.1:{SECOND_REDIS_PORT}/0"
        client = redis.Redis.from_url(url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        try:
            yield url
        finally:
            client.shutdown(nosave=True)


def _race_groups(url: str) -> set[str]:
    """The race groups whose messages this Redis server carries (its subscriptions)."""
    client = redis.Redis.from_url(url, decode_responses=True)
    return {str(c) for c in client.pubsub_channels(f"{PREFIX}__group__race-*")}


@needs_redis
@needs_redis_server
async def test_racers_of_one_race_on_three_processes_over_two_redis_shards_see_each_other():
    with second_redis() as extra, database_env("race_sharded") as env:
        env = {
            **env,
            "SULTAN_RACE_COUNTDOWN_S": "0",
            "SULTAN_CHANNEL_REDIS_URLS": f"{REDIS_URL},{extra}",
            "SULTAN_CHANNEL_PREFIX": PREFIX,
        }
        with daphne(env) as one, daphne(env) as two, daphne(env) as three:
            servers = (one, two, three)
            names = ("alice", "bob", "charlie")
            async with contextlib.AsyncExitStack() as stack:
                races = []
                for number in range(RACES):
                    code, seats = await live_race(servers[number % 3], names)
                    # Each racer's socket on another process, and one more on the next to listen.
                    sockets = [
                        await open_socket(seat, servers[i], code) for i, seat in enumerate(seats)
                    ]
                    for socket in sockets:
                        stack.push_async_callback(socket.close)
                    ears = [
                        await stack.enter_async_context(listening(seat, servers[(i + 1) % 3], code))
                        for i, seat in enumerate(seats)
                    ]
                    await start_race(sockets[0], sockets)
                    races.append((seats, sockets, ears))
                # The races' groups are spread: each Redis server carries some of them.
                held = _race_groups(REDIS_URL), _race_groups(extra)
                assert all(held), held
                for seats, sockets, ears in races:
                    for seat, socket in zip(seats, sockets, strict=True):
                        assert (await move(socket, seat, "draw", "m1"))["type"] == "ack"
                    for ear in ears:
                        for seat in seats:
                            assert await ear.wait_for(progress_of(seat.player, 1))

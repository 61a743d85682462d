"""/healthz answers 200 only when the database and the channel layer both work, and says
which one failed otherwise, within a bounded time."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections

from games.health import health
from tests.servers import daphne, database_env, free_port


def _get(url: str) -> tuple[int, dict[str, Any]]:
    """The answer; a check that hangs fails here as a timeout (a deadline on the answer,
    far above the checks' own limit: the bound itself is theirs, not the test's clock)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read()
    return status, json.loads(body)


def test_a_healthy_server_reports_both_checks_ok():
    with database_env("health") as env, daphne(env) as server:
        status, body = _get(f"{server.url}/healthz")
    assert status == 200
    assert body == {"status": "ok", "database": "ok", "channel_layer": "ok"}


def test_a_dead_redis_makes_it_unavailable_and_names_the_channel_layer():
    with database_env("health_redis") as env:
        env = {**env, "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}
        with daphne(env, healthy=False) as server:
            status, body = _get(f"{server.url}/healthz")
    assert status == 503
    assert body["status"] == "unavailable"
    assert body["database"] == "ok"
    assert body["channel_layer"] in ("error", "timeout")


def test_a_dead_database_makes_it_unavailable_and_names_the_database():
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["DJANGO_SETTINGS_MODULE"] = "sultan_site.settings"
    # Nothing listens on that port: the connection is refused at once.
    env["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:{free_port()}/nowhere"
    with daphne(env, healthy=False) as server:
        status, body = _get(f"{server.url}/healthz")
    assert status == 503
    assert body["status"] == "unavailable"
    assert body["channel_layer"] == "ok"
    # Refused at once ("error"), or still being retried by the pool when the check gives up.
    assert body["database"] in ("error", "timeout")


@pytest.fixture
def silent_redis() -> Iterator[int]:
    """A port that accepts connections and never answers: a hung Redis."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join(2)
    for conn in accepted:
        conn.close()
    listener.close()


@pytest.fixture
def short_lived_connections() -> Iterator[None]:
    """The check runs in a worker thread with a connection of its own; closed after the
    call, it cannot keep the test database from being dropped."""
    options = connections.settings["default"]
    kept = options["CONN_MAX_AGE"]
    options["CONN_MAX_AGE"] = 0
    yield
    options["CONN_MAX_AGE"] = kept


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("short_lived_connections")
async def test_a_hung_channel_layer_is_reported_as_a_timeout_within_the_bound(
    settings, silent_redis
):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "sultan_site.channel_layer.RedisParallelPublishChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{silent_redis}/0"]},
        }
    }
    # The silent Redis never answers: "timeout" can only be the check's own bound firing
    # (a hang would stop at the deadline instead).
    async with asyncio.timeout(30):
        report = await health(timeout_s=0.5)
    assert report == {"status": "unavailable", "database": "ok", "channel_layer": "timeout"}

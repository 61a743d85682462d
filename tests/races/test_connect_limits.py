"""A client reconnecting in a loop is refused at the handshake, before any database work;
other clients are not affected."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings

from games.races.limits import ConnectLimiter, client_key
from sultan_site.asgi import application
from tests.races.conftest import Lobby


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_is_allowed_then_the_rate():
    clock = Clock()
    limiter = ConnectLimiter(per_minute=30, burst=3, clock=clock)
    assert [limiter.allow("a") for _ in range(4)] == [True, True, True, False]
    clock.now += 1.9  # 30 a minute is one every 2 s
    assert not limiter.allow("a")
    clock.now += 0.2
    assert limiter.allow("a")
    assert not limiter.allow("a")


def test_clients_are_counted_apart():
    limiter = ConnectLimiter(per_minute=1, burst=1, clock=Clock())
    assert limiter.allow("a")
    assert not limiter.allow("a")
    assert limiter.allow("b")


def test_memory_is_bounded_by_forgetting_the_least_recent_client():
    limiter = ConnectLimiter(per_minute=1, burst=1, clock=Clock(), max_clients=2)
    for client in ("a", "b", "c"):
        assert limiter.allow(client)
    # "a" was forgotten: it starts again with a full bucket.
    assert limiter.allow("a")
    assert not limiter.allow("c")


def test_a_client_is_its_session_else_its_address():
    assert client_key({"cookies": {"sessionid": "k"}, "client": ("1.2.3.4", 5)}, "sessionid") == (
        "session:k"
    )
    assert client_key({"cookies": {}, "client": ("1.2.3.4", 5)}, "sessionid") == "address:1.2.3.4"
    assert client_key({}, "sessionid") == "address:unknown"


async def _connects(session_key: str, code: str) -> tuple[bool, int | None]:
    communicator = WebsocketCommunicator(
        application,
        f"/ws/races/{code}/",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"cookie", f"sessionid={session_key}".encode()),
        ],
    )
    connected, close_code = await communicator.connect(timeout=10)
    if connected:
        await communicator.disconnect()
    return connected, close_code


@pytest.mark.django_db(transaction=True)
async def test_a_reconnect_loop_is_refused_and_others_still_connect(started: Lobby):
    code = started.race.code
    outcomes = [
        await _connects(started.keys["alice"], code) for _ in range(settings.WS_CONNECT_BURST + 1)
    ]
    assert all(connected for connected, _ in outcomes[:-1])
    assert outcomes[-1] == (False, 4008)
    assert await _connects(started.keys["bob"], code) == (True, None)

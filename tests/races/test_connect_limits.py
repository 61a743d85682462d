"""A client reconnecting in a loop is refused at the handshake, before the snapshot's
work; other clients are not affected. A client is a session that exists, else its
address: invented session cookies are no way around the limit (issue 22, defect 3)."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings

from games.races.limits import ConnectLimiter, client_address
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


def test_an_address_is_the_peer_or_unknown():
    assert client_address({"client": ("1.2.3.4", 5)}) == "1.2.3.4"
    assert client_address({}) == "unknown"


def _communicator(session_key: str, code: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application,
        f"/ws/races/{code}/",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"cookie", f"sessionid={session_key}".encode()),
        ],
    )


async def _connects(session_key: str, code: str) -> tuple[bool, int | None]:
    communicator = _communicator(session_key, code)
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


@pytest.mark.django_db(transaction=True)
async def test_invented_session_cookies_count_as_their_address(started: Lobby):
    """Defect 3: 1,000 sockets with random `sessionid` cookies were all accepted."""
    code = started.race.code
    outcomes = [
        await _connects(secrets.token_hex(16), code) for _ in range(settings.WS_CONNECT_BURST + 1)
    ]
    assert all(connected for connected, _ in outcomes[:-1])
    assert outcomes[-1] == (False, 4008)
    # A session that exists is a client of its own, from the same address.
    assert await _connects(started.keys["bob"], code) == (True, None)


@pytest.mark.django_db(transaction=True)
async def test_an_address_holds_only_so_many_sockets_open(started: Lobby, settings: Any):
    settings.WS_OPEN_PER_ADDRESS = 3
    code = started.race.code
    held = []
    for name in ("alice", "bob", "charlie"):
        communicator = _communicator(started.keys[name], code)
        connected, _ = await communicator.connect(timeout=10)
        assert connected
        await communicator.receive_json_from(timeout=10)  # its snapshot
        held.append(communicator)
    assert await _connects(started.keys["dave"], code) == (False, 4008)
    await held.pop().disconnect()
    assert await _connects(started.keys["dave"], code) == (True, None)
    for communicator in held:
        await communicator.disconnect()

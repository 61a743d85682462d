"""Close codes as a real client sees them from Daphne. Regression: the socket closed with
1008/1009, which Daphne's websocket library refuses from an application; the client got
1011 (internal error) and the server logged a traceback."""

from __future__ import annotations

import contextlib
import json

import pytest
import websockets

from tests.live import WebClient, receive_until
from tests.servers import daphne, database_env


@pytest.fixture(scope="module")
def server():
    with database_env("close_codes") as env, daphne({**env, "SULTAN_WS_RATE_PER_S": "30"}) as live:
        yield live


async def _socket(server):
    alice = WebClient(server.url)
    _, url = alice.post("/races/new", {"nickname": "alice", "time_limit": 5, "seats": 2})
    code = url.rstrip("/").rsplit("/", 1)[1]
    ws = await alice.connect(server.ws_url, f"/ws/races/{code}/")
    await receive_until(ws, "snapshot")
    return ws


async def _close_code(ws) -> int | None:
    """Read to the end; the code the server closed with."""
    with contextlib.suppress(websockets.exceptions.ConnectionClosed):
        async for _ in ws:
            pass
    code: int | None = ws.close_code
    return code


async def test_an_oversized_frame_closes_the_socket_with_4009(server):
    ws = await _socket(server)
    await ws.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
    assert (await receive_until(ws, "error"))["code"] == "too_big"
    assert await _close_code(ws) == 4009


async def test_a_flooder_is_closed_with_4008(server):
    ws = await _socket(server)
    # The server may cut the connection before the last of these is sent.
    with contextlib.suppress(websockets.exceptions.ConnectionClosed, ConnectionResetError):
        for _ in range(200):
            await ws.send(json.dumps({"type": "ping"}))
    assert await _close_code(ws) == 4008

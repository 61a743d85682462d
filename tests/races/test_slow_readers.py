"""A client that stops reading costs the server bounded memory (races/backlog.py): over a real
Daphne, a socket whose client never reads is closed once stalled, and the others of its race
go on getting every version."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import socket
import struct
import urllib.request
from urllib.parse import urlsplit

import pytest

from games.races.fanout import HELD_RETRY_S, Fanout
from tests.live import WebClient, receive_until
from tests.servers import daphne, database_env, free_port

TCP_CLOSE = 7  # tcpi_state, linux/tcp_states.h
STALL_CLOSE_S = 2


@pytest.fixture(scope="module")
def server():
    metrics_port = free_port()
    env_extra = {
        "SULTAN_RACE_COUNTDOWN_S": "0",
        "SULTAN_WS_RATE_PER_S": "1000",
        "SULTAN_WS_SILENCE_CLOSE_S": "600",
        "SULTAN_WS_SHED_BYTES": "4096",
        "SULTAN_WS_STALL_CLOSE_BYTES": str(64 * 1024 * 1024),  # the time closes it here
        "SULTAN_WS_STALL_CLOSE_S": str(STALL_CLOSE_S),
        "SULTAN_METRICS_PORT": str(metrics_port),
    }
    with database_env("slow_readers") as env, daphne({**env, **env_extra}) as live:
        live.env["metrics_url"] = f"http://127.0.0.1:{metrics_port}/metrics"
        yield live


def _frame(text: str) -> bytes:
    """A client's text frame (masked, as a client's must be)."""
    payload, mask = text.encode(), os.urandom(4)
    head = struct.pack("!BB", 0x81, 0x80 | len(payload)) if len(payload) < 126 else b""
    assert head, "a short frame only"
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _stalled_socket(client: WebClient, ws_url: str, path: str) -> socket.socket:
    """A websocket that never reads past its handshake, with a tiny receive buffer."""
    parts = urlsplit(ws_url)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.connect((parts.hostname, parts.port))
    key = base64.b64encode(os.urandom(16)).decode()
    headers = client.socket_headers(client.base)
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Cookie: {headers['Cookie']}\r\nOrigin: {headers['Origin']}\r\n\r\n"
    )
    sock.sendall(request.encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(1)  # the handshake only: the frames behind it stay unread
    assert answer.startswith(b"HTTP/1.1 101"), answer
    sock.setblocking(False)
    return sock


def _closed_by_server(sock: socket.socket) -> bool:
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)
    return info[0] == TCP_CLOSE


def _metric(url: str, name: str) -> float:
    with urllib.request.urlopen(url, timeout=10) as response:
        text = response.read().decode()
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


async def _stall(sock: socket.socket, until: asyncio.Event) -> None:
    """Ask for snapshots (a few KB each) and never read them, until the server drops us."""
    sync = _frame(json.dumps({"type": "sync", "v": 0, "force": True}))
    while not until.is_set():
        if _closed_by_server(sock):
            until.set()
            return
        try:
            sock.send(sync)
        except BlockingIOError:
            pass
        except OSError:  # reset by the server
            until.set()
            return
        await asyncio.sleep(0.005)


async def test_it_closes_a_reader_that_stalled_and_the_others_get_every_version(server):
    alice, bob, carol = (WebClient(server.url) for _ in range(3))
    _, race_url = alice.post("/races/new", {"nickname": "alice", "time_limit": 15, "seats": 2})
    code = race_url.rstrip("/").rsplit("/", 1)[1]
    bob.post(f"/r/{code}/join", {"nickname": "bob"})
    path = f"/ws/races/{code}/"
    alice_ws = await alice.connect(server.ws_url, path)
    bob_ws = await bob.connect(server.ws_url, path)
    stalled = _stalled_socket(carol, server.ws_url, path)  # a spectator who stops reading
    dropped = asyncio.Event()
    try:
        await receive_until(alice_ws, "snapshot")
        await receive_until(bob_ws, "snapshot")
        await alice_ws.send(json.dumps({"type": "start"}))
        running = await receive_until(bob_ws, "snapshot")
        assert running["race"]["status"] == "running"
        stalling = asyncio.create_task(_stall(stalled, dropped))

        acked: list[int] = []
        for seq in range(20):
            move = {"type": "move", "token": "draw", "id": f"a{seq}", "seq": seq}
            await alice_ws.send(json.dumps(move))
            acked.append((await receive_until(alice_ws, "ack"))["v"])
        seen: set[int] = set()
        while not set(acked) <= seen:
            seen.update((await receive_until(bob_ws, "progress"))["vs"])

        async with asyncio.timeout(60):  # an outcome awaited, not a duration asserted
            await dropped.wait()
        await stalling
        assert _closed_by_server(stalled) or dropped.is_set()
        assert _metric(server.env["metrics_url"], 'sultan_slow_readers_total{what="closed"}') == 1

        # The others' sockets are untouched: a move still reaches bob.
        await alice_ws.send(json.dumps({"type": "move", "token": "draw", "id": "a20", "seq": 20}))
        last = (await receive_until(alice_ws, "ack"))["v"]
        while last not in seen:
            seen.update((await receive_until(bob_ws, "progress"))["vs"])
    finally:
        dropped.set()
        stalled.close()
        await alice_ws.close()
        await bob_ws.close()


async def test_it_holds_a_behind_readers_progress_and_sends_it_coalesced_when_it_reads():
    sent: list[dict[str, object]] = []
    arrived = asyncio.Event()
    behind = True

    async def send_text(text: str) -> None:
        sent.append(json.loads(text))
        arrived.set()

    fanout = Fanout(send_text, held=lambda: behind)
    try:
        for seq in (1, 2, 3):
            racer = json.dumps({"player": 7, "seq": seq})
            await fanout.progress(seq, 7, seq, racer)
        # Several looks at the held socket go by without a frame.
        await asyncio.sleep(HELD_RETRY_S * 3)
        assert sent == []
        behind = False
        async with asyncio.timeout(10):
            await arrived.wait()
        assert sent == [{"type": "progress", "vs": [1, 2, 3], "racers": [{"player": 7, "seq": 3}]}]
    finally:
        await fanout.close()

"""The house bot's token goes only where the configuration sends it (issue #36, point 1).

A race host who forges `Host: 127.0.0.1:<their port>` (Origin and Referer to match) on
"add a bot" is played by a real TCP listener of the test: whatever connects to it, and
whatever it sends, is recorded. The bot must race on the real server all the same."""

from __future__ import annotations

import asyncio
import json
import socketserver
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

from tests.live import WebClient
from tests.servers import daphne, database_env

LIVE = {"SULTAN_BOT_MIN_GAP_MS": "40", "SULTAN_WS_CONNECT_BURST": "100"}


class _Listener(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        self.heard: list[bytes] = []
        super().__init__(("127.0.0.1", 0), _Record)

    @property
    def port(self) -> int:
        return int(self.server_address[1])


class _Record(socketserver.BaseRequestHandler):
    """Reads what a client sends (a websocket handshake's headers) and answers nothing."""

    def handle(self) -> None:
        self.request.settimeout(5)
        data = b""
        try:
            while b"\r\n\r\n" not in data and len(data) < 65536:
                chunk = self.request.recv(4096)
                if not chunk:
                    break
                data += chunk
        except OSError:
            pass
        assert isinstance(self.server, _Listener)
        self.server.heard.append(data)


@contextmanager
def _listener() -> Iterator[_Listener]:
    server = _Listener()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _post_forged(host: WebClient, path: str, fields: dict[str, str], forged: str) -> str:
    """A form posted to the real server with every address header forged; the final URL."""
    if host.cookie("csrftoken") is None:
        host.get("/")
    data = {**fields, "csrfmiddlewaretoken": host.cookie("csrftoken") or ""}
    request = urllib.request.Request(
        host.base + path,
        data=urllib.parse.urlencode(data).encode(),
        headers={"Host": forged, "Origin": f"http://{forged}", "Referer": f"http://{forged}/"},
    )
    with host.opener.open(request, timeout=10) as response:
        assert response.status == 200
        return str(response.url)


async def _bot_here_or_token_gone(socket, attacker: _Listener, timeout: float = 30) -> bool:
    """True once the house bot is seated and connected to the race this socket watches;
    False as soon as anything reaches the attacker's listener."""
    bots: set[int] = set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if attacker.heard:
            return False
        try:
            message = json.loads(await asyncio.wait_for(socket.recv(), 0.2))
        except TimeoutError:
            continue
        for racer in message.get("racers") or []:
            if racer["bot"]:
                bots.add(racer["player"])
                if racer["ready"] or racer["here"]:
                    return not attacker.heard
        if message["type"] == "presence" and bots & set(message["here"]):
            return not attacker.heard
    raise AssertionError("the house bot never came")


def _unset(env: dict[str, str], name: str) -> dict[str, str]:
    return {key: value for key, value in env.items() if key != name}


def _new_race(host: WebClient) -> str:
    _, url = host.post("/races/new", {"nickname": "alice", "time_limit": 15, "seats": 2})
    return url.rstrip("/").rsplit("/", 1)[1]


async def test_it_never_sends_the_bots_token_to_a_host_named_in_the_request():
    with (
        _listener() as attacker,
        database_env("bot_address") as env,
        daphne({**_unset(env, "SULTAN_BOT_SOCKET_URL"), **LIVE}) as live,
    ):
        host = WebClient(live.url)
        code = _new_race(host)
        socket = await host.connect(live.ws_url, f"/ws/races/{code}/")
        bot = {"strength": "quick", "pace": "fast"}
        _post_forged(host, f"/r/{code}/bot", bot, f"127.0.0.1:{attacker.port}")
        ready = await _bot_here_or_token_gone(socket, attacker)
        await socket.close()
        await asyncio.sleep(0.5)  # anything late would still be recorded
        assert attacker.heard == [], "the bot's socket went to the forged host"
        assert ready  # it raced at the process's own address instead


async def test_it_never_sends_the_filling_bots_token_to_a_host_named_in_race_now():
    """A public lobby's filler: its wait began in a "Race now" posted with a forged Host."""
    fill = {"SULTAN_BOT_FILL_AFTER_S": "2"}
    with (
        _listener() as attacker,
        database_env("bot_fill_address") as env,
        daphne({**_unset(env, "SULTAN_BOT_SOCKET_URL"), **LIVE, **fill}) as live,
    ):
        person = WebClient(live.url)
        fields = {"variant": "sultan", "minutes": "5", "nickname": "dave"}
        url = _post_forged(person, "/races/now", fields, f"127.0.0.1:{attacker.port}")
        code = url.rstrip("/").rsplit("/", 1)[1]
        socket = await person.connect(live.ws_url, f"/ws/races/{code}/")  # she waits
        came = await _bot_here_or_token_gone(socket, attacker)
        await socket.close()
        await asyncio.sleep(0.5)
        assert attacker.heard == [], "the filling bot's socket went to the forged host"
        assert came


async def test_the_bot_connects_where_sultan_bot_socket_url_says_and_nowhere_else():
    with (
        _listener() as attacker,
        _listener() as configured,
        database_env("bot_configured") as env,
        daphne(
            {**env, **LIVE, "SULTAN_BOT_SOCKET_URL": f"ws://127.0.0.1:{configured.port}"}
        ) as live,
    ):
        host = WebClient(live.url)
        code = _new_race(host)
        bot = {"strength": "quick", "pace": "fast"}
        _post_forged(host, f"/r/{code}/bot", bot, f"127.0.0.1:{attacker.port}")
        deadline = time.monotonic() + 15
        while not configured.heard and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        assert attacker.heard == []
        handshake = configured.heard[0].decode("latin-1")
        assert handshake.startswith(f"GET /ws/races/{code}/ ")
        assert "authorization: bearer sultan_" in handshake.lower()

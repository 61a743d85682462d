"""Racers on real Daphne processes, over real sockets: seats taken over HTTP like a
browser, every frame a socket receives kept by a task of its own."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from tests.live import WebClient, receive_until
from tests.servers import LiveServer


@dataclass
class Listener:
    """A socket whose every frame is kept by a task of its own."""

    socket: Any
    frames: list[dict[str, Any]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.socket:
                self.frames.append(json.loads(raw))

    def start(self) -> Listener:
        self.task = asyncio.create_task(self._read())
        return self

    async def wait_for(self, check: Any, timeout: float = 10) -> bool:
        async with asyncio.timeout(timeout):
            while not any(check(f) for f in self.frames):
                await asyncio.sleep(0.02)
        return True

    async def close(self) -> None:
        await self.socket.close()
        if self.task is not None:
            await self.task


@dataclass
class Seat:
    client: WebClient
    player: int = 0
    seq: int = 0


async def live_race(host_server: LiveServer, names: tuple[str, ...]) -> tuple[str, list[Seat]]:
    seats = [Seat(WebClient(host_server.url)) for _ in names]
    _, url = seats[0].client.post(
        "/races/new", {"nickname": names[0], "time_limit": 15, "seats": len(names)}
    )
    code = url.rstrip("/").rsplit("/", 1)[1]
    for seat, name in zip(seats[1:], names[1:], strict=True):
        seat.client.post(f"/r/{code}/join", {"nickname": name})
    return code, seats


async def open_socket(seat: Seat, server: LiveServer, code: str) -> Any:
    socket = await seat.client.connect(server.ws_url, f"/ws/races/{code}/")
    snapshot = await receive_until(socket, "snapshot")
    seat.player = snapshot["you"]["player"]
    if snapshot["you"]["game"]:
        seat.seq = snapshot["you"]["game"]["view"]["seq"]
    return socket


async def start_race(host_socket: Any, sockets: list[Any]) -> None:
    await host_socket.send(json.dumps({"type": "start"}))
    for socket in sockets:
        while (await receive_until(socket, "snapshot"))["race"]["status"] != "running":
            pass


async def move(socket: Any, seat: Seat, token: str, move_id: str) -> dict[str, Any]:
    await socket.send(json.dumps({"type": "move", "token": token, "id": move_id, "seq": seat.seq}))
    async with asyncio.timeout(10):
        while True:
            answer: dict[str, Any] = json.loads(await socket.recv())
            if answer["type"] in ("ack", "reject") and answer.get("id") == move_id:
                if answer["type"] == "ack":
                    seat.seq = answer["seq"]
                return answer


def progress_of(player: int, seq: int) -> Any:
    def check(frame: dict[str, Any]) -> bool:
        return frame["type"] == "progress" and any(
            r["player"] == player and r["seq"] >= seq for r in frame["racers"]
        )

    return check


@contextlib.asynccontextmanager
async def listening(seat: Seat, server: LiveServer, code: str) -> AsyncIterator[Listener]:
    listener = Listener(await open_socket(seat, server, code)).start()
    try:
        yield listener
    finally:
        await listener.close()

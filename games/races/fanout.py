"""One socket's share of a race's announcements: progress coalesced, the rest in order.

A move was one frame in and one frame out to each of the race's sockets. Here
a socket's progress frames go out at most every `EVERY_S`: the first at once,
those arriving within the interval together in the next frame, which carries
the versions it covers and, for each racer that changed, their latest state
(a racer's later seq supersedes the earlier). So frames per move fall as the
race speeds up, and a quiet race's move still goes out at once. Any other
announcement (the end, a lobby change, a rematch) first flushes what is
pending, so it never overtakes a progress it follows. The mover's own `ack`
goes straight out, never behind this (games/races/consumer.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Final

from games.races.protocol import progress_frame

EVERY_S: Final = 0.05


class ProgressBuffer:
    """Progress events waiting for a frame: their versions, each racer's latest."""

    __slots__ = ("racers", "versions")

    def __init__(self) -> None:
        self.versions: list[int] = []
        self.racers: dict[int, tuple[int, str]] = {}  # player → (seq, encoded racer)

    def add(self, version: int, player: int, seq: int, racer: str) -> None:
        self.versions.append(version)
        known = self.racers.get(player)
        if known is None or known[0] < seq:
            self.racers[player] = (seq, racer)

    def take(self) -> str | None:
        if not self.versions:
            return None
        text = progress_frame(sorted(self.versions), [racer for _, racer in self.racers.values()])
        self.versions, self.racers = [], {}
        return text


class Fanout:
    """A socket's progress frames, paced by a task of its own."""

    def __init__(self, send_text: Callable[[str], Awaitable[None]], every_s: float = EVERY_S):
        self.send_text = send_text
        self.every_s = every_s
        self.buffer = ProgressBuffer()
        self.sent_at = 0.0
        self.wake = asyncio.Event()
        self.task = asyncio.create_task(self._pace())

    async def progress(self, version: int, player: int, seq: int, racer: str) -> None:
        self.buffer.add(version, player, seq, racer)
        if not self.wake.is_set() and time.monotonic() - self.sent_at >= self.every_s:
            # A quiet moment: out at once, without waking the pacing task (at a
            # human pace nearly every frame goes this way).
            await self.flush()
        else:
            self.wake.set()

    async def flush(self) -> None:
        text = self.buffer.take()
        if text is not None:
            self.sent_at = time.monotonic()
            await self.send_text(text)

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task

    async def _pace(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            wait = self.sent_at + self.every_s - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            await self.flush()

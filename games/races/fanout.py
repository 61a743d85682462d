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

A client that stops reading is `held` (races/backlog.py): its progress waits
here, coalesced (one entry per racer, the versions it covers), and goes out
as one frame once the client has read enough, rather than piling up in the
server's write buffer frame after frame.

`PROGRESS_DELIVERY_SECONDS` counts, for each progress a frame carries, from
its publisher's send to this frame going out: the pacing's wait included.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Final

from games.metrics.definitions import PROGRESS_DELIVERY_SECONDS, SLOW_READERS
from games.races.protocol import progress_frame

EVERY_S: Final = 0.05
# How often a held socket is looked at again.
HELD_RETRY_S: Final = 0.25


class ProgressBuffer:
    """Progress events waiting for a frame: their versions, each racer's latest."""

    __slots__ = ("racers", "sent", "versions")

    def __init__(self) -> None:
        self.versions: list[int] = []
        self.racers: dict[int, tuple[int, str]] = {}  # player → (seq, encoded racer)
        self.sent: list[float] = []  # when the publisher sent each (wall clock)

    def add(
        self, version: int, player: int, seq: int, racer: str, sent: float | None = None
    ) -> None:
        self.versions.append(version)
        if sent is not None:
            self.sent.append(sent)
        known = self.racers.get(player)
        if known is None or known[0] < seq:
            self.racers[player] = (seq, racer)

    def take(self) -> str | None:
        if not self.versions:
            return None
        text = progress_frame(sorted(self.versions), [racer for _, racer in self.racers.values()])
        now = time.time()
        for sent in self.sent:
            PROGRESS_DELIVERY_SECONDS.observe(max(0.0, now - sent))
        self.versions, self.racers, self.sent = [], {}, []
        return text


class Fanout:
    """A socket's progress frames, paced by a task of its own."""

    def __init__(
        self,
        send_text: Callable[[str], Awaitable[None]],
        every_s: float = EVERY_S,
        held: Callable[[], bool] = lambda: False,
    ):
        self.send_text = send_text
        self.held = held
        self.every_s = every_s
        self.buffer = ProgressBuffer()
        self.sent_at = 0.0
        self.wake = asyncio.Event()
        self.task = asyncio.create_task(self._pace())

    async def progress(
        self, version: int, player: int, seq: int, racer: str, sent: float | None = None
    ) -> None:
        self.buffer.add(version, player, seq, racer, sent)
        quiet = not self.wake.is_set() and time.monotonic() - self.sent_at >= self.every_s
        if quiet and not self.held():
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
            if self.held():
                SLOW_READERS.labels("held").inc()
                while self.held():
                    await asyncio.sleep(HELD_RETRY_S)
            await self.flush()

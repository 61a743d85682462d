"""The arena loop: one task per web process running `pairing_tick` every
`TOURNAMENT_TICK_MS`, and the site's daily arenas made once a minute.

Every process runs one; the tournament row's lock (pairing.py) lets one of them
pair a tournament on a tick. A waiting entrant is seated within a tick, plus
`TOURNAMENT_GATHER_S` when fewer than a full race wait: a few seconds at most.
Started by the process's first tournament socket (consumer.py): a waiting
entrant has the tournament's page open, and so its socket; a process nobody
watches a tournament on spends nothing on it. `manage.py arena` runs the same
loop out of a web process.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import ClassVar

from django.conf import settings

from games.common.db_threads import db
from games.tournaments.pairing import pairing_tick
from games.tournaments.services import tournaments_schedule_daily

logger = logging.getLogger(__name__)

SCHEDULE_EVERY_S = 60.0


def arena_step(*, schedule: bool) -> None:
    """One tick (and the daily arenas when due), in a worker thread."""
    if schedule:
        tournaments_schedule_daily()
    pairing_tick()


class ArenaLoop:
    current: ClassVar[ArenaLoop | None] = None

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.task = loop.create_task(self._run())

    @classmethod
    def ensure(cls) -> ArenaLoop | None:
        """This event loop's arena loop, started on first use (from async code);
        none with `TOURNAMENT_TICK_MS` 0 (`manage.py arena` pairs instead, or a test)."""
        if settings.TOURNAMENT_TICK_MS <= 0:
            return None
        loop = asyncio.get_running_loop()
        current = cls.current
        if current is None or current.loop is not loop:
            current = cls.current = ArenaLoop(loop)
        return current

    async def _run(self) -> None:
        scheduled = 0.0
        while True:
            started = time.monotonic()
            due = started - scheduled >= SCHEDULE_EVERY_S
            try:
                await db(arena_step)(schedule=due)
                if due:
                    scheduled = started
            except Exception:
                # A tick that failed (the database away) is tried again next tick.
                logger.warning("arena tick failed", exc_info=True)
            elapsed = time.monotonic() - started
            await asyncio.sleep(max(0.05, settings.TOURNAMENT_TICK_MS / 1000 - elapsed))

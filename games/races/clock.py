"""The race-end clock: one timer per running race per process, not one per socket.

A race whose time runs out while nobody moves still has to end, and every
socket of it be told. Each process with a socket of the race open keeps one
timer for the race's `ends_at`: armed when the first socket of the race here
opens (or hears the start), cancelled when the last closes, and on firing it
calls `race_close_if_over` once. The service is idempotent and true only for
the call that ended the race, so two processes' timers end it once; the end is
announced by the outbox like any change (games/races/publisher.py).

The registry belongs to the event loop it runs on: Daphne runs one loop per
process; tests start a loop per test, and a loop's timers die with it.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from django.db import DatabaseError
from django.utils import timezone

from games.common.db_threads import db
from games.races.moves import race_close_if_over

# After `ends_at`, so that the race is over by the database's clock as well.
GRACE_S: Final = 0.25
# A close the database failed is tried again this often while a socket waits for it.
RETRY_S: Final = 1.0

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class _Race:
    sockets: int = 0
    timer: asyncio.Task[None] | None = None


class RaceClock:
    """This loop's race-end timers, keyed by race id."""

    def __init__(self) -> None:
        self.races: dict[int, _Race] = {}

    def opened(self, race_id: int, ends_at: datetime | None) -> None:
        """A socket of the race opened here; `ends_at` is None until the race has started."""
        self.races.setdefault(race_id, _Race()).sockets += 1
        self.started(race_id, ends_at)

    def started(self, race_id: int, ends_at: datetime | None) -> None:
        """The race's end is known (a socket heard the start): armed once, whoever asks."""
        race = self.races.get(race_id)
        if race is None or race.timer is not None or ends_at is None:
            return
        delay = max(0.0, (ends_at - timezone.now()).total_seconds()) + GRACE_S
        race.timer = asyncio.get_running_loop().create_task(self._end_on_time(race_id, delay))

    def expired(self, race_id: int) -> None:
        """A move found the race out of time: it is closed now, not at the timer."""
        race = self.races.get(race_id)
        if race is None:
            return
        if race.timer is not None:
            race.timer.cancel()
        race.timer = asyncio.get_running_loop().create_task(self._end_on_time(race_id, 0.0))

    def closed(self, race_id: int) -> None:
        """A socket of the race closed here: the last one takes the timer with it."""
        race = self.races.get(race_id)
        if race is None:
            return
        race.sockets -= 1
        if race.sockets > 0:
            return
        del self.races[race_id]
        if race.timer is not None:
            race.timer.cancel()

    def timers(self, race_id: int) -> int:
        """How many timers this process keeps for the race: 0 or 1."""
        race = self.races.get(race_id)
        return int(race is not None and race.timer is not None)

    async def _end_on_time(self, race_id: int, delay: float) -> None:
        await asyncio.sleep(delay)
        while race_id in self.races:
            try:
                await db(race_close_if_over)(race_id=race_id)
                return
            except DatabaseError:
                # A socket still waits for the end: another try, rather than a
                # race that runs on until somebody moves.
                logger.warning("race %s not closed on time: the database failed", race_id)
                await asyncio.sleep(RETRY_S)


_clocks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RaceClock] = (
    weakref.WeakKeyDictionary()
)


def race_clock() -> RaceClock:
    """The running loop's clock (from async code)."""
    loop = asyncio.get_running_loop()
    clock = _clocks.get(loop)
    if clock is None:
        clock = _clocks[loop] = RaceClock()
    return clock

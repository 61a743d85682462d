"""A cap on the solver work one process runs at once.

Daphne runs views in threads; a solve is pure Python and holds the GIL, so
two of them in a process take turns with the event loop that answers every
race socket. SULTAN_SOLVER_SLOTS (1 by default: one per core with two web
processes on two cores) bounds them. A request that finds no free slot
within SULTAN_SOLVER_WAIT_S is refused with `busy` (HTTP 503 and a
Retry-After), never queued for longer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

from django.conf import settings
from django.utils.translation import gettext as _

from games.metrics.definitions import SOLVER_BUSY_SLOTS, SOLVER_CALLS, SOLVER_SECONDS
from games.quotas.quotas import WorkRefused

RETRY_AFTER_S: Final = 2


class SolverBusy(WorkRefused):
    """Every solver slot of this process is taken; nothing was computed."""

    status = 503

    def __init__(self) -> None:
        message = _("the server is busy solving for others: try again in a moment")
        super().__init__("busy", message, RETRY_AFTER_S)


class _Slots:
    """A semaphore sized from the settings when first used."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._semaphore: threading.BoundedSemaphore | None = None

    def semaphore(self) -> threading.BoundedSemaphore:
        with self._lock:
            if self._semaphore is None:
                self._semaphore = threading.BoundedSemaphore(max(1, settings.SULTAN_SOLVER_SLOTS))
            return self._semaphore


slots = _Slots()


@contextmanager
def solver_work(kind: str) -> Iterator[None]:
    """Run the block in a solver slot, timed; `SolverBusy` when none frees up in time."""
    semaphore = slots.semaphore()
    if not semaphore.acquire(timeout=settings.SULTAN_SOLVER_WAIT_S):
        SOLVER_CALLS.labels(kind, "busy").inc()
        raise SolverBusy()
    SOLVER_BUSY_SLOTS.inc()
    started = time.perf_counter()
    try:
        yield
    finally:
        SOLVER_SECONDS.labels(kind).observe(time.perf_counter() - started)
        SOLVER_CALLS.labels(kind, "done").inc()
        SOLVER_BUSY_SLOTS.dec()
        semaphore.release()

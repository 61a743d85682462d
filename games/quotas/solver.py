"""Solver work runs in a process of its own, a slot at a time.

A solve is pure Python: in a web process it would hold the GIL, and every
race socket of that process would wait its turn behind it (bench/faults/
solver_abuse.py measured honest acks going from tens of milliseconds to
seconds). So each web process keeps a small pool of solver processes
(SULTAN_SOLVER_SLOTS of them, 1 by default: one per core with two web
processes on two cores), started at the first solve, at a lower CPU priority
(nice SULTAN_SOLVER_NICE, 10) so that the kernel hands a core to a racer's move first.

A solver process runs the engine only, never Django (games/quotas/process.py): the
work handed to `solver_run` is a function of games/engine/solver/ and plain values.

A request that finds no free slot within SULTAN_SOLVER_WAIT_S is refused
with `busy` (HTTP 503 and a Retry-After), never queued for longer; the
solvers' own budgets bound the time a slot is held.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Final, ParamSpec, TypeVar

from django.conf import settings
from django.utils.translation import gettext as _

from games.metrics.definitions import SOLVER_BUSY_SLOTS, SOLVER_CALLS, SOLVER_SECONDS
from games.quotas.process import solver_process_start
from games.quotas.quotas import WorkRefused

P = ParamSpec("P")
T = TypeVar("T")

log = logging.getLogger(__name__)

RETRY_AFTER_S: Final = 2
# Every solve has a budget of seconds (a winnable deal's search the longest,
# 12 s); past this, the answer is not coming and the pool is started afresh.
RESULT_TIMEOUT_S: Final = 30.0


class SolverBusy(WorkRefused):
    """Every solver slot of this process is taken; nothing was computed."""

    status = 503

    def __init__(self) -> None:
        message = _("the server is busy solving for others: try again in a moment")
        super().__init__("busy", message, RETRY_AFTER_S)


class _Slots:
    """The slots (a semaphore) and the pool, both sized from the settings when first used."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._semaphore: threading.BoundedSemaphore | None = None
        self._pool: ProcessPoolExecutor | None = None

    def semaphore(self) -> threading.BoundedSemaphore:
        with self._lock:
            if self._semaphore is None:
                self._semaphore = threading.BoundedSemaphore(max(1, settings.SULTAN_SOLVER_SLOTS))
            return self._semaphore

    def pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # spawn: a fork of a web process would copy its threads' locks mid-use.
                self._pool = ProcessPoolExecutor(
                    max_workers=max(1, settings.SULTAN_SOLVER_SLOTS),
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=solver_process_start,
                    initargs=(settings.SULTAN_SOLVER_NICE,),
                )
            return self._pool

    def pool_discard(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


slots = _Slots()


def solver_processes_start() -> None:
    """Start the solver processes now, in the background: a first hint must not
    wait for a process to start (a second on a busy machine).
    Called when a web process starts (sultan_site/asgi.py)."""
    if settings.SULTAN_SOLVER_PROCESSES and settings.SULTAN_SOLVER_WARM:
        pool = slots.pool()
        for _ in range(max(1, settings.SULTAN_SOLVER_SLOTS)):
            pool.submit(int)


@contextmanager
def solver_work(kind: str) -> Iterator[None]:
    """Hold a solver slot for the block, timed; `SolverBusy` when none frees up in time."""
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


def solver_run(kind: str, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`work(*args, **kwargs)` in a solver process, in a slot; `SolverBusy` when
    no slot frees up in time or the solver process failed. `work` and its
    arguments travel by pickle: a module-level function of a module that never
    imports Django (games/engine/solver/) and plain values."""
    with solver_work(kind):
        if not settings.SULTAN_SOLVER_PROCESSES:
            # In this process's thread, as before solver processes: only to measure them.
            return work(*args, **kwargs)
        future = slots.pool().submit(work, *args, **kwargs)
        try:
            return future.result(timeout=RESULT_TIMEOUT_S)
        except (BrokenProcessPool, TimeoutError):
            log.exception("solver process failed on %s work; starting a new one", kind)
            slots.pool_discard()
            raise SolverBusy() from None

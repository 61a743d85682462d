"""A web process's solver processes (games/quotas/solver.py): they end with it, however it
ends, and they run the engine without Django (games/quotas/process.py).

Found by the suite: solver processes of Daphnes that tests had killed outright were still
there minutes after the whole run, each holding a Django and a pool's pipe, handed to init.
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from games.quotas.solver import slots, solver_run
from tests.processes import alive, children, cmdline
from tests.quotas import probes
from tests.servers import daphne, database_env

GONE_WITHIN_S = 30  # the watcher looks twice a second; room for a loaded machine


def test_a_killed_web_process_leaves_no_solver_process_behind() -> None:
    with database_env("solver_orphans") as env:
        env = {**env, "SULTAN_SOLVER_WARM": "1"}  # the pool starts with the process
        with daphne(env) as server:
            deadline = time.monotonic() + GONE_WITHIN_S
            solvers: set[int] = set()
            while not solvers and time.monotonic() < deadline:
                solvers = {
                    pid
                    for pid in children(server.process.pid)
                    if any("spawn_main" in arg for arg in cmdline(pid))
                }
                time.sleep(0.1)
            assert solvers, "the web process started no solver process"
            os.kill(server.process.pid, signal.SIGKILL)
            server.process.wait(10)
            deadline = time.monotonic() + GONE_WITHIN_S
            while any(alive(pid) for pid in solvers) and time.monotonic() < deadline:
                time.sleep(0.1)
            left = [pid for pid in solvers if alive(pid)]
            assert not left, f"solver processes {left} outlived their web process"


def test_a_solver_process_runs_its_work_without_setting_django_up(settings: Any) -> None:
    settings.SULTAN_SOLVER_PROCESSES = True
    slots.pool_discard()  # a pool made before the setting changed
    try:
        assert solver_run("hint", probes.django_modules) == []
    finally:
        slots.pool_discard()

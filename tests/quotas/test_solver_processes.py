"""A web process's solver processes end with it, however it ends (games/quotas/solver.py).

Found by the suite: solver processes of Daphnes that tests had killed outright were still
there minutes after the whole run, each holding a Django and a pool's pipe, handed to init.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from tests.servers import daphne, database_env

GONE_WITHIN_S = 30  # the watcher looks twice a second; room for a loaded machine


def _children(pid: int) -> set[int]:
    """The processes whose parent is `pid`, read from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # The command may hold spaces and parentheses: the fields follow the last ')'.
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[1]) == pid:
            found.add(int(entry.name))
    return found


def _cmdline(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"  # a zombie has ended; only its parent has not read its status yet


def test_a_killed_web_process_leaves_no_solver_process_behind() -> None:
    with database_env("solver_orphans") as env:
        env = {**env, "SULTAN_SOLVER_WARM": "1"}  # the pool starts with the process
        with daphne(env) as server:
            deadline = time.monotonic() + GONE_WITHIN_S
            solvers: set[int] = set()
            while not solvers and time.monotonic() < deadline:
                solvers = {
                    pid for pid in _children(server.process.pid) if "spawn_main" in _cmdline(pid)
                }
                time.sleep(0.1)
            assert solvers, "the web process started no solver process"
            os.kill(server.process.pid, signal.SIGKILL)
            server.process.wait(10)
            deadline = time.monotonic() + GONE_WITHIN_S
            while any(_alive(pid) for pid in solvers) and time.monotonic() < deadline:
                time.sleep(0.1)
            left = [pid for pid in solvers if _alive(pid)]
            assert not left, f"solver processes {left} outlived their web process"

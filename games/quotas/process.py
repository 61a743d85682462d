"""What a solver process does for itself (games/quotas/solver.py starts them).

It never sets Django up: the work it runs lives in the engine (games/engine/solver/,
which never imports Django), so a solver process is the engine and its tables. Setting
Django up made each solver process import the whole site (the models, the admin, the
API) and cost about two CPU seconds to start: seconds a first hint waited on a busy
machine, and memory held for nothing in every solver process of every web process.

May import: the standard library only (a solver process imports this module first).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Final

# How often a solver process looks whether its web process is still there.
PARENT_CHECK_S: Final = 0.5


def solver_process_start(niceness: int) -> None:
    """In each solver process: below the web processes, and gone with its web process."""
    os.nice(niceness)
    _exit_with_parent()


def _exit_with_parent() -> None:
    """End this process once the process that started it is gone.

    A web process that is killed outright (SIGKILL, the OOM killer, a crash) never shuts
    its pool down: its solver processes, handed to init, waited for work for ever, and
    every restart of the web process added a pool. The kernel's PR_SET_PDEATHSIG is no
    help here: it follows the thread that started the process, and the pool is started
    from whichever thread first asked for a solve. A search in the C core holds the GIL,
    so the process ends at the latest when its budget does."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()

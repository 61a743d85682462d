"""Other processes as /proc shows them, for tests that check which processes a server
leaves running (tests/quotas/test_solver_processes.py, tests/deploy/test_serve_prod.py)."""

from __future__ import annotations

from pathlib import Path

PROC = Path("/proc")


def _stat_fields(pid: int | str) -> list[str]:
    """The fields of /proc/<pid>/stat after the command, which may hold spaces and
    parentheses (the fields follow its last ')'); FileNotFoundError once it is gone."""
    return (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid`. All of /proc is read, not the parent's
    `task/<pid>/children`: that file lists only the children that thread started, and a
    process pool is started from whichever thread first used it."""
    found = set()
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if int(_stat_fields(entry.name)[1]) == pid:
                found.add(int(entry.name))
        except (FileNotFoundError, ProcessLookupError):
            continue
    return found


def cmdline(pid: int) -> list[str]:
    """The process's arguments; empty once it is gone."""
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except (FileNotFoundError, ProcessLookupError):
        return []
    return raw.decode(errors="replace").split("\0")[:-1]


def alive(pid: int) -> bool:
    """Running, not a zombie (one that has ended and whose parent has not yet read its
    status)."""
    try:
        return _stat_fields(pid)[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False

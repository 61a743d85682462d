"""The SQLite half of the append-only guarantee (migration 0002 has the triggers).

SQLite triggers cannot read a session setting, so the DELETE triggers ask an
application function, registered on every SQLite connection Django opens.
It says no unless `log_erasure_allowed(True)` was called: only the test
suite does, because Django's flush between transactional tests on SQLite is
`DELETE FROM` every table. PostgreSQL's flush is TRUNCATE and needs none of it.
"""

import sqlite3
import threading
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper

_erasure = threading.Event()


def log_erasure_allowed(allowed: bool) -> None:
    """Let SQLite connections delete log rows (for the test suite's flush only)."""
    if allowed:
        _erasure.set()
    else:
        _erasure.clear()


def _erasure_allowed() -> int:
    return int(_erasure.is_set())


def register_sqlite_functions(
    sender: type[BaseDatabaseWrapper], connection: BaseDatabaseWrapper, **kwargs: Any
) -> None:
    if connection.vendor != "sqlite":
        return
    raw = connection.connection
    if isinstance(raw, sqlite3.Connection):
        # Not deterministic: SQLite must ask on every row, not once per statement plan.
        raw.create_function("sultan_log_erasure_allowed", 0, _erasure_allowed)

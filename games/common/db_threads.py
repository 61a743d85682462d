"""A database call from async code: `db(fn)` runs `fn` in a worker thread.

Every socket, the publisher and the arena loop call the ORM through this one
wrapper, so which threads run database work is decided in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, ParamSpec, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings

P = ParamSpec("P")
R = TypeVar("R")

_ONE_WRITER: Final = settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")


def db(fn: Callable[P, R]) -> Callable[P, Any]:
    """Run `fn` in a worker thread with its own database connection.

    On PostgreSQL, a pool of threads: not Django's one shared sync thread,
    where every socket of the process would queue behind the slowest query.
    On SQLite, that one thread: SQLite has one writer at a time anyway, and
    writers in several threads wait for each other in its busy handler's
    sleeps, which cost far more than queueing.
    """
    return database_sync_to_async(fn, thread_sensitive=_ONE_WRITER)  # type: ignore[no-any-return]

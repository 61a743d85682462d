"""The race socket's database calls, each run in a worker thread by `db`.

The consumer (`games/races/consumer.py`) holds a race's id, not its row: each call
here reads what it needs afresh, so no socket ever acts on a stale race.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, ParamSpec, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings

from games.accounts.selectors import player_for_session
from games.models import Player, Race, RaceStatus
from games.races.selectors import race_by_code, race_role
from games.races.services import race_connection

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


def connect_info(code: str, user: Any, session: Any) -> tuple[Race, Player | None, bool] | None:
    """The race, who is connecting, and whether they race in it; None: no such race."""
    race = race_by_code(code=code)
    if race is None:
        return None
    player = player_for_session(user=user, session=session)
    return race, player, race_role(race=race, player=player) == "racer"


def by_race(service: Callable[..., R]) -> Callable[..., R]:
    """`service(race=...)` called with the race's id instead of its row."""

    def call(race_id: int, **kwargs: Any) -> R:
        return service(race=Race.objects.get(pk=race_id), **kwargs)

    return call


def race_started(race_id: int) -> bool:
    return Race.objects.filter(pk=race_id).exclude(status=RaceStatus.LOBBY).exists()


def presence(race_id: int, player: Player | None, delta: int) -> bool:
    """Count a racer's socket in or out; True when they are seated (the race is told)."""
    if player is None:
        return False
    return race_connection(race=Race.objects.get(pk=race_id), player=player, delta=delta)

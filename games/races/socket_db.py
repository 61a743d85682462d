"""The race socket's database calls, each run in a worker thread by `db`
(games/common/db_threads.py; re-exported here for the consumer).

The consumer (`games/races/consumer.py`) holds a race's id, not its row: each call
here reads what it needs afresh, so no socket ever acts on a stale race.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from games.accounts.selectors import player_for_session
from games.common.db_threads import db
from games.models import Player, Race, RaceStatus
from games.races.selectors import race_by_code, race_role
from games.races.services import race_connection

R = TypeVar("R")

__all__ = ["by_race", "connect_info", "db", "presence", "race_started"]


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

"""The daily deal's all-time records, per variant: the leaderboard's second table.

Only days that are over count (`rules.daily_last_day_over`): a running day's
attempts and deal are secret, and its results may still change. Voided games
drop out. Three records, each one row per player (a player's best), top ten:

- fastest wins: the quickest time to a won daily deal (ties: the earlier day),
  with the day and its replay;
- most wins: won daily deals (ties: fewer days played, so the better rate);
- longest won streak: won daily deals on consecutive days (ties: reached first).

A finished day never changes but by a moderator's act (or a guest's games
following them into an account), so the records are computed once per last
finished day and cached under a key that names that day and the newest
moderation act; names are read fresh on every page (a rename shows at once).
See docs/ratings.md, "The daily deal's records".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Final

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, F, Max, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from games.daily.models import DailyAttempt
from games.daily.rules import daily_last_day_over
from games.models import GameStatus, ModerationAction, Player

RECORD_ROWS: Final = 10
_CACHE_S: Final = 24 * 3600  # the key moves on with the day anyway
# Days as whole numbers, so that consecutive days differ by one (a streak's test).
_DAY_NUMBER: Final = {
    "sqlite": "CAST(julianday(day) AS INTEGER)",
    "postgresql": "(day - DATE '2000-01-01')",
}


@dataclass(frozen=True, slots=True)
class Holder:
    player: int
    nickname: str
    username: str | None  # an account's profile; a guest's name links nowhere


@dataclass(frozen=True, slots=True)
class FastestWin:
    holder: Holder
    day: date
    time_ms: int
    game: int


@dataclass(frozen=True, slots=True)
class MostWins:
    holder: Holder
    wins: int
    played: int

    @property
    def win_rate(self) -> int:
        return round(100 * self.wins / self.played) if self.played else 0


@dataclass(frozen=True, slots=True)
class WonStreak:
    holder: Holder
    days: int
    first: date
    last: date


@dataclass(frozen=True, slots=True)
class DailyRecords:
    variant: str
    through: date  # the last day counted
    fastest: list[FastestWin]
    most_wins: list[MostWins]
    streaks: list[WonStreak]

    def __bool__(self) -> bool:
        return bool(self.fastest or self.most_wins)


def daily_records(*, variant: str, now: datetime | None = None) -> DailyRecords:
    """The variant's records over every day that is over (cached per last finished day)."""
    through = daily_last_day_over(now=now)
    acted = ModerationAction.objects.aggregate(last=Max("pk"))["last"] or 0
    key = f"daily-records:{variant}:{through.isoformat()}:{acted}"
    rows: dict[str, list[tuple[Any, ...]]] | None = cache.get(key)
    if rows is None:
        rows = _records_rows(variant=variant, through=through)
        cache.set(key, rows, _CACHE_S)
    holders = _holders({row[0] for rows_of in rows.values() for row in rows_of})
    return DailyRecords(
        variant=variant,
        through=through,
        fastest=[
            FastestWin(holders[p], day, ms, game)
            for p, day, ms, game in rows["fastest"]
            if p in holders
        ],
        most_wins=[MostWins(holders[p], wins, played) for p, wins, played in rows["most"]],
        streaks=[
            WonStreak(holders[p], days, first, last)
            for p, days, first, last in rows["streaks"]
            if p in holders
        ],
    )


def _holders(ids: set[int]) -> dict[int, Holder]:
    found = Player.objects.filter(pk__in=ids).values_list("pk", "nickname", "user__username")
    return {pk: Holder(pk, nickname, username) for pk, nickname, username in found}


def _attempts(*, variant: str, through: date) -> QuerySet[DailyAttempt]:
    return DailyAttempt.objects.filter(variant=variant, day__lte=through, game__voided=False)


def _records_rows(*, variant: str, through: date) -> dict[str, list[tuple[Any, ...]]]:
    """Plain tuples (player ids, days, figures): what the cache keeps."""
    attempts = _attempts(variant=variant, through=through)
    won = attempts.filter(game__status=GameStatus.WON, game__count_reached_ms__isnull=False)
    by_time = [F("game__count_reached_ms").asc(), F("day").asc(), F("game_id").asc()]
    best = won.annotate(
        best=Window(RowNumber(), partition_by=[F("player_id")], order_by=by_time)
    ).filter(best=1)
    fastest = best.order_by(*by_time).values_list(
        "player_id", "day", "game__count_reached_ms", "game_id"
    )[:RECORD_ROWS]
    most = (
        attempts.values("player_id")
        .annotate(
            wins=Count("pk", filter=Q(game__status=GameStatus.WON)),
            played=Count("pk"),
        )
        .filter(wins__gt=0)
        .order_by("-wins", "played", "player_id")
        .values_list("player_id", "wins", "played")[:RECORD_ROWS]
    )
    return {
        "fastest": list(fastest),
        "most": list(most),
        "streaks": _streak_rows(won),
    }


def _streak_rows(won: QuerySet[DailyAttempt]) -> list[tuple[int, int, date, date]]:
    """Gaps and islands: within a player's won days in order, a day's number minus
    its row number is the same for every day of one run of consecutive days."""
    sql, params = won.values_list("player_id", "day").query.sql_with_params()
    day_number = _DAY_NUMBER[connection.vendor]
    query = f"""
        SELECT player_id, days, first_day, last_day FROM (
            SELECT player_id, days, first_day, last_day, ROW_NUMBER() OVER (
                PARTITION BY player_id ORDER BY days DESC, last_day ASC
            ) AS best
            FROM (
                SELECT player_id, COUNT(*) AS days, MIN(day) AS first_day, MAX(day) AS last_day
                FROM (
                    SELECT won.player_id AS player_id, won.day AS day,
                        {day_number} - ROW_NUMBER() OVER (
                            PARTITION BY won.player_id ORDER BY won.day
                        ) AS island
                    FROM ({sql}) won
                ) numbered
                GROUP BY player_id, island
            ) runs
        ) ranked
        WHERE best = 1 AND days > 1
        ORDER BY days DESC, last_day ASC, player_id ASC
        LIMIT %s
    """
    with connection.cursor() as cursor:
        cursor.execute(query, [*params, RECORD_ROWS])
        found = cursor.fetchall()
    return [(player, days, _day(first), _day(last)) for player, days, first, last in found]


def _day(value: date | str) -> date:
    # SQLite hands back an aggregate over a date column as its text.
    return value if isinstance(value, date) else date.fromisoformat(value)

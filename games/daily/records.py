"""The daily deal's all-time records, per variant: the leaderboard's second table.

Only days that are over count (`rules.daily_last_day_over`): a running day's
attempts and deal are secret, and its results may still change. Voided games
drop out. Three records, each one row per player (a player's best), top ten:

- fastest wins: the quickest time to a won daily deal (ties: the earlier day),
  with the day and its replay;
- most wins: won daily deals (ties: fewer days played, so the better rate);
- longest won streak: won daily deals on consecutive days (ties: reached first).

A finished day never changes but by a moderator's act (or a guest's games
following them into an account), so every player's tallies through a day are a
fold over the days in order, kept in the cache under a key naming that day and
the newest void or reinstatement: the next day's tallies are the previous day's with
one day's attempts folded in (one day's rows, not a year's). A void changes
the key, and the next page folds the whole history again, once. The three
tables are cached beside the tallies; names are read fresh on every page.
See docs/ratings.md, "The daily deal's records".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final

from django.core.cache import cache

from games.daily.models import DailyAttempt
from games.daily.rules import daily_last_day_over
from games.daily.selectors import daily_judged_mark
from games.models import GameStatus, Player

RECORD_ROWS: Final = 10
_CACHE_S: Final = 3 * 24 * 3600  # the key moves on with the day anyway
# How far back a day's tallies are looked for before folding the whole history.
_LOOK_BACK_DAYS: Final = 7


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
    acted = daily_judged_mark()
    key = f"daily-records:{variant}:{through.isoformat()}:{acted}"
    rows: dict[str, list[tuple[Any, ...]]] | None = cache.get(key)
    if rows is None:
        rows = _tables(_tallies(variant=variant, through=through, acted=acted))
        cache.set(key, rows, _CACHE_S)
    holders = _holders({row[0] for rows_of in rows.values() for row in rows_of})
    return DailyRecords(
        variant=variant,
        through=through,
        fastest=[
            FastestWin(holders[p], date.fromordinal(day), ms, game)
            for p, ms, day, game in rows["fastest"]
            if p in holders
        ],
        most_wins=[
            MostWins(holders[p], wins, played) for p, wins, played in rows["most"] if p in holders
        ],
        streaks=[
            WonStreak(holders[p], days, date.fromordinal(first), date.fromordinal(last))
            for p, days, first, last in rows["streaks"]
            if p in holders
        ],
    )


def daily_records_refold(*, game_id: int) -> None:
    """After a void or a reinstatement of a daily attempt's game (its commit): fold its
    variant's history again now, in the moderator's request, so that no player's
    view of the leaderboard pays for a year's fold (docs/performance.md)."""
    attempts = DailyAttempt.objects.filter(game_id=game_id)
    variant = attempts.values_list("variant", flat=True).first()
    if variant is not None:
        daily_records(variant=variant)


def _holders(ids: set[int]) -> dict[int, Holder]:
    found = Player.objects.filter(pk__in=ids).values_list("pk", "nickname", "user__username")
    return {pk: Holder(pk, nickname, username) for pk, nickname, username in found}


# A player's tallies, a list indexed so (days as ordinals; None: not yet):
WINS, PLAYED, BEST_MS, BEST_DAY, BEST_GAME, RUN, RUN_FIRST, RUN_LAST, LONGEST, LONGEST_FIRST = (
    range(10)
)
LONGEST_LAST = 10
Tallies = dict[int, list[Any]]


def _tallies_key(variant: str, through: date, acted: str) -> str:
    return f"daily-tallies:{variant}:{through.isoformat()}:{acted}"


def _tallies(*, variant: str, through: date, acted: str) -> Tallies:
    """Every player's tallies through `through`: the day before's, if kept, with
    the days since folded in; else the whole history folded."""
    since, tallies = None, {}
    for back in range(1, _LOOK_BACK_DAYS + 1):
        kept = cache.get(_tallies_key(variant, through - timedelta(days=back), acted))
        if kept is not None:
            since, tallies = through - timedelta(days=back), kept
            break
    attempts = DailyAttempt.objects.filter(
        variant=variant, day__lte=through, game__voided=False, game__unranked__isnull=True
    )
    if since is not None:
        attempts = attempts.filter(day__gt=since)
    rows = attempts.order_by("day").values_list(
        "player_id", "day", "game__status", "game__count_reached_ms", "game_id"
    )
    _fold(tallies, rows.iterator(chunk_size=5000))
    cache.set(_tallies_key(variant, through, acted), tallies, _CACHE_S)
    return tallies


def _fold(tallies: Tallies, rows: Iterable[tuple[int, date, str, int | None, int]]) -> None:
    """Fold attempts in day order into the tallies (a lost or missed day ends a run:
    the next win's day is then not the day after the run's last)."""
    for player, day, status, time_ms, game in rows:
        mine = tallies.get(player)
        if mine is None:
            mine = tallies[player] = [0, 0, None, None, None, 0, None, None, 0, None, None]
        mine[PLAYED] += 1
        if status != GameStatus.WON or time_ms is None:
            continue
        ordinal = day.toordinal()
        mine[WINS] += 1
        if mine[BEST_MS] is None or time_ms < mine[BEST_MS]:  # ties: the earlier day stands
            mine[BEST_MS], mine[BEST_DAY], mine[BEST_GAME] = time_ms, ordinal, game
        if mine[RUN_LAST] == ordinal - 1:
            mine[RUN] += 1
        else:
            mine[RUN], mine[RUN_FIRST] = 1, ordinal
        mine[RUN_LAST] = ordinal
        if mine[RUN] > mine[LONGEST]:  # ties: the run reached first stands
            mine[LONGEST], mine[LONGEST_FIRST], mine[LONGEST_LAST] = (
                mine[RUN],
                mine[RUN_FIRST],
                ordinal,
            )


def _tables(tallies: Tallies) -> dict[str, list[tuple[Any, ...]]]:
    """The three top tens, as plain tuples (what the cache keeps)."""
    fastest = sorted(
        (t[BEST_MS], t[BEST_DAY], t[BEST_GAME], p)
        for p, t in tallies.items()
        if t[BEST_MS] is not None
    )[:RECORD_ROWS]
    most = sorted((-t[WINS], t[PLAYED], p) for p, t in tallies.items() if t[WINS])[:RECORD_ROWS]
    runs = sorted(
        (-t[LONGEST], t[LONGEST_LAST], p, t[LONGEST_FIRST])
        for p, t in tallies.items()
        if t[LONGEST] > 1
    )[:RECORD_ROWS]
    return {
        "fastest": [(p, ms, day, game) for ms, day, game, p in fastest],
        "most": [(p, -wins, played) for wins, played, p in most],
        "streaks": [(p, -days, first, last) for days, last, p, first in runs],
    }

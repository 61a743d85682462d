"""Reads for the daily deal: a day's leaderboard, a player's daily results and
streaks, the spoiler-free share text, and the day's deal once the day is over.

A result is its game's projection (status, cards played, when that count was
reached), ranked by the race's rule (`games.races.selectors.standings_ranked`):
nothing is stored twice, and voided games drop out.
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final

from django.core.cache import cache
from django.db.models import Max, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext

from games.daily.models import DailyAttempt
from games.daily.rules import daily_day_over, daily_seed
from games.engine import new_game
from games.engine.solver.solve import solve
from games.fairness.rules import unranked_mark
from games.models import MAX_CARDS_PLAYED, ModerationAction, ModerationKind, Player
from games.races.selectors import Standing, rank_order, standings_ranked
from games.store.tally import moves_on_table

VERDICT_S: Final = 2.0
_BOARD_CACHE_S: Final = 24 * 3600  # a past day's board, until a void moves the key on
VERDICT_NODES: Final = 500_000
_FIELDS: Final = (
    "day",
    "variant",
    "game_id",
    "player_id",
    "player__nickname",
    "game__status",
    "game__cards_played",
    "game__count_reached_ms",
    "moves",
    "player__is_bot",
)


@dataclass(frozen=True, slots=True)
class DailyResult:
    """A player's attempt at a day's deal, as it stands (`playing` until it is over)."""

    day: date
    variant: str
    standing: Standing

    @property
    def won(self) -> bool:
        return self.standing.status == "won"

    @property
    def over(self) -> bool:
        return self.standing.status != "playing"


def _result(row: tuple[Any, ...]) -> DailyResult:
    day, variant, game, player, nickname, status, cards, time_ms, moves, *bot = row
    # A board cached before bots were told apart has no last field: nobody was one.
    standing = Standing(player, nickname, game, status, cards, time_ms, moves, bot=any(bot))
    return DailyResult(day, variant, standing)


def _ranking() -> QuerySet[DailyAttempt]:
    """The attempts that rank: not voided, and first sights of the deal (games.fairness)."""
    return DailyAttempt.objects.filter(game__voided=False, game__unranked__isnull=True)


def _attempts() -> QuerySet[DailyAttempt]:
    return _ranking().annotate(moves=moves_on_table(game="game_id"))


def daily_leaderboard(*, day: date, variant: str) -> list[Standing]:
    """The day's whole board, ranked as a race's racers are (for a few; a page
    of a board of thousands is `daily_board`'s)."""
    rows = _attempts().filter(day=day, variant=variant).values_list(*_FIELDS)
    return standings_ranked(_result(row).standing for row in rows)


@dataclass(frozen=True, slots=True)
class Board:
    top: list[tuple[int, Standing]]  # (rank, standing), best first
    mine: tuple[int, Standing] | None  # the viewer's place, wherever it is
    count: int


def daily_board(
    *, day: date, variant: str, top: int, player: Player | None, now: datetime | None = None
) -> Board:
    """The top of the day's board and the viewer's place in it: the database ranks
    (the race's rule, `rank_order`), so a page reads `top` + 1 rows, not thousands.
    A day that is over never changes but by a moderator's void or reinstatement:
    its ranking is cached under a key naming the newest of those."""
    if daily_day_over(day=day, now=now):
        return _board_over(day, variant, top, player)
    attempts = _attempts().filter(day=day, variant=variant)
    rows = attempts.order_by(*rank_order(game="game__")).values_list(*_FIELDS)[:top]
    board = [(rank, _result(row).standing) for rank, row in enumerate(rows, start=1)]
    mine = None
    if player is not None:
        mine = next(((r, s) for r, s in board if s.player == player.pk), None)
        own = None if mine else attempts.filter(player=player).values_list(*_FIELDS).first()
        if own is not None:
            # Below the top: its place is one more than the attempts ranked ahead of it.
            standing = _result(own).standing
            mine = (attempts.filter(_ahead_of(standing)).count() + 1, standing)
    count = len(board) if len(board) < top else attempts.count()
    return Board(board, mine, count)


def _ahead_of(mine: Standing, game: str = "game__") -> Q:
    """The attempts `rank_order` puts before `mine` (`game`: the path to the Game):
    a condition, so that a place is a count over the day's rows, not a numbering
    of all of them."""
    won = Q(**{f"{game}status": "won"})
    at, cards, pk = f"{game}count_reached_ms", f"{game}cards_played", f"{game}id"
    time_ms = mine.time_ms
    if mine.status == "won" and time_ms is not None:
        return won & (Q(**{f"{at}__lt": time_ms}) | Q(**{at: time_ms, f"{pk}__lt": mine.game}))
    if time_ms is None:  # no time sorts last among the same count
        later = Q(**{f"{at}__isnull": False}) | Q(**{f"{at}__isnull": True, f"{pk}__lt": mine.game})
    else:
        later = Q(**{f"{at}__lt": time_ms}) | Q(**{at: time_ms, f"{pk}__lt": mine.game})
    same = Q(**{cards: mine.cards_played}) & ~won & later
    return won | Q(**{f"{cards}__gt": mine.cards_played}) | same


def daily_judged_mark() -> str:
    """The newest void or reinstatement, and the newest game judged unranked (a log-in
    can unrank a past day's attempt): what a finished day's cached figures are keyed on."""
    acts = ModerationAction.objects.filter(
        action__in=(ModerationKind.VOID, ModerationKind.REINSTATE)
    )
    return f"{acts.aggregate(last=Max('pk'))['last'] or 0}.{unranked_mark()}"


def _board_over(day: date, variant: str, top: int, player: Player | None) -> Board:
    key = f"daily-board:{variant}:{day.isoformat()}:{top}:{daily_judged_mark()}"
    kept: dict[str, Any] | None = cache.get(key)
    attempts = _attempts().filter(day=day, variant=variant)
    if kept is None:
        ranked = list(attempts.order_by(*rank_order(game="game__")).values_list(*_FIELDS))
        # Everyone's place, as the players' ids in order: 8 bytes a player.
        order = array("q", (row[3] for row in ranked)).tobytes()
        kept = {"top": ranked[:top], "order": order, "count": len(ranked)}
        cache.set(key, kept, _BOARD_CACHE_S)
    board = [(rank, _result(row).standing) for rank, row in enumerate(kept["top"], start=1)]
    mine = None
    if player is not None:
        places = array("q")
        places.frombytes(kept["order"])
        try:
            place = places.index(player.pk) + 1
        except ValueError:
            place = 0
        if 0 < place <= len(board):
            mine = board[place - 1]
        elif place:
            own = attempts.filter(player=player).values_list(*_FIELDS).first()
            mine = (place, _result(own).standing) if own is not None else None
    return Board(board, mine, kept["count"])


def daily_player_results(
    *, player: Player, since: date | None = None, until: date | None = None
) -> list[DailyResult]:
    """A player's daily results, newest day first (every variant): the profile's
    and the ratings' way in to the daily deal."""
    attempts = _attempts().filter(player=player)
    if since is not None:
        attempts = attempts.filter(day__gte=since)
    if until is not None:
        attempts = attempts.filter(day__lte=until)
    rows = attempts.order_by("-day", "variant").values_list(*_FIELDS)
    return [_result(row) for row in rows]


def daily_attempt_of(*, player: Player | None, day: date, variant: str) -> DailyAttempt | None:
    if player is None:
        return None
    attempts = DailyAttempt.objects.select_related("race", "game")
    return attempts.filter(player=player, day=day, variant=variant).first()


@dataclass(frozen=True, slots=True)
class Streaks:
    """Days in a row up to today (or yesterday, while today is still to play)."""

    played: int
    won: int
    best_played: int
    best_won: int


def daily_streaks(*, player: Player, today: date) -> Streaks:
    rows = _attempts().filter(player=player)
    days = list(rows.values_list("day", "game__status"))
    played = {day for day, _ in days}
    won = {day for day, status in days if status == "won"}
    # Today's attempt lost ends the won run; one still being played leaves it standing.
    lost_today = any(day == today and status not in ("won", "playing") for day, status in days)
    return Streaks(
        played=_current_run(played, today),
        won=0 if lost_today else _current_run(won, today),
        best_played=_best_run(played),
        best_won=_best_run(won),
    )


def _current_run(days: set[date], today: date) -> int:
    day = today if today in days else today - timedelta(days=1)
    run = 0
    while day in days:
        run, day = run + 1, day - timedelta(days=1)
    return run


def _best_run(days: set[date]) -> int:
    best = 0
    for day in days:
        if day - timedelta(days=1) in days:
            continue  # not the first day of a run
        run = 0
        while day + timedelta(days=run) in days:
            run += 1
        best = max(best, run)
    return best


def daily_share_text(*, result: DailyResult, variant_label: str, url: str) -> str:
    """What a player may paste anywhere: cards played, time, won or not; never a card."""
    outcome = gettext("Won") if result.won else gettext("Not won")
    time_ms = result.standing.time_ms
    clock = "—" if time_ms is None else _clock(time_ms)
    head = gettext("Sultan daily %(day)s · %(variant)s") % {
        "day": result.day.isoformat(),
        "variant": variant_label,
    }
    line = gettext("%(outcome)s · %(cards)d/%(all)d cards · %(time)s") % {
        "outcome": outcome,
        "cards": result.standing.cards_played,
        "all": MAX_CARDS_PLAYED,
        "time": clock,
    }
    return f"{head}\n{line}\n{url}"


def _clock(ms: int) -> str:
    minutes, seconds = divmod(max(0, ms) // 1000, 60)
    return f"{minutes}:{seconds:02d}"


@dataclass(frozen=True, slots=True)
class DayDeal:
    """A day's deal, told only once the day is over."""

    seed: int
    verdict: str  # won (winnable), lost (no win exists), unknown (out of budget)


_verdicts: OrderedDict[tuple[date, str], str] = OrderedDict()
_verdicts_lock = threading.Lock()


def daily_deal_revealed(*, day: date, variant: str, now: datetime | None = None) -> DayDeal | None:
    """The day's seed and the solver's verdict on it; None while the day is not over."""
    if not daily_day_over(day=day, now=now):
        return None
    seed = daily_seed(day=day, variant=variant)
    key = (day, variant)
    with _verdicts_lock:
        verdict = _verdicts.get(key)
    if verdict is None:
        # Once per day and variant per process: a page anyone may open must not
        # be a way to spend the solver's seconds again.
        verdict = solve(new_game(seed, variant), VERDICT_NODES, VERDICT_S).status
        with _verdicts_lock:
            _verdicts[key] = verdict
            while len(_verdicts) > 256:
                _verdicts.popitem(last=False)
    return DayDeal(seed, verdict)


def daily_results_among(*, day: date, variant: str, player_ids: list[int]) -> list[Standing]:
    """The day's board as it shows `player_ids` (a friends' board, games/friends/), in its
    order: the same rows and rule as `daily_board`, so nothing the board hides shows here."""
    rows = (
        _attempts()
        .filter(day=day, variant=variant, player_id__in=player_ids)
        .order_by(*rank_order(game="game__"))
        .values_list(*_FIELDS)
    )
    return [_result(row).standing for row in rows]


def daily_last_results(*, player_ids: list[int]) -> dict[int, DailyResult]:
    """Each player's newest daily result (any variant), by player id, in one query: the
    rows the day's board shows (a day still running is the board's row, `playing` or not),
    so nothing the board hides shows here either."""
    newest = (
        _ranking()
        .filter(player=OuterRef("player"))
        .order_by("-day", "-created_at", "-pk")
        .values("pk")[:1]
    )
    rows = _attempts().filter(player_id__in=player_ids, pk=Subquery(newest)).values_list(*_FIELDS)
    return {result.standing.player: result for result in map(_result, rows)}

"""Reads for the daily deal: a day's leaderboard, a player's daily results and
streaks, the spoiler-free share text, and the day's deal once the day is over.

A result is its game's projection (status, cards played, when that count was
reached), ranked by the race's rule (`games.races.selectors.standings_ranked`):
nothing is stored twice, and voided games drop out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final

from django.db import connection
from django.db.models import QuerySet, Window
from django.db.models.expressions import OrderBy
from django.db.models.functions import RowNumber
from django.utils.translation import gettext

from games.daily.models import DailyAttempt
from games.daily.rules import daily_day_over, daily_seed
from games.engine import new_game
from games.engine.solver.solve import solve
from games.models import MAX_CARDS_PLAYED, Player
from games.races.selectors import Standing, rank_order, standings_ranked

VERDICT_S: Final = 2.0
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
    "game__last_seq",
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
    day, variant, game, player, nickname, status, cards, time_ms, moves = row
    standing = Standing(player, nickname, game, status, cards, time_ms, moves)
    return DailyResult(day, variant, standing)


def _attempts() -> QuerySet[DailyAttempt]:
    return DailyAttempt.objects.filter(game__voided=False)


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


def daily_board(*, day: date, variant: str, top: int, player: Player | None) -> Board:
    """The top of the day's board and the viewer's place in it: the database ranks
    (the race's rule, `rank_order`), so a page reads `top` + 1 rows, not thousands."""
    attempts = _attempts().filter(day=day, variant=variant)
    order = rank_order(game="game__")
    rows = attempts.order_by(*order).values_list(*_FIELDS)[:top]
    board = [(rank, _result(row).standing) for rank, row in enumerate(rows, start=1)]
    mine = None
    if player is not None:
        mine = next(((r, s) for r, s in board if s.player == player.pk), None)
        own = None if mine else attempts.filter(player=player).values_list(*_FIELDS).first()
        if own is not None:
            # Below the top: its place is a row number over the whole day's board.
            mine = (_place(attempts, order, player), _result(own).standing)
    count = len(board) if len(board) < top else attempts.count()
    return Board(board, mine, count)


def _place(attempts: QuerySet[DailyAttempt], order: list[OrderBy], player: Player) -> int:
    """The player's row number over the whole board. Filtering the ORM's window
    query by player would number the player's row alone (WHERE comes before
    OVER), so the numbered board is wrapped and filtered outside."""
    ranked = attempts.annotate(place=Window(RowNumber(), order_by=order))
    sql, params = ranked.values_list("player_id", "place").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT ranked.place FROM ({sql}) ranked WHERE ranked.player_id = %s",
            [*params, player.pk],
        )
        row = cursor.fetchone()
    assert row is not None, "the player's attempt is on the board"
    return int(row[0])


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
    rows = DailyAttempt.objects.filter(player=player, game__voided=False)
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

"""What a result is worth against whom: the one rule under ratings, tournament points
and the leaderboard (docs/anticheat.md, "Farming").

A race's result is read racer by racer: each racer's result counts against the
opponents `opponents_counted` names, and against nobody else.

- **Placed.** A racer *is placed* with MIN_PLACED_MOVES moves of their own (no
  resignation, time-out or automatic move). A racer who is not placed is nobody's
  opponent: beating them is worth nothing, to anyone. Their own result still counts
  against the others (resigning at once loses rating; in a tournament it earns 0).
- **Established.** A racer *is established* once they have been placed against
  `settings.RATING_ESTABLISHED_OPPONENTS` distinct opponents who were placed too.
  Until then they are nobody's opponent for ratings: a new account's games move no
  one else's rating. (Tournament points do not ask this: a newcomer's first arena
  must be worth something, and the pair limit below bounds what two accounts can
  take from each other.)
- **Pairs.** Two racers who were both placed in a race *met*. A pair's first
  `settings.PAIR_RESULTS_PER_DAY` meetings of a UTC day count; from the next one on
  that day they are not each other's opponents: racing the same account again and
  again earns nothing more until tomorrow.

The rule is pure: the callers bring the racers' states and the day's meetings
(the ratings' replay from its own table, tournaments from their results), so a
rebuild and the live path agree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from itertools import combinations
from typing import Final

from django.conf import settings
from django.db.models import Count, Q

from games.engine.positions import RESIGN, TIMEOUT
from games.models import Game

MIN_PLACED_MOVES: Final = 5

Pair = tuple[int, int]  # two players' ids, the smaller first


@dataclass(frozen=True, slots=True)
class Racer:
    """One racer of a race, as the rule sees them. `established`: before this race."""

    player: int
    place: int  # the race's place (racers who tied share one)
    moves: int  # their own moves
    established: bool = True

    @property
    def placed(self) -> bool:
        return is_placed(self.moves)


def is_placed(moves: int) -> bool:
    return moves >= MIN_PLACED_MOVES


def pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


def established_opponents() -> int:
    return max(0, int(settings.RATING_ESTABLISHED_OPPONENTS))


def pair_results_per_day() -> int:
    return max(0, int(settings.PAIR_RESULTS_PER_DAY))


def is_established(opponents: int) -> bool:
    """Enough distinct opponents met (see the module's docstring)."""
    return opponents >= established_opponents()


def opponents_counted(
    racers: Sequence[Racer], *, met_today: Mapping[Pair, int], need_established: bool = True
) -> list[tuple[int, ...]]:
    """For each racer, in order: the indices of the racers their result counts against.

    `met_today`: how many times each pair met earlier the same UTC day.
    `need_established`: ratings ask it; tournament points do not."""
    limit = pair_results_per_day()
    counts = [r.placed and (r.established or not need_established) for r in racers]
    return [
        tuple(
            j
            for j, other in enumerate(racers)
            if j != i and counts[j] and met_today.get(pair(me.player, other.player), 0) < limit
        )
        for i, me in enumerate(racers)
    ]


def pairs_met(racers: Iterable[Racer]) -> list[Pair]:
    """The pairs this race makes meet: both placed."""
    placed = sorted({r.player for r in racers if r.placed})
    return [pair(a, b) for a, b in combinations(placed, 2)]


class Meetings:
    """The pairs met so far in the current UTC day, fed in the races' order."""

    def __init__(self) -> None:
        self.day: date | None = None
        self.count: Counter[Pair] = Counter()

    def today(self, at: datetime) -> Counter[Pair]:
        day = utc_day(at)
        if day != self.day:
            self.day, self.count = day, Counter()
        return self.count

    def add(self, at: datetime, pairs: Iterable[Pair]) -> None:
        self.today(at).update(pairs)


def utc_day(at: datetime) -> date:
    """The day a result belongs to for the pair limit."""
    return at.astimezone(UTC).date()


def own_move(prefix: str = "") -> Q:
    """A move of the player's own, as a filter on Move (`prefix`: the path to it)."""
    return Q(**{f"{prefix}automatic": False}) & ~Q(**{f"{prefix}token__in": (RESIGN, TIMEOUT)})


def games_own_moves(*, game_ids: Iterable[int]) -> dict[int, int]:
    """Each game's own moves (0 for a game with none)."""
    ids = list(game_ids)
    counted = Game.objects.filter(pk__in=ids).annotate(
        own=Count("moves", filter=own_move("moves__"))
    )
    return {**dict.fromkeys(ids, 0), **dict(counted.values_list("pk", "own"))}

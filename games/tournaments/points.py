"""The arena's scoring rule, its one home (docs/tournaments.md has it in words and
a worked example, which tests/tournaments/test_points.py applies).

Per race, for a racer ranked `place` of `racers` (the racer and the opponents
their result counts against, games.fairness.worth: ranked racers with five moves
of their own, not met more than three times that day):

- a racer who is not placed (fewer than five moves of their own: a quick resign,
  a deal never touched) or has no card up earns 0 and their streak is over, and
  gives nobody anything: quick resigns farm nothing;
- so does a racer no opponent counted against (`racers` 1): no contest;
- otherwise `racers - place + 1` (1st of 4 gets 4, last gets 1);
- a won deal (all 104 cards up) doubles them;
- on fire (lichess's streak): a racer whose previous two counted races were both
  first places has this race's points doubled again, for as long as they keep
  placing first;
- a result not ranked (the first-sight rule: the deal had been seen) earns 0 and
  ends the streak; a voided race counts for nobody, as if it never happened.

Standings: more points first; then more first places; then who reached their
points total earlier (the end of the race that last added to it); then who
joined first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final

FIRE_AFTER: Final = 2  # first places in a row before the next race's points double


@dataclass(frozen=True, slots=True)
class RaceResult:
    """One racer's result in one counted race, in the order the races ended."""

    player: int
    place: int
    racers: int
    won: bool
    cards_played: int
    ranked: bool
    ended_at: datetime
    placed: bool = True


@dataclass(slots=True)
class Score:
    player: int
    joined_at: datetime
    points: int = 0
    races: int = 0
    firsts: int = 0
    streak: int = 0  # first places in a row, up to the last race
    reached_at: datetime | None = None  # when `points` was last raised
    # Each race's points, in race order: what the page lists beside its replays.
    race_points: list[int] = field(default_factory=list)

    @property
    def on_fire(self) -> bool:
        return self.streak >= FIRE_AFTER


def race_points(result: RaceResult, *, streak_before: int) -> int:
    """The points one result earns, given the racer's streak before that race."""
    if not result.ranked or not result.placed or result.cards_played == 0 or result.racers < 2:
        return 0
    points = result.racers - result.place + 1
    if result.won:
        points *= 2
    if streak_before >= FIRE_AFTER:
        points *= 2
    return points


def scores_fold(*, joined: dict[int, datetime], results: Iterable[RaceResult]) -> list[Score]:
    """Every entrant's score from their counted results (oldest first), ranked by the
    standings' order. `joined`: each entrant's join time (the last tie-break)."""
    scores = {player: Score(player, at) for player, at in joined.items()}
    for result in results:
        score = scores.get(result.player)
        if score is None:
            continue
        points = race_points(result, streak_before=score.streak)
        score.races += 1
        score.race_points.append(points)
        first = points > 0 and result.place == 1
        score.streak = score.streak + 1 if first else 0
        score.firsts += first
        if points:
            score.points += points
            score.reached_at = result.ended_at
    return sorted(scores.values(), key=_standing_key)


def _standing_key(score: Score) -> tuple[int, int, float, float, int]:
    reached = score.reached_at.timestamp() if score.reached_at else float("inf")
    return (-score.points, -score.firsts, reached, score.joined_at.timestamp(), score.player)

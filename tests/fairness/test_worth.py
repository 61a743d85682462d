"""The rule of what a result is worth against whom (games/fairness/worth.py), alone."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from games.fairness.worth import (
    MIN_PLACED_MOVES,
    Meetings,
    Racer,
    opponents_counted,
    pair,
    pairs_met,
)
from games.tournaments.points import RaceResult, race_points

ALICE, BOB, CHARLIE = 1, 2, 3
PLACED = MIN_PLACED_MOVES


def test_every_placed_established_racer_counts_against_every_other() -> None:
    field = [Racer(ALICE, 1, 9), Racer(BOB, 2, PLACED), Racer(CHARLIE, 3, 7)]
    assert opponents_counted(field, met_today={}) == [(1, 2), (0, 2), (0, 1)]


def test_a_racer_who_barely_moved_counts_against_nobody_but_is_counted_against() -> None:
    field = [Racer(ALICE, 1, 9), Racer(BOB, 2, PLACED - 1)]
    assert opponents_counted(field, met_today={}) == [(), (0,)]
    assert pairs_met(field) == []


def test_a_newcomer_counts_against_nobody_for_ratings_but_does_for_points() -> None:
    field = [Racer(ALICE, 1, 9, established=False), Racer(BOB, 2, 9)]
    assert opponents_counted(field, met_today={}) == [(1,), ()]
    assert opponents_counted(field, met_today={}, need_established=False) == [(1,), (0,)]


def test_a_pair_met_three_times_today_no_longer_counts(settings) -> None:
    field = [Racer(ALICE, 1, 9), Racer(BOB, 2, 9), Racer(CHARLIE, 3, 9)]
    met = Counter({pair(BOB, ALICE): 3})
    assert opponents_counted(field, met_today=met) == [(2,), (2,), (0, 1)]
    settings.PAIR_RESULTS_PER_DAY = 4
    assert opponents_counted(field, met_today=met) == [(1, 2), (0, 2), (0, 1)]


def test_meetings_start_afresh_each_utc_day() -> None:
    meetings = Meetings()
    late = datetime(2026, 12, 6, 23, 59, tzinfo=UTC)
    meetings.add(late, [pair(ALICE, BOB)] * 3)
    assert meetings.today(late)[pair(ALICE, BOB)] == 3
    assert meetings.today(datetime(2026, 12, 7, 0, 0, tzinfo=UTC))[pair(ALICE, BOB)] == 0


def test_points_need_a_placed_result_and_a_counted_opponent() -> None:
    at = datetime(2026, 12, 6, tzinfo=UTC)
    assert race_points(RaceResult(ALICE, 1, 2, False, 9, True, at), streak_before=0) == 2
    unplaced = RaceResult(ALICE, 1, 2, False, 1, True, at, placed=False)
    assert race_points(unplaced, streak_before=2) == 0
    no_contest = RaceResult(ALICE, 1, 1, False, 9, True, at)
    assert race_points(no_contest, streak_before=2) == 0

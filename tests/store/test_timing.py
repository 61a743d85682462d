"""The move-timing summary that shows flat, machine-like play."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from games.store.selectors import game_timing
from games.store.services import game_create
from games.store.timing import elapsed_ms, summarize
from tests.store.helpers import append

START = datetime(2025, 1, 1, tzinfo=UTC)


def times(gaps: list[float]) -> list[datetime]:
    out, t = [START], START
    for gap in gaps:
        t += timedelta(seconds=gap)
        out.append(t)
    return out


def test_a_metronome_is_machine_like():
    timing = summarize(times([0.5] * 40))
    assert timing.mean_gap_s == pytest.approx(0.5)
    assert timing.cv == pytest.approx(0.0)
    assert timing.machine_like
    assert "machine-like" in timing.summary()


def test_human_timing_is_not_machine_like():
    rng = random.Random(1)
    timing = summarize(times([rng.lognormvariate(0, 1) for _ in range(60)]))
    assert timing.cv is not None
    assert timing.cv > 0.5
    assert not timing.machine_like


def test_the_fastest_run_is_the_quickest_ten_gaps():
    gaps = [2.0] * 20 + [0.1] * 10 + [2.0] * 20
    timing = summarize(times(gaps))
    assert timing.fastest_run_s == pytest.approx(1.0)


def test_short_logs_are_too_short_to_judge():
    assert summarize(times([1.0])).cv is None
    assert not summarize(times([0.5] * 5)).machine_like
    assert "too few" in summarize([]).summary()


@pytest.mark.django_db
def test_a_games_timing_comes_from_its_log(alice):
    game = game_create(player=alice, variant="sultan", seed=4)
    for _ in range(3):
        append(game, alice, "draw")
    assert game_timing(game=game).moves == 3


def test_a_time_of_whole_milliseconds_is_counted_exactly():
    """One rule for every time on the site (rankings, replay steps, records): whole
    milliseconds, never one short through float seconds (1.001 s * 1000 < 1001)."""
    start = datetime(2026, 1, 1, 12, tzinfo=UTC)
    assert elapsed_ms(start + timedelta(milliseconds=1001), start) == 1001
    assert elapsed_ms(start + timedelta(microseconds=1999), start) == 1
    assert elapsed_ms(start - timedelta(seconds=1), start) == 0
    assert elapsed_ms(None, start) is None

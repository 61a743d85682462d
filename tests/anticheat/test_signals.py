"""What each anti-cheat signal flags, on hand-made timings."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from games.moderation.anticheat import (
    FAST_GAP_S,
    MIN_GAPS,
    REGULAR_RUN,
    SUSTAINED_MOVES,
    judge,
    judge_seconds,
    robust_cv,
)


def times_of(gaps: list[float]) -> list[float]:
    t, out = 0.0, [0.0]
    for gap in gaps:
        t += gap
        out.append(t)
    return out


def human_gaps(n: int, seed: int = 1) -> list[float]:
    rng = random.Random(seed)
    return [rng.lognormvariate(0, 0.7) * 1.2 for _ in range(n)]


def test_a_short_game_gets_no_verdict():
    verdict = judge_seconds(times_of([0.5] * (MIN_GAPS - 1)))
    assert not verdict.suspicious
    assert verdict.evidence is None
    assert verdict.summary() == "too short to judge"


def test_a_metronome_is_too_regular_and_says_how():
    verdict = judge_seconds(times_of([0.8] * 100))
    assert verdict.suspicious
    assert verdict.evidence is not None
    assert verdict.evidence.game_cv == pytest.approx(0, abs=1e-9)
    assert any("robust CV" in reason for reason in verdict.reasons)


def test_slow_answers_from_the_server_do_not_hide_a_metronome():
    rng = random.Random(2)
    gaps = [
        0.8 + (rng.uniform(0.3, 1.0) if rng.random() < 0.05 else rng.uniform(0, 0.02))
        for _ in range(150)
    ]
    assert judge_seconds(times_of(gaps)).suspicious


def test_a_steady_stretch_inside_a_human_game_is_caught_by_the_run():
    gaps = human_gaps(60, seed=3) + [0.5] * REGULAR_RUN + human_gaps(60, seed=4)
    verdict = judge_seconds(times_of(gaps))
    assert verdict.suspicious
    assert verdict.evidence is not None
    # The robust spread ignores a quarter of a run: the steadiest run found may begin
    # up to that much before the steady stretch (gap 61).
    assert verdict.evidence.steadiest_at is not None
    assert 61 - REGULAR_RUN // 4 <= verdict.evidence.steadiest_at <= 61


def test_moves_faster_than_a_person_are_flagged():
    rng = random.Random(5)
    gaps = [
        rng.uniform(0.02, FAST_GAP_S * 0.9) if i % 3 == 0 else rng.lognormvariate(0, 0.8)
        for i in range(90)
    ]
    verdict = judge_seconds(times_of(gaps))
    assert verdict.suspicious
    assert any(f"under {FAST_GAP_S:.2f} s" in reason for reason in verdict.reasons)


def test_a_minute_with_more_moves_than_a_person_keeps_up_is_flagged():
    rng = random.Random(6)
    gaps = [rng.lognormvariate(0, 0.45) * 0.22 for _ in range(SUSTAINED_MOVES + 60)]
    verdict = judge_seconds(times_of(gaps))
    assert verdict.evidence is not None
    assert verdict.evidence.busiest_window > SUSTAINED_MOVES
    assert any("moves within 60 s" in reason for reason in verdict.reasons)


def test_a_person_with_thinking_runs_and_pauses_is_not_flagged():
    gaps = human_gaps(200, seed=7)
    gaps[50:55] = [25.0] * 5
    verdict = judge_seconds(times_of(gaps))
    assert not verdict.suspicious
    assert verdict.summary() == "nothing unusual"


def test_the_verdict_on_datetimes_is_the_verdict_on_seconds():
    gaps = [0.5] * 80
    start = datetime(2026, 1, 1, tzinfo=UTC)
    stamps = [start + timedelta(seconds=t) for t in times_of(gaps)]
    assert judge(stamps) == judge_seconds(times_of(gaps))


def test_the_robust_cv_ignores_a_few_outliers():
    assert robust_cv([1.0] * 38 + [9.0, 12.0]) == 0
    assert 0.4 < robust_cv(human_gaps(400, seed=8)) < 0.9

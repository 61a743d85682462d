"""The daily deal's rule (docs/rules.md): a keyed hash of the date and variant."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime, timedelta
from typing import Any

from games.daily.rules import (
    DAILY_TIME_LIMIT_S,
    daily_day_over,
    daily_sealed_until,
    daily_seed,
    daily_today,
)
from games.engine import SEED_LIMIT, VARIANTS

DAY = date(2026, 12, 1)


def test_the_seed_is_the_documented_hmac_of_the_date_and_variant():
    digest = hmac.new(b"k", b"2026-12-01:sultan", hashlib.sha256).digest()
    assert daily_seed(day=DAY, variant="sultan", key="k") == int.from_bytes(digest[:8]) % SEED_LIMIT


def test_each_day_and_variant_has_its_own_deal_and_the_key_changes_them_all():
    seeds = {
        daily_seed(day=DAY + timedelta(days=d), variant=v) for d in range(30) for v in VARIANTS
    }
    assert len(seeds) == 30 * len(VARIANTS)
    assert all(0 <= s < SEED_LIMIT for s in seeds)
    assert daily_seed(day=DAY, variant="sultan", key="a") != daily_seed(
        day=DAY, variant="sultan", key="b"
    )


def test_the_key_comes_from_the_settings(settings: Any):
    settings.DAILY_KEY = "one"
    first = daily_seed(day=DAY, variant="sultan")
    settings.DAILY_KEY = "two"
    assert daily_seed(day=DAY, variant="sultan") != first
    assert daily_seed(day=DAY, variant="sultan", key="one") == first


def test_the_day_turns_at_midnight_utc():
    assert daily_today(now=datetime(2026, 12, 1, 23, 59, 59, tzinfo=UTC)) == DAY
    assert daily_today(now=datetime(2026, 12, 2, 0, 0, tzinfo=UTC)) == DAY + timedelta(days=1)


def test_a_day_is_over_once_an_attempt_started_before_midnight_would_be(settings: Any):
    settings.RACE_COUNTDOWN_S = 5
    end = datetime(2026, 12, 2, tzinfo=UTC) + timedelta(seconds=5 + DAILY_TIME_LIMIT_S)
    assert daily_sealed_until(day=DAY) == end
    assert not daily_day_over(day=DAY, now=end - timedelta(microseconds=1))
    assert daily_day_over(day=DAY, now=end)

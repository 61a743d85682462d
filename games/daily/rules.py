"""Which deal a day plays, and when a day is over (docs/rules.md, "The daily deal").

The day's seed for a variant is HMAC-SHA256(key, "<yyyy-mm-dd>:<variant>"), its
first eight bytes read big-endian, modulo 2**63. The key (SULTAN_DAILY_KEY) is
secret, so nobody can compute a day's deal ahead of it; the seed is published
once the day is over. Deal numbers are forever, so the rule and the key are too.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime, time, timedelta
from typing import Final

from django.conf import settings

from games.engine import SEED_LIMIT

# An attempt is a race of one with this much time.
DAILY_TIME_LIMIT_S: Final = 15 * 60


def daily_seed(*, day: date, variant: str, key: str | None = None) -> int:
    message = f"{day.isoformat()}:{variant}".encode()
    secret = (settings.DAILY_KEY if key is None else key).encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % SEED_LIMIT


def daily_today(*, now: datetime | None = None) -> date:
    """The UTC day `now` falls in: a new deal at midnight UTC."""
    return (now or datetime.now(tz=UTC)).astimezone(UTC).date()


def daily_sealed_until(*, day: date) -> datetime:
    """The day is over for everyone: midnight UTC after it, plus the longest an
    attempt started a moment before midnight may still run (its countdown and
    time limit). Until then the deal, its replays and its analysis stay secret."""
    midnight = datetime.combine(day + timedelta(days=1), time(0), tzinfo=UTC)
    return midnight + timedelta(seconds=settings.RACE_COUNTDOWN_S + DAILY_TIME_LIMIT_S)


def daily_day_over(*, day: date, now: datetime | None = None) -> bool:
    return (now or datetime.now(tz=UTC)) >= daily_sealed_until(day=day)


def daily_last_day_over(*, now: datetime | None = None) -> date:
    """The newest day whose deal, attempts and replays are open (`daily_day_over`):
    yesterday, or the day before while yesterday's last attempts may still run."""
    yesterday = daily_today(now=now) - timedelta(days=1)
    return yesterday if daily_day_over(day=yesterday, now=now) else yesterday - timedelta(days=1)

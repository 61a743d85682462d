"""Writes for the daily deal: taking (or resuming) a player's attempt at today's deal."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.common.errors import Refused
from games.daily.models import DailyAttempt
from games.daily.rules import (
    DAILY_TIME_LIMIT_S,
    daily_day_over,
    daily_sealed_until,
    daily_seed,
    daily_today,
)
from games.engine import VARIANTS
from games.fairness.services import game_judge
from games.models import Game, Player, Race, RaceStatus
from games.races.moves import race_close_if_over
from games.races.solo import race_start_solo


class DailyRefused(Refused):
    """An attempt that may not be taken; nothing was written. `code`: bad_request, banned."""


@dataclass(frozen=True, slots=True)
class DailyStart:
    attempt: DailyAttempt
    resumed: bool


def daily_attempt_start(*, player: Player, variant: str, now: datetime | None = None) -> DailyStart:
    """The player's attempt at today's deal of `variant`: the one already taken
    (started attempts count; this resumes it), else a new race of one on it."""
    if variant not in VARIANTS:
        raise DailyRefused(
            "bad_request", gettext("unknown variant %(variant)s") % {"variant": variant}
        )
    if player.banned_at is not None:
        raise DailyRefused("banned", gettext("this player is banned"))
    day = daily_today(now=now)
    existing = _attempt(player, day, variant)
    if existing is not None:
        return DailyStart(existing, resumed=True)
    try:
        with transaction.atomic():
            # The player's row is the lock: two tabs taking the attempt get one race.
            Player.objects.select_for_update().filter(pk=player.pk).first()
            existing = _attempt(player, day, variant)
            if existing is not None:
                return DailyStart(existing, resumed=True)
            race = race_start_solo(
                host=player,
                variant=variant,
                seed=daily_seed(day=day, variant=variant),
                time_limit_s=DAILY_TIME_LIMIT_S,
                secret_until=daily_sealed_until(day=day),
            )
            game = Game.objects.select_related("player").get(race=race)
            # A deal seen before (as another identity of this browser) is played unranked.
            game_judge(game=game)
            attempt = DailyAttempt.objects.create(
                player=player, day=day, variant=variant, race=race, game=game
            )
    except IntegrityError:
        # The unique constraint is the last word on "one attempt a day".
        found = _attempt(player, day, variant)
        if found is None:
            raise
        return DailyStart(found, resumed=True)
    return DailyStart(attempt, resumed=False)


def _attempt(player: Player, day: date, variant: str) -> DailyAttempt | None:
    attempts = DailyAttempt.objects.select_related("race", "game")
    return attempts.filter(player=player, day=day, variant=variant).first()


def daily_attempts_close_overdue(*, day: date, variant: str, now: datetime | None = None) -> int:
    """Close the day's attempts whose time is up but whose race nobody was left
    to close (the socket closes a race on time; a page left for good has none):
    their games end with a `timeout` as they stand, as any race's would.
    Returns how many were closed. Idempotent, and cheap when none are overdue."""
    over = daily_day_over(day=day, now=now)
    if over and (day, variant) in _closed_days:
        return 0  # closed once the day was over: nothing can fall overdue since
    overdue = Race.objects.filter(
        dailyattempt__day=day,
        dailyattempt__variant=variant,
        status=RaceStatus.RUNNING,
        ends_at__lte=now or timezone.now(),
    ).values_list("pk", flat=True)
    closed = sum(race_close_if_over(race_id=race_id) for race_id in list(overdue))
    if over:
        _closed_days.add((day, variant))
    return closed


# Days over whose overdue attempts this process has closed (a day's pages ask on every view).
_closed_days: set[tuple[date, str]] = set()

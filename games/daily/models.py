"""A player's attempt at a day's deal (registered by games/apps.py)."""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q

from games.engine import VARIANTS
from games.store.attempts import RaceOfOne


class DailyAttempt(RaceOfOne):
    """One ranked attempt per player, day and variant: a race of one on the day's deal.

    The attempt is taken when it starts (a started attempt counts); its result
    is its game's projection, so nothing here changes afterwards.
    """

    day = models.DateField()
    variant = models.CharField(max_length=16)

    class Meta(RaceOfOne.Meta):
        abstract = False
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["player", "day", "variant"], name="daily_one_attempt_per_day"
            ),
            models.CheckConstraint(
                condition=Q(variant__in=list(VARIANTS)), name="daily_variant_valid"
            ),
        ]
        indexes: ClassVar = [
            models.Index(fields=["day", "variant"], name="daily_day_variant"),
        ]

    def __str__(self) -> str:
        return f"{self.player} on {self.day} ({self.variant})"

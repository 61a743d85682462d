"""A player's attempt at a day's deal (registered through games.models)."""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q

from games.engine import VARIANTS


class DailyAttempt(models.Model):
    """One ranked attempt per player, day and variant: a race of one on the day's deal.

    The attempt is taken when it starts (a started attempt counts); its result
    is its game's projection, so nothing here changes afterwards.
    """

    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="dailies")
    day = models.DateField()
    variant = models.CharField(max_length=16)
    race = models.OneToOneField(
        "games.Race", on_delete=models.PROTECT, related_name="daily_attempt"
    )
    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, related_name="daily_attempt"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
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

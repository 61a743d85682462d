"""What a daily attempt and a challenge attempt are alike: one player's race of one.

An abstract model (no table of its own): each room's attempt adds what it is an
attempt at (a day and variant, a challenge). Its links are by name, so this
module imports no model and the rooms' models may build on it at load time.
"""

from __future__ import annotations

from django.db import models


class RaceOfOne(models.Model):
    """A player's race of one and its game. Reverse names follow the model's:
    `race.dailyattempt`, `game.challengeattempt`, `player.dailyattempts`."""

    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="%(class)ss")
    race = models.OneToOneField("games.Race", on_delete=models.PROTECT, related_name="%(class)s")
    game = models.OneToOneField("games.Game", on_delete=models.PROTECT, related_name="%(class)s")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        app_label = "games"

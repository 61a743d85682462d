"""A racer's seat in a race's lobby (imported by games.models).

Seats are not a log: a ready mark or a presence flag is current state, and
nothing about the race's result depends on them. Results come from the games'
logs only.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from games.models import Player, Race


class RaceEntry(models.Model):
    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="race_entries")
    joined_at = models.DateTimeField(auto_now_add=True)
    ready = models.BooleanField(default=False)
    # Open websockets of this racer on this race: the lobby shows who is here.
    connections = models.PositiveSmallIntegerField(default=0)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["race", "player"], name="race_entry_once_per_player"),
        ]
        ordering = ("joined_at", "pk")

    def __str__(self) -> str:
        return f"{self.player} in {self.race}"

    @property
    def seated(self) -> bool:
        return self.left_at is None

"""A challenge on a recorded game, and the attempts at it (registered by games/apps.py)."""

from __future__ import annotations

from typing import ClassVar

from django.db import models

from games.models import race_code_new
from games.store.attempts import RaceOfOne


def challenge_code_new() -> str:
    """A code as a race's (the same alphabet and length: a link read out alike)."""
    return race_code_new()


class Challenge(models.Model):
    """A finished game offered to anyone with the link `/c/<code>/`."""

    code = models.CharField(max_length=9, unique=True, default=challenge_code_new)
    game = models.ForeignKey("games.Game", on_delete=models.PROTECT, related_name="challenges")
    created_by = models.ForeignKey(
        "games.Player", on_delete=models.PROTECT, related_name="challenges_made"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"
        constraints: ClassVar = [
            # Asking twice for a challenge on one game gives the same link.
            models.UniqueConstraint(fields=["game", "created_by"], name="challenge_once_per_maker"),
        ]

    def __str__(self) -> str:
        return self.code


class ChallengeAttempt(RaceOfOne):
    """One player's race against the recorded game: a game of their own, with its own log."""

    challenge = models.ForeignKey(Challenge, on_delete=models.PROTECT, related_name="attempts")

    class Meta(RaceOfOne.Meta):
        abstract = False
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["challenge", "player"], name="challenge_attempt_once_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} on {self.challenge}"

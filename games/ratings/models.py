"""A rating and its history: the projection games.ratings.services keeps and rebuilds."""

from __future__ import annotations

from typing import ClassVar, Final

from django.db import models
from django.db.models import Q

from games.models import VARIANT_CHOICES
from games.ratings.skill import ESTABLISHED_RACES

# On the leaderboard: ratings of ESTABLISHED_RACES rated races or more, against
# enough distinct opponents (`established`, games.fairness.worth; docs/ratings.md).
# The board's partial index has this condition, so its queries filter by this very Q.
ON_BOARD: Final = Q(races__gte=ESTABLISHED_RACES, established=True)


class Rating(models.Model):
    """A player's rating in a variant now: the last of their RatingChange rows."""

    # Indexed by rating_once_per_variant, which leads with it.
    player = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="ratings", db_index=False
    )
    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES)
    mu = models.FloatField()
    sigma = models.FloatField()
    # round(mu): what pages show, and what the leaderboard's index orders by.
    rating = models.IntegerField()
    races = models.PositiveIntegerField()
    last_race_at = models.DateTimeField()
    # Has met enough distinct opponents that their results count against others
    # (games.fairness.worth): the last RatingChange's.
    established = models.BooleanField(default=False)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["player", "variant"], name="rating_once_per_variant"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
        ]
        indexes: ClassVar = [
            # The leaderboard: its rows in order from the index alone, races included,
            # however deep the page (bench/ratings.py).
            models.Index(
                fields=["variant", "-rating", "player", "races"],
                condition=ON_BOARD,
                name="rating_board",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.variant} {self.rating}"


class RatingChange(models.Model):
    """What one rated race did to one racer's rating."""

    # Both indexed by the composite indexes below, which lead with them: a rebuild
    # writes a row per racer per race, and every index is paid for on each.
    player = models.ForeignKey(
        "games.Player", on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES)
    race = models.ForeignKey(
        "games.Race", on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="rating_change"
    )
    at = models.DateTimeField()  # the race's finished_at: the replay's order, with the race id
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField()
    delta = models.IntegerField()  # rating after minus rating before
    rank = models.PositiveSmallIntegerField()  # among the race's rated racers
    # Made enough moves of their own to be anyone's opponent (games.fairness.worth):
    # what a replay reads back for the pairs met and the opponents a newcomer has had.
    placed = models.BooleanField(default=True)
    established = models.BooleanField(default=False)  # after this race

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["race", "player"], name="rating_change_once_per_race"),
        ]
        indexes: ClassVar = [
            models.Index(fields=["player", "variant", "at"], name="rating_change_history"),
            models.Index(fields=["variant", "at", "race"], name="rating_change_order"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.variant} {self.delta:+d} in {self.race}"

"""A finished race's ranking, kept: the projection of its racers' logs at the end.

A finished race's logs can no longer grow (the store refuses moves once it has
ended), so its ranking never changes: `race_close_if_over` writes it once, in
the transaction that ends the race, from `race_results` (the ranking rule's one
home). Ratings read it instead of replaying every log again;
`manage.py rebuild_ratings` writes it afresh from the logs.
A moderator's void or flag does not change a ranking: ratings leave the game out.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q


class RaceStanding(models.Model):
    race = models.ForeignKey("games.Race", on_delete=models.CASCADE, related_name="standings")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="standing")
    rank = models.PositiveSmallIntegerField()
    # The rank of the first racer it ties with by the ranking rule (two racers who
    # both resigned before playing a card), else its own: ratings count a draw.
    place = models.PositiveSmallIntegerField()

    class Meta:
        constraints: ClassVar = [
            # A row's own bounds, then its rank's uniqueness within the race.
            models.CheckConstraint(condition=Q(rank__gte=1), name="race_standing_rank_positive"),
            models.CheckConstraint(
                condition=Q(place__gte=1, place__lte=models.F("rank")),
                name="race_standing_place_at_most_rank",
            ),
            models.UniqueConstraint(fields=["race", "rank"], name="race_standing_rank_once"),
        ]

    def __str__(self) -> str:
        return f"{self.race} #{self.rank}: game {self.game_id}"

"""Reads for practice: a player's open practice games, and their statistics per
variant (the practice board's line, the history page, a profile's race rows).

Statistics count finished games only (won, lost, resigned or timed out) and
leave voided ones out: a result a moderator voided is no result. A game's time
runs from its start (a race game's from the race's start) to its finish.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Avg, Count, DurationField, ExpressionWrapper, F, Min, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import VARIANTS
from games.models import Game, GameStatus, Player, RaceStatus

_DURATION = ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())


def practice_game_unfinished(*, player: Player, variant: str, seed: int) -> Game | None:
    return (
        Game.objects.filter(
            player=player,
            race__isnull=True,
            variant=variant,
            seed=seed,
            status=GameStatus.PLAYING,
        )
        .order_by("-created_at", "-pk")
        .first()
    )


def player_latest_unfinished_practice(*, player: Player) -> Game | None:
    return (
        Game.objects.filter(player=player, race__isnull=True, status=GameStatus.PLAYING)
        .order_by("-created_at", "-pk")
        .first()
    )


@dataclass(frozen=True, slots=True)
class VariantStats:
    variant: str
    played: int
    won: int
    best_time: timedelta | None
    average_cards: float | None

    @property
    def win_rate(self) -> int | None:
        return round(100 * self.won / self.played) if self.played else None

    def summary(self) -> str:
        """The practice board's line: "12 games · 3 won (25%) · best 4:07"."""
        parts = [
            ngettext("%(n)d game", "%(n)d games", self.played) % {"n": self.played},
            _("%(won)d won (%(rate)d%%)") % {"won": self.won, "rate": self.win_rate or 0},
        ]
        if self.best_time is not None:
            minutes, seconds = divmod(max(0, int(self.best_time.total_seconds())), 60)
            parts.append(_("best %(time)s") % {"time": f"{minutes}:{seconds:02}"})
        return " · ".join(parts)


def variant_summary(*, player: Player | None, variant: str) -> str:
    """The player's line for one variant, or the words for a first game of it."""
    rows = player_variant_stats(player=player, variant=variant) if player is not None else []
    return rows[0].summary() if rows else _("Your first game of this variant")


def player_variant_stats(
    *, player: Player, races_only: bool = False, variant: str | None = None
) -> list[VariantStats]:
    """One row per variant the player has finished a game in, in the variants' order.

    `races_only`: race games alone, for a profile anyone may read (practice is private);
    `variant`: that variant's row alone (the practice board's line).
    """
    finished = Game.objects.filter(player=player, voided=False).exclude(status=GameStatus.PLAYING)
    if variant is not None:
        finished = finished.filter(variant=variant)
    if races_only:
        finished = finished.filter(race__status=RaceStatus.FINISHED)
    rows = (
        finished.values("variant")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=Q(status=GameStatus.WON)),
            best_time=Min(_DURATION, filter=Q(status=GameStatus.WON)),
            average_cards=Avg("cards_played"),
        )
        .order_by()
    )
    by_variant = {row["variant"]: row for row in rows}
    return [
        VariantStats(
            variant=variant,
            played=row["played"],
            won=row["won"],
            best_time=row["best_time"],
            average_cards=float(row["average_cards"]) if row["average_cards"] is not None else None,
        )
        for variant in VARIANTS
        if (row := by_variant.get(variant)) is not None
    ]

"""Reads for practice: a player's open practice games."""

from __future__ import annotations

from games.models import Game, GameStatus, Player


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

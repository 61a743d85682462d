"""What accounts tell rooms above them, which they may not import (games.ratings hears it)."""

from __future__ import annotations

from django.dispatch import Signal

from games.common.signals import send_after_commit

# Sent after the commit that gave a guest's games to an account (a guest signing up,
# or logging in); keyword argument `player_id`, the account's player.
player_games_changed = Signal()


def player_games_changed_after_commit(*, player_id: int) -> None:
    """Tell the listeners once the move is committed; one that fails does not undo
    the sign-up (`rebuild_ratings` catches up)."""
    send_after_commit(
        player_games_changed, about=f"player {player_id}'s games", player_id=player_id
    )

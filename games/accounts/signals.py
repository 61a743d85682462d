"""What accounts tell rooms above them, which they may not import (games.ratings hears it)."""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)

# Sent after the commit that gave a guest's games to an account (a guest signing up,
# or logging in); keyword argument `player_id`, the account's player.
player_games_changed = Signal()


def player_games_changed_after_commit(*, player_id: int) -> None:
    """Tell the listeners once the move is committed; a listener that fails is logged
    and does not undo the sign-up (`rebuild_ratings` catches up)."""

    def send() -> None:
        for receiver, outcome in player_games_changed.send_robust(sender=None, player_id=player_id):
            if isinstance(outcome, Exception):
                logger.error(
                    "player %s: %r failed on their games", player_id, receiver, exc_info=outcome
                )

    transaction.on_commit(send)

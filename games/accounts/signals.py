"""What accounts tell rooms above them, which they may not import (games.ratings hears it)."""

from __future__ import annotations

from django.dispatch import Signal

# Sent after the commit that gave a guest's games to an account (a guest signing up,
# or logging in); keyword argument `player_id`, the account's player.
player_games_changed = Signal()

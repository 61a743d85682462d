"""What a race tells rooms above it, which it may not import (games.ratings hears these)."""

from __future__ import annotations

from django.dispatch import Signal

from games.common.signals import send_after_commit

# Sent after the commit that finished a race; keyword argument `race_id`.
race_finished = Signal()


def race_finished_after_commit(*, race_id: int) -> None:
    """Tell the listeners once the race's end is committed; one that fails never
    undoes the end: its results stand, and `rebuild_ratings` catches up."""
    send_after_commit(race_finished, about=f"race {race_id}'s end", race_id=race_id)

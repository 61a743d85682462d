"""What a race tells rooms above it, which it may not import (games.ratings hears these)."""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)

# Sent after the commit that finished a race; keyword argument `race_id`.
race_finished = Signal()


def race_finished_after_commit(*, race_id: int) -> None:
    """Tell the listeners once the race's end is committed. A listener that fails is
    logged, never the race's end: its results stand, and `rebuild_ratings` catches up."""

    def send() -> None:
        for receiver, outcome in race_finished.send_robust(sender=None, race_id=race_id):
            if isinstance(outcome, Exception):
                logger.error(
                    "race %s: %r failed after its end", race_id, receiver, exc_info=outcome
                )

    transaction.on_commit(send)

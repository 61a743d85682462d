"""Signals sent once their transaction commits, robustly: a room tells the rooms
above it (which it may not import) of a change that has happened for good."""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

logger = logging.getLogger(__name__)


def send_after_commit(signal: Signal, *, about: str, **kwargs: int) -> None:
    """Send `signal` with `kwargs` after the current transaction commits (at once
    outside one). A receiver that fails is logged, never the change it hears of:
    what it keeps is a projection that its rebuild command catches up."""

    def send() -> None:
        for receiver, outcome in signal.send_robust(sender=None, **kwargs):
            if isinstance(outcome, Exception):
                logger.error("%s: %r failed", about, receiver, exc_info=outcome)

    transaction.on_commit(send)

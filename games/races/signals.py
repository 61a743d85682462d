"""What a race tells rooms above it, which it may not import (games.ratings hears these)."""

from __future__ import annotations

from django.dispatch import Signal

# Sent after the commit that finished a race; keyword argument `race_id`.
race_finished = Signal()

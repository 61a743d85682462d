from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    """Attempts start at once: moves are accepted from the first one."""
    settings.RACE_COUNTDOWN_S = 0

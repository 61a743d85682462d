from __future__ import annotations

from typing import Any

import pytest

from tests.pages.conftest import live_race  # noqa: F401 (alice and bob racing)


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    """Attempts start at once: moves are accepted from the first one."""
    settings.RACE_COUNTDOWN_S = 0

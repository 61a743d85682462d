"""What tournaments hear from races (connected in games/apps.py)."""

from __future__ import annotations

from typing import Any

from games.tournaments.services import tournament_race_finished


def on_race_finished(*, race_id: int, **_: Any) -> None:
    tournament_race_finished(race_id=race_id)

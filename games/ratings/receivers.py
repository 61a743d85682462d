"""What ratings hear from rooms that may not import them (connected in games/apps.py)."""

from __future__ import annotations

from typing import Any

from games.ratings.services import ratings_player_changed, ratings_race_finished


def on_race_finished(*, race_id: int, **_: Any) -> None:
    ratings_race_finished(race_id=race_id)


def on_player_games_changed(*, player_id: int, **_: Any) -> None:
    ratings_player_changed(player_id=player_id)

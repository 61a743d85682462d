"""A racer's moves through the race's own path (games/races/moves.race_move), as the
race socket makes them, for tests that set a race's games up without a socket."""

from __future__ import annotations

from games.models import Game, Player
from games.races.moves import RaceMove, race_move
from tests.store.helpers import client_id


def race_append(
    game: Game,
    player: Player,
    token: str,
    expected_seq: int | None = None,
    client_move_id: str | None = None,
) -> RaceMove:
    game.refresh_from_db()
    assert game.race_id is not None, "a practice game's moves go through the store"
    return race_move(
        race_id=game.race_id,
        game_id=game.pk,
        player=player,
        token=token,
        client_move_id=client_id() if client_move_id is None else client_move_id,
        expected_seq=game.last_seq if expected_seq is None else expected_seq,
    )

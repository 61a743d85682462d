"""Small drivers for store tests: play through the real service, no shortcuts."""

from __future__ import annotations

import itertools

from games.engine import GameState, legal_moves
from games.models import Game, Move, Player
from games.store.selectors import game_state
from games.store.services import AppendResult, game_append_move

_ids = itertools.count(1)


def client_id() -> str:
    return f"client-{next(_ids)}"


def append(game: Game, player: Player, token: str, expected_seq: int | None = None) -> AppendResult:
    game.refresh_from_db()
    return game_append_move(
        game_id=game.pk,
        player=player,
        token=token,
        client_move_id=client_id(),
        expected_seq=game.last_seq if expected_seq is None else expected_seq,
    )


def greedy_move(state: GameState) -> str:
    """A foundation move when there is one, else draw or redeal."""
    moves = legal_moves(state)
    return next((m for m in moves if m[-1].isdigit()), moves[0])


def play_to_end(game: Game, player: Player, limit: int = 2000) -> Game:
    state = game_state(game=game)
    for _ in range(limit):
        if state.is_over:
            break
        state = append(game, player, greedy_move(state)).state
    game.refresh_from_db()
    assert game.is_over
    return game


def log_of(game: Game) -> list[tuple[int, str, str]]:
    return list(
        Move.objects.filter(game=game).order_by("seq").values_list("seq", "token", "client_move_id")
    )

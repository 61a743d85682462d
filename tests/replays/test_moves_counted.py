"""Moves in a practice game: made and not taken back, the same on every page."""

from __future__ import annotations

import random

from games.api.schemas import game_row
from games.engine import legal_moves
from games.engine.positions import Position, advance, moves_on_table
from games.models import Player
from games.pages.history import history_rows, player_games
from games.replays.selectors import game_replay
from games.store.selectors import game_position, game_state
from games.store.services import game_create
from games.store.tally import game_move_count
from tests.store.helpers import append


def test_undone_moves_are_not_counted_anywhere(alice: Player):
    game = game_create(player=alice, variant="sultan", seed=7)
    for _ in range(3):
        append(game, alice, legal_moves(game_state(game=game))[0])
    append(game, alice, "undo")
    game.refresh_from_db()
    assert game.last_seq == 4
    assert game_position(game=game).moves == 2
    assert game_move_count(game=game) == 2
    assert game_replay(game=game)["game"]["moves"] == 2
    assert game_row(game, alice).moves == 2
    [row] = history_rows(games=list(player_games(player=alice)), player=alice)
    assert row.moves == 2


def test_the_count_from_tokens_is_the_positions_count_on_random_logs():
    rng = random.Random(26)
    for seed in range(30):
        position, tokens = Position.start(seed, "sultan"), []
        for _ in range(rng.randrange(1, 60)):
            if position.state.is_over:
                break
            choices = legal_moves(position.state) + (["undo"] if position.history else [])
            token = rng.choice(choices + (["resign"] if rng.random() < 0.02 else []))
            position, _ = advance(position, token, take_backs=True)
            tokens.append(token)
        assert moves_on_table(tokens) == position.moves, tokens

"""The greedy yardstick plays by its stated preferences, to the end."""

from __future__ import annotations

from games.engine import PLAYING, GameState, apply, legal_moves, new_game
from games.engine.solver.greedy import greedy_move, play_greedy


def test_greedy_plays_every_deal_to_a_finish_with_legal_moves() -> None:
    for variant in ("sultan", "pysolfc-8"):
        for seed in range(5):
            start = new_game(seed, variant)
            end, moves = play_greedy(start)
            assert end.status in ("won", "lost")
            state = start
            for move in moves:
                assert move in legal_moves(state)
                state = apply(state, move)
            assert state == end


def test_greedy_prefers_reserve_then_waste_then_draw_then_redeal() -> None:
    played = (0,) * 9
    both = GameState(
        "sultan", 1, played, ("AC", None, None, None, None, None), ("AS",), ("2D",), 2, PLAYING
    )
    assert greedy_move(both) == "a7"
    waste_only = both._replace(reserve=("5C",) + (None,) * 5)
    assert greedy_move(waste_only) == "w4"
    neither = waste_only._replace(waste=("9S",))
    assert greedy_move(neither) == "draw"
    redeal = neither._replace(stock=())
    assert greedy_move(redeal) == "redeal"


def test_greedy_fills_an_empty_pysolfc_slot_only_when_otherwise_stuck() -> None:
    played = (0,) * 9
    stuck = GameState(
        "pysolfc", 1, played, ("5C", None, "6C", "7C", "8C", "9C"), ("9S",), (), 0, PLAYING
    )
    assert greedy_move(stuck) == "wb"
    assert greedy_move(stuck._replace(stock=("2D",))) == "draw"

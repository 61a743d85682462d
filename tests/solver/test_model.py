"""The solver's encoding agrees with the engine on what it stands for."""

from __future__ import annotations

from games.engine import apply, new_game, replay
from games.engine.solver.model import (
    CARD_IDS,
    CARD_NAMES,
    encode_foundations,
    redeal_number,
    redeal_order,
)


def _to_end_of_stock(seed: int, variant: str) -> list[str]:
    state = new_game(seed, variant)
    return ["draw"] * len(state.stock)


def test_redeal_order_reproduces_the_engines_shuffle_for_both_redeals() -> None:
    seed, variant = 31, "sultan"
    moves = _to_end_of_stock(seed, variant)
    state = replay(seed, variant, moves)
    for _ in range(2):
        waste = state.waste
        order = redeal_order(seed, redeal_number(state.redeals_left), len(waste))
        state = apply(state, "redeal")
        assert state.stock == tuple(waste[j] for j in order)
        while state.stock:
            state = apply(state, "draw")


def test_redeal_order_is_a_real_shuffle_of_every_position() -> None:
    order = redeal_order(5, 1, 40)
    assert sorted(order) == list(range(40))
    assert order != tuple(range(40))
    assert redeal_order(5, 2, 40) != order


def test_card_ids_round_trip_and_leave_out_nothing() -> None:
    assert len(CARD_NAMES) == 52
    assert all(CARD_IDS[name] == i for i, name in enumerate(CARD_NAMES))


def test_the_two_foundations_of_a_suit_encode_alike_whichever_is_higher() -> None:
    # Clubs on 7 and 9, spades on 4 and 6, diamonds on 1 and 3 (0-based here).
    played = [0] * 9
    played[6], played[8] = 5, 2
    swapped = list(played)
    swapped[6], swapped[8] = 2, 5
    assert encode_foundations(tuple(played)) == encode_foundations(tuple(swapped))


def test_hearts_foundations_compare_by_top_card_not_by_count() -> None:
    # Foundation 2 holding 2H-5H (4 played, top 5H) and foundation 8 holding
    # AH-3H (3 played, top 3H) face the same future as the other way round.
    one = [0] * 9
    one[1], one[7] = 4, 3
    other = [0] * 9
    other[1], other[7] = 2, 5  # foundation 2 up to 3H, foundation 8 up to 5H
    assert encode_foundations(tuple(one)) == encode_foundations(tuple(other))
    differs = [0] * 9
    differs[1], differs[7] = 3, 4  # tops 4H and 4H
    assert encode_foundations(tuple(one)) != encode_foundations(tuple(differs))

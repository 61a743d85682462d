"""Safe moves, sending home and finishing (games.engine.safe), checked against brute force."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    PLAYING,
    VARIANTS,
    WON,
    GameState,
    apply,
    finish_line,
    home_foundation,
    legal_moves,
    new_game,
    safe_move,
)
from games.engine.solver.greedy import greedy_move
from tests.solver.brute import brute_force
from tests.solver.positions import late_position

KINGS = (0,) * 9


def _state(
    variant: str,
    *,
    played: tuple[int, ...] = KINGS,
    reserve=(),
    waste=(),
    stock=(),
    redeals_left: int = 0,
) -> GameState:
    slots = 8 if variant.endswith("-8") else 6
    full = (*reserve, *[None] * (slots - len(reserve)))
    return GameState(
        variant, 1, played, tuple(full), tuple(waste), tuple(stock), redeals_left, PLAYING
    )


def test_a_card_two_foundations_take_goes_home_to_the_lower_numbered_one() -> None:
    # Foundations 7 and 9 are both kings of clubs: the ace of clubs fits both.
    assert home_foundation("AC", KINGS) == 6
    # Once foundation 7 has its ace, the second ace goes to foundation 9.
    played = (0, 0, 0, 0, 0, 0, 1, 0, 0)
    assert home_foundation("AC", played) == 8
    assert home_foundation("2C", played) == 6
    assert home_foundation("3C", played) is None


def test_sending_home_is_a_legal_move_wherever_some_foundation_takes_the_card() -> None:
    rng = random.Random(16)
    for variant in VARIANTS:
        state = new_game(rng.randrange(10**6), variant)
        while state.status == PLAYING:
            for slot, card in enumerate(state.reserve):
                if card is not None and (f := home_foundation(card, state.played)) is not None:
                    assert f"{'abcdefgh'[slot]}{f + 1}" in legal_moves(state)
            move = greedy_move(state)
            assert move is not None
            state = apply(state, move)


def test_a_waste_ace_of_the_first_pass_of_sultan_is_not_safe() -> None:
    # The waste's length sets the next shuffle: taking a card off it changes the redeal.
    state = _state("sultan", waste=["AC"], redeals_left=2)
    assert "w7" in legal_moves(state)
    assert safe_move(state) is None


def test_a_waste_ace_is_safe_in_pysolfc_and_in_the_last_pass_of_sultan() -> None:
    assert safe_move(_state("pysolfc", waste=["AC"], stock=["5D"], redeals_left=2)) == "w7"
    assert safe_move(_state("sultan", waste=["AC"], stock=["5D"])) == "w7"


def test_a_card_only_the_higher_foundation_of_its_suit_takes_is_not_safe() -> None:
    # Foundation 7 holds AC 2C, foundation 9 nothing: 3C may wait for the other 2C.
    played = (0, 0, 0, 0, 0, 0, 2, 0, 0)
    state = _state("pysolfc", played=played, waste=["3C"], reserve=["AC"])
    assert "w7" in legal_moves(state)
    # The ace goes on the lower foundation (9), so it is safe; the three is not.
    assert safe_move(state) == "a9"
    assert safe_move(_state("pysolfc", played=played, waste=["3C"])) is None


def test_a_sultan_slot_card_is_safe_only_once_no_refill_can_follow() -> None:
    with_stock = _state("sultan", reserve=["AS"], stock=["9D"])
    assert safe_move(with_stock) is None
    assert safe_move(_state("sultan", reserve=["AS"])) == "a4"


def test_the_twin_below_makes_a_higher_foundation_play_safe_in_the_last_sultan_pass() -> None:
    played = (0, 0, 0, 0, 0, 0, 2, 0, 0)
    state = _state("sultan", played=played, waste=["3C", "JD", "3C"])
    assert safe_move(state) == "w7"
    assert safe_move(state._replace(waste=("JD", "3C"))) is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_safe_move_never_turns_a_won_position_into_a_lost_one(variant: str) -> None:
    rng = random.Random(f"safe/{variant}")
    checked = 0
    for _ in range(400):
        state = late_position(rng.randrange(10**6), variant, rng.randint(4, 9), rng)
        move = safe_move(state)
        if move is None or state.status != PLAYING:
            continue
        assert move in legal_moves(state)
        assert brute_force(apply(state, move)) == brute_force(state), (state, move)
        checked += 1
    assert checked >= 40


def test_finish_is_offered_only_with_the_stock_empty() -> None:
    state = _state(
        "pysolfc", played=(11, 10, 11, 11, 0, 11, 11, 12, 12), waste=["QD"], stock=["QS"]
    )
    assert finish_line(state) is None


def test_finish_plays_out_a_game_whose_every_move_is_safe_or_forced() -> None:
    # Five cards out: QD, QH, JS and QS, QC; every one goes up on the lower foundation.
    played = (12, 11, 11, 10, 0, 12, 12, 11, 11)
    state = _state("sultan", played=played, reserve=["QS", "QH"], waste=["QD", "JS", "QC"])
    line = finish_line(state)
    assert line is not None
    end = state
    for move in line:
        end = apply(end, move)
    assert end.status == WON


def test_finish_is_refused_where_a_choice_remains() -> None:
    # Two redeals left in sultan: the waste is not safe, and there is more than one move.
    played = (11, 10, 11, 10, 0, 11, 11, 11, 11)
    state = _state(
        "sultan", played=played, reserve=["QS"], waste=["QD", "JS", "QH", "QC"], redeals_left=2
    )
    assert finish_line(state) is None

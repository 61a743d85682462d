"""Every way a move, a log, a seed or a variant can be refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import (
    VARIANTS,
    IllegalMove,
    InvalidMove,
    apply,
    apply_with_events,
    legal_moves,
    new_game,
    parse_move,
    replay,
)
from tests.engine.make_golden import path_for
from tests.engine.naive import SLOT_LETTERS, NaiveGame, all_notation_tokens

NOT_NOTATION = [
    "",
    "W3",
    "zz",
    "w0",
    "w10",
    " w3",
    "w3 ",
    "w3\n",
    "draw\n",
    "Draw",
    "DRAW",
    "draw ",
    "Redeal",
    "i3",
    "a0",
    "x1",
    "ww",
    "aa",
    "a",
    "w",
    "3",
    "31",
    "3a",
    "w3w3",
    "draw redeal",
    "w\uff13",  # FULLWIDTH DIGIT THREE: int() would accept it
    "a\u0661",  # ARABIC-INDIC DIGIT ONE
    "wA",
    "A1",
    "w-1",
    "UNDO",
    "undo ",
    "\x00",
]
SIX_SLOT_VARIANTS = ("sultan", "pysolfc")
SULTAN_VARIANTS = ("sultan", "sultan-8")
PYSOLFC_VARIANTS = ("pysolfc", "pysolfc-8")


def test_invalid_and_illegal_moves_are_distinct_value_errors() -> None:
    assert issubclass(InvalidMove, ValueError)
    assert issubclass(IllegalMove, ValueError)
    assert not issubclass(IllegalMove, InvalidMove)
    assert not issubclass(InvalidMove, IllegalMove)


def _refused_as_invalid_everywhere(variant: str, token: Any) -> None:
    """`token` is InvalidMove (never IllegalMove) through apply, apply_with_events and
    replay, and the state it was tried on is left as it was."""
    state = new_game(seed=42, variant=variant)
    before = state.as_dict()
    with pytest.raises(InvalidMove) as caught:
        apply(state, token)
    assert not isinstance(caught.value, IllegalMove)
    with pytest.raises(InvalidMove):
        apply_with_events(state, token)
    with pytest.raises(InvalidMove):
        replay(42, variant, ["draw", token])
    assert state.as_dict() == before


@pytest.mark.parametrize("token", NOT_NOTATION)
@pytest.mark.parametrize("variant", VARIANTS)
def test_it_rejects_a_string_that_is_not_notation_with_invalid_move(
    variant: str, token: str
) -> None:
    _refused_as_invalid_everywhere(variant, token)
    with pytest.raises(InvalidMove):
        parse_move(token)


# What a JSON log could hold instead of a string: the replay's table lookup
# must not let an unhashable one escape as a TypeError.
NOT_STRINGS: list[Any] = [None, 3, 3.0, True, ["draw"], {"move": "draw"}, b"draw"]


@pytest.mark.parametrize("token", NOT_STRINGS, ids=repr)
@pytest.mark.parametrize("variant", VARIANTS)
def test_it_rejects_a_token_that_is_not_a_string_with_invalid_move(
    variant: str, token: Any
) -> None:
    _refused_as_invalid_everywhere(variant, token)


def test_it_rejects_undo_through_apply_as_a_log_event_for_replay() -> None:
    state = apply(new_game(seed=1, variant="sultan"), "draw")
    with pytest.raises(InvalidMove, match=r"(?i)replay|log"):
        apply(state, "undo")
    with pytest.raises(InvalidMove):
        apply_with_events(state, "undo")


@pytest.mark.parametrize(
    "tokens", [["undo"], ["draw", "undo", "undo"], ["draw", "draw", "undo", "undo", "undo"]]
)
@pytest.mark.parametrize("variant", VARIANTS)
def test_it_rejects_undo_with_nothing_left_to_take_back(variant: str, tokens: list[str]) -> None:
    with pytest.raises(IllegalMove) as caught:
        replay(7, variant, tokens)
    assert not isinstance(caught.value, InvalidMove)


@pytest.mark.parametrize("variant", VARIANTS)
def test_undo_takes_back_the_latest_move_not_yet_taken_back(variant: str) -> None:
    one = replay(7, variant, ["draw"]).as_dict()
    assert replay(7, variant, ["draw", "draw", "undo"]).as_dict() == one
    assert replay(7, variant, ["draw", "draw", "draw", "undo", "undo"]).as_dict() == one
    fresh = new_game(seed=7, variant=variant).as_dict()
    assert replay(7, variant, ["draw", "draw", "undo", "undo"]).as_dict() == fresh
    assert replay(7, variant, ["draw", "undo", "draw", "undo"]).as_dict() == fresh


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_undone_redeal_deals_the_same_stock_again(variant: str) -> None:
    stock = len(new_game(seed=5, variant=variant).as_dict()["stock"])
    tokens = ["draw"] * stock + ["redeal"]
    first = replay(5, variant, tokens).as_dict()
    assert (
        replay(5, variant, [*tokens, "undo"]).as_dict() == replay(5, variant, tokens[:-1]).as_dict()
    )
    assert replay(5, variant, [*tokens, "undo", "redeal"]).as_dict() == first
    assert first["redeals_left"] == 1


def test_replay_leaves_the_token_list_unchanged() -> None:
    tokens = ["draw", "draw", "undo", "draw"]
    replay(3, "sultan", tokens)
    assert tokens == ["draw", "draw", "undo", "draw"]


# ----- illegal moves: well-formed, but the rules forbid them now ----------


def naive_prefix(variant: str, wanted: Callable[[NaiveGame], bool]) -> tuple[int, list[str]]:
    """A (seed, log) reaching a state that satisfies ``wanted``, found by replaying
    the golden games (greedy, with undo, won) on the naive reference."""
    golden = json.loads(path_for(variant).read_text())
    for record in golden["games"]:
        game = NaiveGame(record["seed"], variant)
        for played, token in enumerate([*record["tokens"], None]):
            if wanted(game):
                return record["seed"], record["tokens"][:played]
            if token is not None:
                game.play(token)
    raise AssertionError(f"no golden {variant} game reaches the state wanted")


def assert_illegal(seed: int, variant: str, tokens: list[str], move: str) -> None:
    state = replay(seed, variant, tokens)
    before = state.as_dict()
    assert move not in legal_moves(state)
    with pytest.raises(IllegalMove) as caught:
        apply(state, move)
    assert not isinstance(caught.value, InvalidMove)
    with pytest.raises(IllegalMove):
        apply_with_events(state, move)
    with pytest.raises(IllegalMove):
        replay(seed, variant, [*tokens, move])
    assert state.as_dict() == before


@pytest.mark.parametrize("variant", SIX_SLOT_VARIANTS)
def test_it_rejects_slots_g_and_h_in_six_slot_variants(variant: str) -> None:
    seed, tokens = naive_prefix(variant, lambda game: bool(game.waste))
    for letter in "gh":
        for target in "123456789":
            assert_illegal(seed, variant, tokens, f"{letter}{target}")
        assert_illegal(seed, variant, tokens, f"w{letter}")


@pytest.mark.parametrize("variant", SULTAN_VARIANTS)
def test_it_rejects_waste_to_reserve_in_sultan_variants_even_into_an_empty_slot(
    variant: str,
) -> None:
    seed, tokens = naive_prefix(variant, lambda game: None in game.reserve and bool(game.waste))
    empty = SLOT_LETTERS[empty_slot(seed, variant, tokens)]
    assert_illegal(seed, variant, tokens, f"w{empty}")
    for target in "123456789":
        assert_illegal(seed, variant, tokens, f"{empty}{target}")


def empty_slot(seed: int, variant: str, tokens: list[str]) -> int:
    reserve: list[Any] = replay(seed, variant, tokens).as_dict()["reserve"]
    return reserve.index(None)


@pytest.mark.parametrize("variant", PYSOLFC_VARIANTS)
def test_it_rejects_waste_to_reserve_into_a_full_slot_or_from_an_empty_waste(
    variant: str,
) -> None:
    assert_illegal(3, variant, [], "wa")  # every slot is full at the deal
    seed, tokens = naive_prefix(variant, lambda game: None in game.reserve and not game.waste)
    empty = SLOT_LETTERS[empty_slot(seed, variant, tokens)]
    assert_illegal(seed, variant, tokens, f"w{empty}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_rejects_any_card_onto_the_sultan(variant: str) -> None:
    seed, tokens = naive_prefix(variant, lambda game: bool(game.waste))
    assert_illegal(seed, variant, tokens, "w5")
    for letter in SLOT_LETTERS[: len(new_game(seed=seed, variant=variant).as_dict()["reserve"])]:
        assert_illegal(seed, variant, tokens, f"{letter}5")


def test_it_rejects_a_card_onto_a_foundation_of_another_suit_or_rank() -> None:
    assert new_game(seed=0, variant="sultan").as_dict()["reserve"][0] == "9C"
    for target in "123456789":
        assert_illegal(0, "sultan", [], f"a{target}")


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_rejects_draw_redeal_and_waste_moves_when_their_piles_forbid_them(
    variant: str,
) -> None:
    if variant in SULTAN_VARIANTS:
        assert_illegal(9, variant, [], "w2")  # no waste card yet
    assert_illegal(9, variant, [], "redeal")  # the stock is not empty
    seed, tokens = naive_prefix(variant, lambda game: not game.stock and game.redeals_left == 0)
    assert_illegal(seed, variant, tokens, "draw")
    assert_illegal(seed, variant, tokens, "redeal")  # no redeal left


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_rejects_a_redeal_of_an_empty_waste(variant: str) -> None:
    seed, tokens = naive_prefix(
        variant, lambda game: not game.stock and not game.waste and game.status == "playing"
    )
    assert_illegal(seed, variant, tokens, "redeal")


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_rejects_every_move_once_the_game_is_over(variant: str) -> None:
    seed, tokens = naive_prefix(variant, lambda game: game.status != "playing")
    assert replay(seed, variant, tokens).as_dict()["status"] in ("won", "lost")
    for move in all_notation_tokens():
        assert_illegal(seed, variant, tokens, move)


# ----- seeds and variants ---------------------------------------------------

BAD_SEEDS: list[Any] = [-1, 2**63, 2**64, -(2**63), 1.0, 1.5, "1", True, False, None]
BAD_VARIANTS: list[Any] = ["Sultan", "", "klondike", "sultan ", "sultan-6", "pysolfc+", None]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_it_rejects_a_seed_outside_zero_to_two_to_the_63(seed: Any) -> None:
    with pytest.raises(ValueError, match=r"(?i)seed"):
        new_game(seed=seed, variant="sultan")
    with pytest.raises(ValueError, match=r"(?i)seed"):
        replay(seed, "sultan", [])


@pytest.mark.parametrize("seed", [0, 2**63 - 1])
def test_it_accepts_the_seeds_at_both_ends_of_the_range(seed: int) -> None:
    assert new_game(seed=seed, variant="sultan").as_dict()["seed"] == seed


@pytest.mark.parametrize("variant", BAD_VARIANTS, ids=repr)
def test_it_rejects_an_unknown_variant(variant: Any) -> None:
    with pytest.raises(ValueError, match=r"(?i)variant"):
        new_game(seed=1, variant=variant)
    with pytest.raises(ValueError, match=r"(?i)variant"):
        replay(1, variant, [])

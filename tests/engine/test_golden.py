"""The engine against the golden data recorded by the naive reference."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import VARIANTS, apply, legal_moves, new_game, replay
from tests.engine.make_golden import build_golden, hand_check_seed_0_sultan, path_for, render
from tests.engine.naive import LAYOUT, VARIANT_RULES

RULES_VARIANTS = ("sultan", "sultan-8", "pysolfc", "pysolfc-8")
GOLDEN: dict[str, dict[str, Any]] = {
    variant: json.loads(path_for(variant).read_text()) for variant in RULES_VARIANTS
}
DEALS = [
    pytest.param(variant, deal, id=f"{variant}-{deal['seed']}")
    for variant, data in GOLDEN.items()
    for deal in data["deals"]
]
GAMES = [
    pytest.param(variant, game, id=f"{variant}-{game['name']}-{game['seed']}")
    for variant, data in GOLDEN.items()
    for game in data["games"]
]
GAMES_WITHOUT_UNDO = [
    param
    for param in GAMES
    if "undo" not in param.values[1]["tokens"]  # type: ignore[index]
]


def test_the_engine_offers_exactly_the_four_variants_of_the_rules() -> None:
    assert sorted(VARIANTS) == sorted(RULES_VARIANTS)


def test_new_game_defaults_to_the_sultan_variant() -> None:
    assert new_game(seed=12345).as_dict() == new_game(seed=12345, variant="sultan").as_dict()
    assert new_game(seed=12345).as_dict()["variant"] == "sultan"


def test_the_seed_0_sultan_reserve_matches_the_hand_computation() -> None:
    expected = hand_check_seed_0_sultan()
    assert GOLDEN["sultan"]["deals"][0]["seed"] == 0
    assert GOLDEN["sultan"]["deals"][0]["reserve"] == expected
    assert new_game(seed=0, variant="sultan").as_dict()["reserve"] == expected


@pytest.mark.parametrize(("variant", "deal"), DEALS)
def test_new_game_deals_the_golden_reserve_stock_and_waste(
    variant: str, deal: dict[str, Any]
) -> None:
    state = new_game(seed=deal["seed"], variant=variant).as_dict()
    slots, is_pysolfc = VARIANT_RULES[variant]
    assert state["variant"] == variant
    assert state["seed"] == deal["seed"]
    assert state["foundations"] == LAYOUT
    assert state["reserve"] == deal["reserve"]
    assert len(state["reserve"]) == slots
    assert state["stock"][:10] == deal["stock_first10"]
    assert len(state["stock"]) == deal["stock_count"] == 95 - slots - is_pysolfc
    assert state["waste"] == ([deal["waste_first"]] if is_pysolfc else [])
    assert state["redeals_left"] == 2
    assert state["status"] == "playing"


@pytest.mark.parametrize("seed", [0, 42, 2**63 - 1])
def test_variants_with_the_same_seed_share_one_shuffle(seed: int) -> None:
    sultan = new_game(seed=seed, variant="sultan").as_dict()
    pysolfc = new_game(seed=seed, variant="pysolfc").as_dict()
    sultan8 = new_game(seed=seed, variant="sultan-8").as_dict()
    pysolfc8 = new_game(seed=seed, variant="pysolfc-8").as_dict()
    dealt = sultan["reserve"] + sultan["stock"]
    assert pysolfc["reserve"] + pysolfc["waste"] + pysolfc["stock"] == dealt
    assert sultan8["reserve"] + sultan8["stock"] == dealt
    assert pysolfc8["reserve"] + pysolfc8["waste"] + pysolfc8["stock"] == dealt


@pytest.mark.parametrize(("variant", "game"), GAMES)
def test_replaying_a_golden_game_reaches_the_golden_final_state(
    variant: str, game: dict[str, Any]
) -> None:
    assert replay(game["seed"], variant, game["tokens"]).as_dict() == game["final"]


@pytest.mark.parametrize(("variant", "game"), GAMES)
def test_replaying_a_golden_game_passes_every_checkpoint(
    variant: str, game: dict[str, Any]
) -> None:
    assert game["checkpoints"]
    for point in game["checkpoints"]:
        state = replay(game["seed"], variant, game["tokens"][: point["after"]])
        assert state.as_dict() == point["state"], f"after {point['after']} tokens"


@pytest.mark.parametrize(("variant", "game"), GAMES_WITHOUT_UNDO)
def test_stepping_apply_through_a_golden_game_offers_each_move_and_matches(
    variant: str, game: dict[str, Any]
) -> None:
    checkpoints = {point["after"]: point["state"] for point in game["checkpoints"]}
    state = new_game(seed=game["seed"], variant=variant)
    for played, token in enumerate(game["tokens"], start=1):
        assert token in legal_moves(state), f"move {played}: {token}"
        state = apply(state, token)
        if played in checkpoints:
            assert state.as_dict() == checkpoints[played], f"after {played} tokens"
    assert state.as_dict() == game["final"]
    assert legal_moves(state) == []


@pytest.mark.parametrize("variant", RULES_VARIANTS)
def test_the_golden_files_are_what_make_golden_produces(variant: str) -> None:
    assert path_for(variant).read_text() == render(build_golden(variant))

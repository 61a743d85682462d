"""The solver against an exhaustive search, the engine, and its own promises."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.engine import LOST, WON, GameState, apply, legal_moves, new_game, replay
from games.engine.solver.solve import Solution, hint, solve
from tests.solver.brute import brute_force
from tests.solver.positions import from_json

GOLDEN = json.loads((Path(__file__).parent / "data" / "late_positions.json").read_text())

# Whole deals the solver wins within a small budget; each line is checked here
# by the engine's own replay, not by the solver.
WON_DEALS = [("sultan", 2), ("sultan", 18), ("sultan-8", 0), ("pysolfc", 17), ("pysolfc-8", 15)]
WON_DEAL_BUDGET = 60_000


def _ends_won(state: GameState, moves: tuple[str, ...]) -> bool:
    for move in moves:
        state = apply(state, move)
    return state.status == WON


def _label(position: dict[str, Any]) -> str:
    verdict = "winnable" if position["winnable"] else "lost"
    return f"{position['variant']}-{position['seed']}-{position['cards_out']}out-{verdict}"


@pytest.mark.parametrize("position", GOLDEN, ids=[_label(p) for p in GOLDEN])
def test_solver_agrees_with_exhaustive_search_on_late_positions(position: dict[str, Any]) -> None:
    state = from_json(position)
    solution = solve(state, max_nodes=None)
    assert solution.status == ("won" if position["winnable"] else "lost")
    if solution.status == "won":
        assert _ends_won(state, solution.moves)
    else:
        assert solution.moves == ()


def test_golden_data_covers_both_verdicts_in_every_variant() -> None:
    for variant in ("sultan", "sultan-8", "pysolfc", "pysolfc-8"):
        verdicts = {p["winnable"] for p in GOLDEN if p["variant"] == variant}
        assert verdicts == {True, False}, variant


def test_the_smallest_golden_positions_still_check_out_by_brute_force() -> None:
    # The golden verdicts came from `brute_force`; redo the quickest ones here
    # so that a change to the engine or to the positions shows up.
    smallest = sorted(GOLDEN, key=lambda p: p["cards_out"])[:12]
    for position in smallest:
        assert brute_force(from_json(position)) == position["winnable"], _label(position)


@pytest.mark.parametrize(("variant", "seed"), WON_DEALS)
def test_winning_lines_for_whole_deals_replay_to_a_win(variant: str, seed: int) -> None:
    solution = solve(new_game(seed, variant), max_nodes=WON_DEAL_BUDGET)
    assert solution.status == "won"
    assert replay(seed, variant, list(solution.moves)).status == WON
    assert 0 < solution.nodes <= WON_DEAL_BUDGET


def test_a_position_with_no_winning_line_is_proved_lost_not_unknown() -> None:
    lost = next(p for p in GOLDEN if not p["winnable"] and p["variant"] == "sultan")
    solution = solve(from_json(lost), max_nodes=None)
    assert solution == Solution("lost", (), solution.nodes)
    assert solution.nodes > 0


def test_a_tiny_budget_gives_unknown_and_no_line() -> None:
    solution = solve(new_game(4, "sultan"), max_nodes=10)
    assert solution.status == "unknown"
    assert solution.moves == ()
    assert solution.nodes == 11  # the node that went over the budget is counted


def test_a_time_budget_of_nothing_gives_unknown() -> None:
    # The clock is read every 1024 nodes; this deal needs far more than that.
    solution = solve(new_game(4, "sultan"), max_nodes=None, max_seconds=0.0)
    assert solution.status == "unknown"
    assert solution.nodes == 1024


@pytest.mark.parametrize(
    ("variant", "seed", "budget"), [("sultan", 0, 3000), ("sultan-8", 2, 60_000)]
)
def test_the_same_node_budget_gives_the_same_answer(variant: str, seed: int, budget: int) -> None:
    first = solve(new_game(seed, variant), max_nodes=budget)
    again = solve(new_game(seed, variant), max_nodes=budget)
    assert first == again


def test_a_bigger_budget_never_turns_an_answer_into_unknown() -> None:
    small = solve(new_game(18, "sultan"), max_nodes=WON_DEAL_BUDGET)
    big = solve(new_game(18, "sultan"), max_nodes=10 * WON_DEAL_BUDGET)
    assert small.status == big.status == "won"


def test_hint_is_the_first_move_of_the_winning_line() -> None:
    state = new_game(0, "sultan-8")
    solution = solve(state, max_nodes=WON_DEAL_BUDGET)
    assert hint(state, max_nodes=WON_DEAL_BUDGET) == solution.moves[0]


def test_following_hints_wins_the_game() -> None:
    position = next(p for p in GOLDEN if p["winnable"] and p["variant"] == "sultan")
    state = from_json(position)
    while state.status != WON:
        move = hint(state, max_nodes=None)
        assert move is not None, state
        state = apply(state, move)


def test_hint_is_none_when_the_game_cannot_be_won() -> None:
    lost = next(p for p in GOLDEN if not p["winnable"] and p["variant"] == "pysolfc")
    assert hint(from_json(lost), max_nodes=None) is None


def test_hint_is_none_when_the_budget_runs_out() -> None:
    assert hint(new_game(4, "sultan"), max_nodes=10) is None


def test_finished_games_are_answered_without_searching() -> None:
    state = new_game(18, "sultan")
    line = solve(state, max_nodes=WON_DEAL_BUDGET).moves
    won = replay(18, "sultan", list(line))
    assert solve(won) == Solution("won", (), 0)
    lost = from_json(next(p for p in GOLDEN if not p["winnable"]))
    while lost.status != LOST:
        lost = apply(lost, legal_moves(lost)[0])
    assert solve(lost) == Solution("lost", (), 0)

"""The last-pass relaxation of prove.py never refutes a last pass that can be won.

A false refutation would be a false proof of loss. The solver's winning
lines are checked facts (the engine replays them), so the last pass each of
them starts must not be called hopeless, for any group of suits.
"""

from __future__ import annotations

import pytest

from games.engine import apply, new_game
from games.engine.solver.compiled import Exhausted, count_last_redeals, exhaust
from games.engine.solver.greedy import play_greedy
from games.engine.solver.model import Position
from games.engine.solver.prove import last_pass_hopeless, prove_lost
from games.engine.solver.search import Search
from games.engine.solver.solve import solve


@pytest.mark.parametrize("variant", ["pysolfc", "pysolfc-8"])
@pytest.mark.parametrize("seed", [1, 3, 5, 8])
def test_a_won_lines_last_pass_is_never_called_hopeless(variant: str, seed: int) -> None:
    state = new_game(seed, variant)
    solution = solve(state, max_nodes=300_000)
    if solution.status != "won":
        pytest.skip("no win found within the budget: nothing to check")
    for move in solution.moves:
        state = apply(state, move)
        if move == "redeal" and state.redeals_left == 0:
            last = Position(state)
            assert not last_pass_hopeless(last.cards, last.reserve, last.foundations, last.slots)
            return
    pytest.skip("the line wins before a last pass")


def test_a_proof_of_loss_is_only_tried_in_pysolfc_variants() -> None:
    with pytest.raises(ValueError, match="pysolfc"):
        prove_lost(new_game(1, "sultan"))


def test_the_core_counts_every_last_pass_start_of_the_deal_proved_lost() -> None:
    # pysolfc 387, proved lost by bench/prove_lost.py (docs/solvability.md):
    # its proof refutes 28 starts, met in 1,376 positions by the reference
    # (2,628 before a position reached in two passes was one key: CANONICAL KEYS).
    count = count_last_redeals(Position(new_game(387, "pysolfc")), None)
    assert (count.complete, count.starts, count.positions) == (True, 28, 1376)


def test_the_core_counts_every_last_pass_start_of_the_pysolfc_8_deal_proved_lost() -> None:
    # pysolfc-8 3271, proved lost the same way (docs/solvability.md): its
    # proof refutes 108 starts (met in 6,410 positions before CANONICAL KEYS).
    count = count_last_redeals(Position(new_game(3271, "pysolfc-8")), None)
    assert (count.complete, count.starts, count.positions) == (True, 108, 3931)


def _last_pass(seed: int, variant: str) -> Position:
    state = new_game(seed, variant)
    for move in play_greedy(state)[1]:
        state = apply(state, move)
        if move == "redeal" and state.redeals_left == 0:
            return Position(state)
    raise AssertionError("the greedy game never reached its last pass")


def test_an_exact_search_finds_the_win_the_reference_finds_in_as_many_positions() -> None:
    last = _last_pass(1, "pysolfc-8")  # the greedy player lost a pass that could be won
    reference = Search(last, 100_000, None)
    assert reference.round(-1, -1, 0, -1, 0.0) == "won"
    assert exhaust(last, 100_000) == Exhausted("won", reference.nodes)
    assert exhaust(last, 1_000).outcome == "out"

"""The rounds' schedule: wide caps for a search past a million positions."""

from __future__ import annotations

import pytest

from games.engine import new_game
from games.engine.solver import compiled
from games.engine.solver.rounds import LATE_FROM
from games.engine.solver.solve import solve

needs_core = pytest.mark.skipif(
    compiled.core is None and not __import__("os").environ.get("CI"),
    reason="the compiled core is not built (CI insists on it)",
)


@needs_core
def test_a_sultan_deal_the_narrow_rounds_never_won_is_won_soon_after_a_million() -> None:
    # `sultan` 4 was unknown after ten million positions of narrow rounds
    # (docs/solvability.md); with wide caps from a million on it falls at 1,269,615.
    solution = solve(new_game(4, "sultan"), max_nodes=1_300_000)
    assert solution.status == "won"
    assert LATE_FROM < solution.nodes <= 1_300_000


@needs_core
def test_a_pysolfc_deal_the_narrow_shaken_rounds_never_won_is_won_by_the_wide_ones() -> None:
    # Unknown at five million positions before; shaken wide rounds from a million on.
    solution = solve(new_game(7, "pysolfc"), max_nodes=1_300_000)
    assert solution.status == "won"
    assert LATE_FROM < solution.nodes <= 1_300_000


def test_both_engines_take_the_same_late_rounds() -> None:
    # The schedule is Python's for both searches: the same answer, line and count
    # (on `sultan`: the reference's `pysolfc` search past a million takes ten seconds).
    state = new_game(83, "sultan")
    reference = solve(state, max_nodes=1_200_000, engine="python")
    assert reference.status == "won"
    assert reference.nodes > LATE_FROM
    if compiled.core is not None:
        assert solve(state, max_nodes=1_200_000, engine="c") == reference

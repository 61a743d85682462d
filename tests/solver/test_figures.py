"""The published figures (docs/solvability.md) are what the solver answers today.

A change to the search changes what it visits, and so the node counts of the
CSVs behind the figures: this fails then, as a reminder to measure again.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from games.engine import VARIANTS, new_game
from games.engine.solver.solve import solve

FIGURES = Path(__file__).resolve().parents[2] / "docs" / "solvability"
BUDGET = 100_000  # the budget of the 1,000-deal table


def _rows(variant: str) -> list[dict[str, str]]:
    with (FIGURES / f"{variant}-1-1000-100k.csv").open() as file:
        return list(csv.DictReader(file))


def _sample(variant: str) -> list[dict[str, str]]:
    """A few wins that took the search a while (cheap enough to run), and one unknown."""
    rows = _rows(variant)
    wins = [r for r in rows if r["status"] == "won" and 10_000 <= int(r["nodes"]) <= 30_000]
    unknown = next(r for r in rows if r["status"] == "unknown")
    return [*wins[:3], unknown]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_solver_still_gives_the_published_answers(variant: str) -> None:
    for row in _sample(variant):
        solution = solve(new_game(int(row["deal"]), variant), max_nodes=BUDGET)
        assert (solution.status, solution.nodes, len(solution.moves)) == (
            row["status"],
            int(row["nodes"]),
            int(row["moves"]),
        ), f"{variant} deal {row['deal']}: docs/solvability/ needs measuring again"

"""Winnable deals: a fresh secret seed whose deal the solver has won."""

from __future__ import annotations

import secrets
import time
from typing import Final

from games.engine.rules import new_game
from games.engine.solver.solve import solve
from games.engine.variants import SEED_LIMIT

WINNABLE_SEARCH_S: Final = 12.0  # the longest a race's creator waits for a winnable deal
WINNABLE_PER_DEAL_S: Final = 0.6
# Nodes as well as time: the solver's tables grow with the nodes searched.
WINNABLE_PER_DEAL_NODES: Final = 150_000


def winnable_seed(
    *,
    variant: str,
    budget_s: float = WINNABLE_SEARCH_S,
    per_deal_s: float = WINNABLE_PER_DEAL_S,
    below: int = SEED_LIMIT,
) -> int | None:
    """A fresh seed (a secret one, from the whole range; practice's from its numbers
    `1 … below - 1`) whose deal the solver proved winnable, or None within the budget."""
    deadline = time.monotonic() + budget_s
    while (left := deadline - time.monotonic()) > 0:
        whole = below == SEED_LIMIT
        seed = secrets.randbelow(SEED_LIMIT) if whole else 1 + secrets.randbelow(below - 1)
        deal = new_game(seed, variant)
        if solve(deal, WINNABLE_PER_DEAL_NODES, min(per_deal_s, left)).status == "won":
            return seed
    return None

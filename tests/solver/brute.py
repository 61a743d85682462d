"""An exhaustive solver with no cleverness: the independent check on the real one.

It knows nothing of the solver's encoding, symmetries, safe moves or
relaxations: it tries every legal move the engine lists, in every position,
and remembers the engine states it has seen. That is hopeless on a fresh deal
but exact and quick on positions with a dozen cards left, which is what the
golden data is made of.
"""

from __future__ import annotations

import sys

from games.engine import LOST, WON, GameState, apply, legal_moves


def brute_force(state: GameState, limit: int = 2_000_000) -> bool:
    """True when some line of legal moves wins from `state`."""
    seen: dict[GameState, bool] = {}

    def win(s: GameState) -> bool:
        if s.status == WON:
            return True
        if s.status == LOST:
            return False
        known = seen.get(s)
        if known is not None:
            return known
        if len(seen) >= limit:
            raise RuntimeError("position too big for brute force")
        seen[s] = False  # a position cannot lead back to itself: moves only go forward
        result = any(win(apply(s, move)) for move in legal_moves(s))
        seen[s] = result
        return result

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 10_000))
    try:
        return win(state)
    finally:
        sys.setrecursionlimit(old)

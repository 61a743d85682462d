"""The solver at work for players: winnable deals, and where a lost game was
lost (practice hints are in `games/hints.py`).

Each use has a time budget: the solver may answer `unknown`, and every answer
here says so rather than guessing. Hints exist for practice games only; a
race's deal is never solved for anyone while the race runs.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from games.engine import SEED_LIMIT, UNDO, GameState, apply, new_game
from games.engine.solver import solve
from games.models import Game, GameStatus, Move

WINNABLE_SEARCH_S: Final = 12.0  # the longest a race's creator waits for a winnable deal
WINNABLE_PER_DEAL_S: Final = 0.6
ANALYSIS_S: Final = 6.0  # all the solves of one game's analysis together
ANALYSIS_PROBE_S: Final = 1.0
# Node budgets as well as time: the solver's tables grow with the nodes it
# searched (a few hundred MB near two million), and a fast machine would reach
# far more of them within the same seconds. About the time above, here.
WINNABLE_PER_DEAL_NODES: Final = 150_000
ANALYSIS_PROBE_NODES: Final = 250_000


def winnable_seed(
    *, variant: str, budget_s: float = WINNABLE_SEARCH_S, per_deal_s: float = WINNABLE_PER_DEAL_S
) -> int | None:
    """A fresh secret seed whose deal the solver proved winnable, or None within the budget."""
    deadline = time.monotonic() + budget_s
    while (left := deadline - time.monotonic()) > 0:
        seed = secrets.randbelow(SEED_LIMIT)
        deal = new_game(seed, variant)
        if solve(deal, WINNABLE_PER_DEAL_NODES, min(per_deal_s, left)).status == "won":
            return seed
    return None


@dataclass(frozen=True, slots=True)
class Analysis:
    """Where a game stood: `verdict` is one of
    won — the game was won;
    never — the deal could not be won from the start (proved);
    lost_after — a win was possible up to `seq` (the log event after which the
        position was last winnable) and `line` wins from there;
    unknown — the solver ran out of time before it could tell.
    """

    verdict: str
    seq: int | None = None
    line: tuple[str, ...] = ()


_cache: OrderedDict[tuple[int, int], Analysis] = OrderedDict()
_cache_lock = threading.Lock()
_CACHE_SIZE: Final = 512


def game_analysis(*, game: Game) -> Analysis:
    """For a finished game, the last position from which a win was still possible.

    Along the moves that stood (take-backs removed) winnability only ever goes
    from yes to no, so a binary search over them needs few solves.
    """
    key = (game.pk, game.last_seq)
    with _cache_lock:
        if key in _cache:
            return _cache[key]
    analysis = _analyse(game)
    if analysis.verdict != "unknown":
        with _cache_lock:
            _cache[key] = analysis
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    return analysis


def _analyse(game: Game) -> Analysis:
    if game.status == GameStatus.WON:
        return Analysis("won")
    states, seqs = _standing_line(game)
    deadline = time.monotonic() + ANALYSIS_S

    def winning(k: int) -> tuple[str, tuple[str, ...]]:
        left = deadline - time.monotonic()
        if left <= 0:
            return "unknown", ()
        solution = solve(
            states[k], max_nodes=ANALYSIS_PROBE_NODES, max_seconds=min(ANALYSIS_PROBE_S, left)
        )
        return solution.status, solution.moves

    status, line = winning(0)
    if status == "lost":
        return Analysis("never")
    if status == "unknown":
        return Analysis("unknown")
    low, high, best = 0, len(states) - 1, line  # states[low] wins; is a later one still winnable?
    while low < high:
        middle = (low + high + 1) // 2
        status, line = winning(middle)
        if status == "won":
            low, best = middle, line
        elif status == "lost":
            high = middle - 1
        else:
            break  # out of time: `low` is the latest position proved winnable
    return Analysis("lost_after", seqs[low], best)


def _standing_line(game: Game) -> tuple[list[GameState], list[int]]:
    """The states along the moves that stood, and the log seq each was reached at."""
    state = new_game(game.seed, game.variant)
    states, seqs = [state], [0]
    for seq, token in Move.objects.filter(game=game).order_by("seq").values_list("seq", "token"):
        if token == UNDO:
            states.pop()
            seqs.pop()
            seqs[-1] = seq  # the position below was reached again here
        elif token not in ("resign", "timeout"):
            state = apply(states[-1], token)
            states.append(state)
            seqs.append(seq)
    return states, seqs

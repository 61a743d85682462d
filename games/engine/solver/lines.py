"""The solver's work on one game's line, as a solver process runs it
(games/quotas/solver.py): the house bot's line from a position, and where a lost
game was lost.

Solver processes never set Django up (games/quotas/process.py), so every function
they run lives in the engine.

May import: the rest of games.engine and the standard library. Never Django.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Final

from games.engine.positions import replay
from games.engine.solver.solve import solve
from games.engine.state import GameState

ANALYSIS_S: Final = 6.0  # all the solves of one game's analysis together
ANALYSIS_PROBE_S: Final = 1.0
# Node budgets as well as time: the solver's tables grow with the nodes it
# searched (a few hundred MB near two million), and a fast machine would reach
# far more of them within the same seconds. About the time above, here.
ANALYSIS_PROBE_NODES: Final = 250_000


@dataclass(frozen=True, slots=True)
class Analysis:
    """Where a game stood: `verdict` is one of
    won — the game was won;
    never — the deal could not be won from the start (proved);
    lost_after — a win was proved possible after log event `seq`, and `line`
        wins from there; `lost_seq`, when known, is the earliest log event
        after which the position was proved lost (the one right after `seq`
        when `exact`);
    unknown — the solver found no winnable position in its time; `lost_seq`
        may still say from when on none was left.
    """

    verdict: str
    seq: int | None = None
    line: tuple[str, ...] = ()
    lost_seq: int | None = None
    exact: bool = False


def line_from(
    *, variant: str, seed: int, moves: list[str], max_nodes: int, max_seconds: float
) -> list[str]:
    """In a solver process: a winning line from the position after `moves`, else the
    line to the furthest position the search met (greedy plays on from there)."""
    solution = solve(replay(seed, variant, moves), max_nodes=max_nodes, max_seconds=max_seconds)
    return list(solution.moves if solution.status == "won" else solution.furthest)


def line_analysis(
    *,
    states: list[GameState],
    seqs: list[int],
    budget_s: float = ANALYSIS_S,
    probe_s: float = ANALYSIS_PROBE_S,
) -> Analysis:
    """The latest of `states` (a game's positions, in order) from which a win was possible.

    Along the moves that stood (take-backs removed) winnability only ever goes
    from yes to no: a position the game went through on its way to a winnable
    one is winnable too (play on to it, then win). So a position proved won
    and a later one proved lost bracket the turn, and halving the bracket
    needs few solves. Where the probes go follows what is cheap to decide:
    late positions have few cards and redeals left and take milliseconds,
    while the deal itself may take the solver far longer than a probe may (in
    `sultan`, over a second for most deals). So the first probes walk back
    from the end in doubling steps while they prove losses; then the deal is
    tried, and each probe after that halves the widest stretch of the bracket
    that no probe has failed to decide.
    """
    deadline = time.monotonic() + budget_s
    known: dict[int, tuple[str, tuple[str, ...]]] = {}
    won: int | None = None  # the latest position proved winnable
    lost: int | None = None  # the earliest position proved lost
    undecided: list[int] = []  # probes that ran out of time

    def probe(k: int) -> str:
        nonlocal won, lost
        left = deadline - time.monotonic()
        solution = solve(
            states[k],
            max_nodes=ANALYSIS_PROBE_NODES,
            max_seconds=min(probe_s, max(left, 0.0)),
        )
        known[k] = (solution.status, solution.moves)
        if solution.status == "won":
            won = k
        elif solution.status == "lost":
            lost = k
        else:
            undecided.append(k)
        return solution.status

    k, step = len(states) - 1, 1
    while probe(k) == "lost" and k > 0 and time.monotonic() < deadline:
        k, step = max(k - step, 0), step * 2
    while time.monotonic() < deadline:
        k_next = bracket_next_probe(won=won, lost=lost, undecided=undecided, count=len(states))
        if k_next is None:
            break
        probe(k_next)
    lost_seq = None if lost is None else seqs[lost]
    if won is None:
        return Analysis("never") if lost == 0 else Analysis("unknown", lost_seq=lost_seq)
    return Analysis("lost_after", seqs[won], known[won][1], lost_seq, exact=lost == won + 1)


def bracket_next_probe(
    *, won: int | None, lost: int | None, undecided: list[int], count: int
) -> int | None:
    """The middle of the widest stretch of the bracket (won, lost) between probes that
    ran out of time (the latest such stretch on a tie: nearer the end, cheaper), once
    the deal itself has been tried; None when nothing is left to narrow."""
    low = -1 if won is None else won
    high = count if lost is None else lost
    inside = sorted(u for u in undecided if low < u < high)
    if won is None and 0 not in inside:
        return 0  # the deal: often quick with eight slots, and the bracket's floor
    points = [low, *inside, high]
    width, start = max((b - a, a) for a, b in itertools.pairwise(points))
    return start + width // 2 if width > 1 else None

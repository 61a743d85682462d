"""A stage-wise search for wins, against the solver, at the same CPU time a deal.

    .venv/bin/python bench/stagewise.py [--variant sultan] [--deals 101-120]
                                        [--max-seconds 1] [--first-nodes 200000]
                                        [--second-starts 100] [--second-nodes 3000]
                                        [--last-nodes 300]

The issue's idea after Bjarnason, Tadepalli and Fern's stage-wise search for
Klondike: instead of one way through the first passes at a time (the
solver's depth-first rounds), look at many at once. The beam gathers the
distinct second-pass starts that `--first-nodes` of the first pass reach
(the core's counting mode, `compiled.pass_starts`), keeps the
`--second-starts` with the fewest cards left, gathers the last passes each of
those reaches within `--second-nodes`, and searches the last passes, fewest
cards left first, `--last-nodes` each, until the time is up. It can only win;
every win is replayed by the engine. The solver runs on the same deals with
the same CPU seconds in the same process: the last line is the ratio.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from dataclasses import dataclass

from games.engine import WON, new_game, replay
from games.engine.solver.batch import parse_deals
from games.engine.solver.compiled import LAST_REDEAL, CompiledSearch, PassStart, pass_starts
from games.engine.solver.model import Position, cards_left
from games.engine.solver.solve import solve, to_notation

FIRST_REDEAL = 1


@dataclass(frozen=True, slots=True)
class Beam:
    first_nodes: int
    second_starts: int
    second_nodes: int
    last_nodes: int


@dataclass(frozen=True, slots=True)
class Outcome:
    steps: tuple[int, ...] | None  # the winning line, as the search's steps
    nodes: int
    second_met: int  # distinct second passes the first stage reached
    last_met: int  # distinct last passes the second stage reached


def _fewest_left(start: PassStart) -> tuple[int, int]:
    return cards_left(start.position.foundations), -len(start.position.reserve)


def stagewise(start: Position, beam: Beam, max_seconds: float) -> Outcome:
    """Look for a win from a first-pass position, stage by stage, within the CPU time."""
    deadline = time.thread_time() + max_seconds

    def left() -> float:
        return max(deadline - time.thread_time(), 0.0)

    first = pass_starts(start, FIRST_REDEAL, beam.first_nodes, left())
    nodes = first.nodes
    if first.won is not None:
        return Outcome(first.won, nodes, 0, 0)
    lasts: dict[tuple[object, ...], PassStart] = {}
    for second in sorted(first.starts, key=_fewest_left)[: beam.second_starts]:
        if left() <= 0:
            break
        found = pass_starts(second.position, LAST_REDEAL, beam.second_nodes, left())
        nodes += found.nodes
        if found.won is not None:
            return Outcome(second.steps + found.won, nodes, len(first.starts), len(lasts))
        for last in found.starts:
            lasts.setdefault(
                last.position.key(), PassStart(last.position, second.steps + last.steps)
            )
    for last in sorted(lasts.values(), key=_fewest_left):
        if left() <= 0:
            break
        search = CompiledSearch(last.position, beam.last_nodes, left(), 8 << 20, cpu_clock=True)
        try:
            won = search._search.round(-1, -1, 0, -1, 0.0) == "won"
            nodes += search._search.nodes
            if won:
                steps = last.steps + tuple(search._search.line())
                return Outcome(steps, nodes, len(first.starts), len(lasts))
        finally:
            search._search.release()
    return Outcome(None, nodes, len(first.starts), len(lasts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="sultan")
    parser.add_argument("--deals", default="101-120")
    parser.add_argument("--max-seconds", type=float, default=1.0)
    parser.add_argument("--first-nodes", type=int, default=200_000)
    parser.add_argument("--second-starts", type=int, default=100)
    parser.add_argument("--second-nodes", type=int, default=3_000)
    parser.add_argument("--last-nodes", type=int, default=300)
    args = parser.parse_args()
    beam = Beam(args.first_nodes, args.second_starts, args.second_nodes, args.last_nodes)
    seeds = parse_deals(args.deals)
    print(
        f"python {platform.python_version()} on {platform.machine()}, {args.variant} deals "
        f"{args.deals}, {args.max_seconds} CPU s a deal, {beam}, load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'deal':>6} {'beam':>6} {'nodes':>10} {'2nd met':>8} {'last met':>9} {'solver':>8}")
    won_beam = won_solver = 0
    for seed in seeds:
        state = new_game(seed, args.variant)
        found = stagewise(Position(state), beam, args.max_seconds)
        if found.steps is not None:
            moves = list(to_notation(state, list(found.steps)))
            assert replay(seed, args.variant, moves).status == WON, "the beam's line does not win"
            won_beam += 1
        solver = solve(state, max_nodes=None, max_seconds=args.max_seconds, cpu_clock=True)
        won_solver += solver.status == "won"
        print(
            f"{seed:>6} {'won' if found.steps else '-':>6} {found.nodes:>10,} "
            f"{found.second_met:>8,} {found.last_met:>9,} {solver.status:>8}",
            flush=True,
        )
    print(
        f"won within {args.max_seconds} s: beam {won_beam}, solver {won_solver} of {len(seeds)} "
        f"(beam/solver {won_beam / max(won_solver, 1):.2f})"
    )


if __name__ == "__main__":
    main()

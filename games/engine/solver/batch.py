"""Solving many deals, on several cores: what the `solve` command and the benchmark share.

Each deal is solved in a worker process from its seed alone, so a run's
answers do not depend on how deals are spread over the workers; with a node
budget and no time budget they do not depend on the machine either.
"""

import multiprocessing
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from games.engine.rules import new_game
from games.engine.solver.compiled import Engine
from games.engine.solver.greedy import play_greedy
from games.engine.solver.solve import solve


@dataclass(frozen=True, slots=True)
class DealResult:
    seed: int
    variant: str
    status: str  # the solver's: won, lost or unknown
    nodes: int
    seconds: float  # the solver's time on this deal, in its worker
    cpu_seconds: float  # the same in CPU time
    moves: int  # the winning line's length; 0 unless won
    greedy: str  # the greedy player's end: won or lost
    greedy_played: int  # cards the greedy player got onto the foundations


@dataclass(frozen=True, slots=True)
class _Job:
    seed: int
    variant: str
    max_nodes: int | None
    max_seconds: float | None
    engine: Engine | None = None
    cpu_clock: bool = False


def parse_deals(text: str) -> list[int]:
    """`"1-1000"`, `"7"` or `"1-5,9,20-22"` as a list of seeds, in order."""
    seeds: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"not a deal range: {part!r} (try 1-1000, 7 or 1-5,9)")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ValueError(f"deal range runs backwards: {part!r}")
        seeds.extend(range(low, high + 1))
    return seeds


def solve_deal(job: _Job) -> DealResult:
    state = new_game(job.seed, job.variant)
    started, cpu_started = time.perf_counter(), time.thread_time()
    solution = solve(
        state,
        max_nodes=job.max_nodes,
        max_seconds=job.max_seconds,
        engine=job.engine,
        cpu_clock=job.cpu_clock,
    )
    seconds = time.perf_counter() - started
    cpu_seconds = time.thread_time() - cpu_started
    end, _ = play_greedy(state)
    return DealResult(
        seed=job.seed,
        variant=job.variant,
        status=solution.status,
        nodes=solution.nodes,
        seconds=seconds,
        cpu_seconds=cpu_seconds,
        moves=len(solution.moves),
        greedy=end.status,
        greedy_played=end.cards_played,
    )


def solve_deals(
    variant: str,
    seeds: Iterable[int],
    max_nodes: int | None,
    max_seconds: float | None,
    workers: int = 1,
    engine: Engine | None = None,
    cpu_clock: bool = False,
) -> Iterator[DealResult]:
    """Results in the order of `seeds`, each as soon as it and those before it are done.

    `cpu_clock`: `max_seconds` is CPU time (a shared machine's fair budget).
    """
    jobs = [_Job(seed, variant, max_nodes, max_seconds, engine, cpu_clock) for seed in seeds]
    if workers <= 1:
        yield from map(solve_deal, jobs)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(solve_deal, jobs, chunksize=1)


def percentile(sorted_values: list[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with `share` of them at or below it."""
    if not sorted_values:
        return 0.0
    rank = max(1, -(-len(sorted_values) * share // 1))
    return sorted_values[int(rank) - 1]

"""The compiled search (`_core.c`) behind the face of search.py's `Search`.

search.py stays the reference: the compiled core searches the same positions
in the same order, so for a node budget both answer alike, with the same line
and node count (tests/solver/test_core.py). The core is built with the
package (setup.py); where it is missing, `solve` falls back to the reference.

`SULTAN_SOLVER=python` in the environment forces the reference everywhere,
`SULTAN_SOLVER=c` insists on the core; `SULTAN_SOLVER_MEMORY_MB` caps the
core's tables (positions and passes) per solve.
"""

import os
from dataclasses import dataclass
from functools import partial
from types import ModuleType
from typing import Final, Literal

from games.engine.solver.model import Position, redeal_order
from games.engine.solver.rounds import run_rounds

core: ModuleType | None
try:
    from games.engine.solver import _core as core
except ImportError:  # not built: a checkout without `pip install -e .`
    core = None

Engine = Literal["c", "python"]
ENGINE_ENV: Final = "SULTAN_SOLVER"
MEMORY_ENV: Final = "SULTAN_SOLVER_MEMORY_MB"
# A second of search fills about 100 MB; a minute, a few GB without the cap.
DEFAULT_MEMORY_MB: Final = 512
_NO_CAP: Final = 1 << 62
# The redeal that starts the last pass (RULES.md: two redeals at most).
LAST_REDEAL: Final = 2
# The start's fields the core takes, under the same names as `Position`'s.
_START_FIELDS: Final = (
    "cards",
    "drawn",
    "waste",
    "reserve",
    "foundations",
    "redeals_left",
    "slots",
    "auto_refill",
    "shuffled_redeal",
)


class CoreMissing(RuntimeError):
    """The compiled core was asked for and is not built."""


def engine_for(asked: Engine | None) -> Engine:
    """The engine to search with: the one asked for, else the environment's, else C if built."""
    wanted = asked or os.environ.get(ENGINE_ENV) or None
    if wanted not in (None, "c", "python"):
        raise ValueError(f"{ENGINE_ENV} must be 'c' or 'python', not {wanted!r}")
    if wanted == "c" and core is None:
        raise CoreMissing("the solver's compiled core is not built: run `pip install -e .`")
    if wanted == "python" or core is None:
        return "python"
    return "c"


def memory_bytes() -> int:
    return int(os.environ.get(MEMORY_ENV) or DEFAULT_MEMORY_MB) << 20


class CompiledSearch:
    """One solve on the compiled core: `run()`, then `nodes` and `line` as `Search` has them."""

    def __init__(
        self,
        start: Position,
        max_nodes: int | None,
        max_seconds: float | None,
        memory: int | None = None,
        count_at: int = 0,
        cpu_clock: bool = False,
        keep_starts: int = 0,
    ) -> None:
        if core is None:
            raise CoreMissing("the solver's compiled core is not built: run `pip install -e .`")
        self.start = start
        self.shuffled_redeal = start.shuffled_redeal
        self.nodes = 0
        self.line: list[int] = []
        self.furthest: list[int] = []  # as `Search.furthest`
        self.stats: dict[str, int | bool] = {}
        self._search = core.Search(
            **{name: getattr(start, name) for name in _START_FIELDS},
            redeal_order=partial(redeal_order, start.seed),
            max_nodes=_NO_CAP if max_nodes is None else max_nodes,
            max_seconds=max_seconds,
            memory_bytes=memory_bytes() if memory is None else memory,
            count_at=count_at,
            cpu_clock=cpu_clock,
            keep_starts=keep_starts,
        )

    def run(self) -> bool | None:
        """True: won (the line is in `self.line`); False: lost; None: out of budget."""
        search = self._search
        try:
            won = run_rounds(search, shaken=not self.shuffled_redeal)
            if won:
                self.line = search.line()
            return won
        finally:
            self.nodes = search.nodes
            self.furthest = search.furthest()
            self.stats = search.stats()
            search.release()


@dataclass(frozen=True, slots=True)
class LastRedealCount:
    """How large a proof of loss is: the positions at the last redeal, counted."""

    complete: bool  # every way through the passes before the last was searched
    positions: int  # positions searched in those passes
    starts: int  # distinct positions at the last redeal (a lower bound unless complete)
    won_early: bool  # a win turned up before the last redeal: nothing to prove


def count_last_redeals(
    start: Position, max_nodes: int | None, memory: int | None = None
) -> LastRedealCount:
    """Search every way through the passes before the last, counting where the last one starts.

    Each distinct start (the last pass's cards, the reserve, the foundations)
    is counted once and not searched: a proof of loss from the deal must
    refute every one of them.
    """
    search = CompiledSearch(start, max_nodes, None, memory, count_at=LAST_REDEAL)
    try:
        outcome = search._search.round(-1, -1, 0, -1, 0.0)
        stats = search._search.stats()
        return LastRedealCount(
            complete=outcome == "lost",
            positions=search._search.nodes,
            starts=int(stats["last_starts"]),
            won_early=outcome == "won",
        )
    finally:
        search._search.release()


@dataclass(frozen=True, slots=True)
class PassStart:
    """A pass's start reached from a searched position, and the search's steps to it."""

    position: Position
    steps: tuple[int, ...]  # as the search's line: draws, plays, the redeal last


@dataclass(frozen=True, slots=True)
class PassStarts:
    starts: list[PassStart]  # distinct, in the order the search met them
    nodes: int
    won: tuple[int, ...] | None  # a line that won before the redeal: no start to give


def pass_starts(
    start: Position,
    redeal: int,
    max_nodes: int | None,
    max_seconds: float | None = None,
    keep: int = 1 << 20,
    memory: int | None = None,
) -> PassStarts:
    """The distinct starts of the pass after redeal `redeal` (1 or 2) that the budget reaches.

    The search runs as `count_last_redeals` does, with every start after that
    redeal counted once and not searched, and keeps the first `keep` of them
    with the line to each. `max_seconds` is CPU time.
    """
    search = CompiledSearch(
        start, max_nodes, max_seconds, memory, count_at=redeal, cpu_clock=True, keep_starts=keep
    )
    core_search = search._search
    try:
        if core_search.round(-1, -1, 0, -1, 0.0) == "won":
            return PassStarts([], core_search.nodes, tuple(core_search.line()))
        found = [
            PassStart(start.pass_start(cards, reserve, foundations, redeals_left), tuple(steps))
            for cards, reserve, foundations, redeals_left, steps in core_search.starts()
        ]
        return PassStarts(found, core_search.nodes, None)
    finally:
        core_search.release()


@dataclass(frozen=True, slots=True)
class Exhausted:
    """An exact search's answer: every line tried, no cap, no shortcut but the safe moves."""

    outcome: str  # "won", "lost", or "out" (the node budget ran out first)
    nodes: int


def exhaust(
    start: Position,
    max_nodes: int | None,
    memory: int | None = None,
    max_seconds: float | None = None,
    cpu_clock: bool = False,
) -> Exhausted:
    """Search `start` exactly on the core: "lost" is a proof, as far as the safe moves are sound.

    "out" when the nodes or the seconds ran out first.
    """
    search = CompiledSearch(start, max_nodes, max_seconds, memory, cpu_clock=cpu_clock)
    try:
        outcome = search._search.round(-1, -1, 0, -1, 0.0)
        return Exhausted(outcome, search._search.nodes)
    finally:
        search._search.release()

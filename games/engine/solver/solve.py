"""Can this deal still be won? A full-knowledge solver for every variant.

`solve(state)` searches with the stock's order and, in `sultan` variants, the
redeal shuffles known (they follow from the seed), and answers `won` with a
winning line, `lost` when it has proved that no line wins, or `unknown` when
its node or time budget ran out first. With `max_seconds=None` the answer
depends only on the position and `max_nodes`.

A line is only ever returned after the engine itself has replayed it to a win.
"""

from dataclasses import dataclass
from typing import Final, Literal

from games.engine.cards import CARD_PLACES
from games.engine.notation import SLOT_LETTERS
from games.engine.positions import replay
from games.engine.rules import apply, new_game
from games.engine.solver.compiled import CompiledSearch, Engine, engine_for
from games.engine.solver.model import CARD_NAMES, Position
from games.engine.solver.search import DRAW, REDEAL, WASTE_DOWN, WASTE_UP, Search
from games.engine.state import LOST, WON, GameState

Status = Literal["won", "lost", "unknown"]
UNKNOWN: Final = "unknown"
DEFAULT_MAX_NODES: Final = 2_000_000


@dataclass(frozen=True, slots=True)
class Solution:
    status: Status
    moves: tuple[str, ...]  # the winning line as notation; empty unless `won`
    nodes: int  # positions searched
    # Unless decided: the line to the position with the most cards up that the
    # search met (empty when that is the start itself). Not a promise of
    # anything, only the furthest the search got.
    furthest: tuple[str, ...] = ()


class SolverError(AssertionError):
    """The search claimed a win the engine does not confirm: a solver bug."""


def solve(
    state: GameState,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    max_seconds: float | None = None,
    engine: Engine | None = None,
    cpu_clock: bool = False,
) -> Solution:
    """Decide `state` within the budget (`None` for no limit of that kind).

    `engine` picks the search: "c" the compiled core, "python" the reference
    (search.py); by default the core when it is built (compiled.py). Both
    give the same answer, line and node count for a node budget.
    `cpu_clock` counts `max_seconds` in this thread's CPU time, not wall
    time: what the benchmarks measure on a shared machine.
    """
    if state.status == WON:
        return Solution("won", (), 0)
    if state.status == LOST:
        return Solution("lost", (), 0)
    start = Position(state)
    search: Search | CompiledSearch
    if engine_for(engine) == "c":
        search = CompiledSearch(start, max_nodes, max_seconds, cpu_clock=cpu_clock)
    else:
        search = Search(start, max_nodes, max_seconds, cpu_clock=cpu_clock)
    outcome = search.run()
    if outcome is None:
        return Solution(UNKNOWN, (), search.nodes, to_notation(state, search.furthest))
    if not outcome:
        return Solution("lost", (), search.nodes)
    moves = to_notation(state, search.line)
    _check_win(state, moves)
    return Solution("won", moves, search.nodes)


def hint(
    state: GameState,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    max_seconds: float | None = None,
    engine: Engine | None = None,
) -> str | None:
    """The first move of a winning line, or None when none is found (lost or unknown)."""
    solution = solve(state, max_nodes=max_nodes, max_seconds=max_seconds, engine=engine)
    return solution.moves[0] if solution.moves else None


def to_notation(state: GameState, steps: list[int]) -> tuple[str, ...]:
    """Name the search's steps as moves, choosing slots and foundations on the real state.

    The search merged positions that differ only in which slot holds a card
    or which foundation of a suit is which, so any slot holding the card and
    any foundation that takes it continue the line equally well.
    """
    tokens: list[str] = []
    for step in steps:
        if step == DRAW:
            token = "draw"
        elif step == REDEAL:
            token = "redeal"
        elif step == WASTE_UP:
            token = f"w{_foundation_for(state, state.waste[-1])}"
        elif step == WASTE_DOWN:
            token = f"w{SLOT_LETTERS[state.reserve.index(None)]}"
        else:
            name = CARD_NAMES[step]
            letter = SLOT_LETTERS[state.reserve.index(name)]
            token = f"{letter}{_foundation_for(state, name)}"
        state = apply(state, token)
        tokens.append(token)
    return tuple(tokens)


def _foundation_for(state: GameState, card: str) -> int:
    for f, need in CARD_PLACES[card]:
        if state.played[f] == need:
            return f + 1
    raise SolverError(f"no foundation takes {card} in the solver's line")


def _check_win(state: GameState, moves: tuple[str, ...]) -> None:
    if state == new_game(state.seed, state.variant):
        final = replay(state.seed, state.variant, list(moves))
    else:
        final = state
        for token in moves:
            final = apply(final, token)
    if final.status != WON:
        raise SolverError(f"the solver's line ends {final.status}, not won")

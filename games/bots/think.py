"""How the house bot chooses its moves: greedily from what it sees, or the solver's line.

Greedy reads only the view a race socket gives every racer (its `legal`
moves), in the order of games/engine/solver/greedy.py: a reserve card up,
the waste's card up, draw, redeal, the waste into a slot. The solver's
strengths read more: the house bot is the house, and the server that seats
it hands its thread the deal, so it plans its whole line at the start — in a
solver process, under the solver's slots, never on a web process's loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from django.utils.translation import gettext_lazy as _

from games.engine.solver import DEFAULT_MAX_NODES
from games.engine.solver.greedy import move_preference
from games.engine.solver.lines import line_from
from games.quotas.solver import SolverBusy, solver_run

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise


@dataclass(frozen=True, slots=True)
class Strength:
    code: str
    label: _StrPromise
    max_nodes: int | None  # None: greedy, no search
    max_seconds: float


STRENGTHS: Final = {
    s.code: s
    for s in (
        Strength("greedy", _("Greedy"), None, 0.0),
        Strength("quick", _("Solver, small budget"), 20_000, 0.5),
        Strength("full", _("Solver, full budget"), DEFAULT_MAX_NODES, 10.0),
    )
}
# Gaps between the house bot's moves, in milliseconds (never under the bots' minimum).
PACES: Final = {"calm": (_("Calm"), 1500), "brisk": (_("Brisk"), 700), "fast": (_("Fast"), 0)}


def greedy_pick(legal: Sequence[str]) -> str | None:
    """The greedy player's choice among the view's legal moves; None when there is none."""
    return min(legal, key=move_preference) if legal else None


def plan(*, strength: str, variant: str, seed: int, moves: list[str]) -> list[str]:
    """The line the bot means to play; empty for greedy, or when every solver is busy."""
    chosen = STRENGTHS[strength]
    if chosen.max_nodes is None:
        return []
    try:
        return solver_run(
            "bot",
            line_from,
            variant=variant,
            seed=seed,
            moves=moves,
            max_nodes=chosen.max_nodes,
            max_seconds=chosen.max_seconds,
        )
    except SolverBusy:
        return []

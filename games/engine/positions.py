"""A log's position: the engine state plus what `undo` needs to take moves back.

The engine's `replay` rebuilds a whole log; the store advances one event at a
time (and caches the result), so it keeps the take-back history itself, as
an immutable linked stack that successive positions share.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from games.engine import UNDO, GameState, IllegalMove, apply_with_events, new_game

RESIGN: Final = "resign"
RESIGNED: Final = "resigned"
# Written by the server alone, when a race's time runs out on an open game.
TIMEOUT: Final = "timeout"
LOG_EVENTS: Final = frozenset({UNDO, RESIGN, TIMEOUT})

Event = dict[str, Any]


@dataclass(frozen=True, slots=True)
class _Taken:
    """One state a later `undo` can go back to, and the rest of the stack."""

    state: GameState
    below: _Taken | None


@dataclass(frozen=True, slots=True)
class Position:
    state: GameState
    history: _Taken | None = None

    @classmethod
    def start(cls, seed: int, variant: str) -> Position:
        return cls(new_game(seed, variant))

    @property
    def status(self) -> str:
        return self.state.status

    @property
    def moves(self) -> int:
        """The moves on the board: those made and not taken back (what Moves counts)."""
        count, taken = 0, self.history
        while taken is not None:
            count, taken = count + 1, taken.below
        return count


def advance(position: Position, token: str, *, take_backs: bool) -> tuple[Position, list[Event]]:
    """The position after one log event, and the events a renderer needs.

    Raises the engine's InvalidMove / IllegalMove. `take_backs` is False in a
    race: there `undo` is illegal.
    """
    state = position.state
    if token in (RESIGN, TIMEOUT):
        if state.is_over:
            raise IllegalMove(f"{token}: the game is over ({state.status})")
        status = RESIGNED if token == RESIGN else TIMEOUT
        return Position(state._replace(status=status), position.history), [
            {"type": "status", "status": status}
        ]
    if token == UNDO:
        if not take_backs:
            raise IllegalMove("undo: races have no take-backs")
        if state.is_over:
            raise IllegalMove(f"undo: the game is over ({state.status})")
        if position.history is None:
            raise IllegalMove("undo: there is no move to take back")
        taken = position.history
        return Position(taken.state, taken.below), [{"type": "undo"}]
    after, events = apply_with_events(state, token)
    return Position(after, _Taken(state, position.history)), events


def replay_log(
    seed: int, variant: str, tokens: list[str], *, take_backs: bool, start: Position | None = None
) -> Position:
    """Replay `tokens` from `start` (or the deal); raises on the first bad event."""
    position = start if start is not None else Position.start(seed, variant)
    for token in tokens:
        position, _ = advance(position, token, take_backs=take_backs)
    return position

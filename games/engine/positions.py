"""A log's position: the engine state plus what `undo` needs to take moves back.

The engine's `replay` rebuilds a whole log; the store advances one event at a
time (and caches the result), so it keeps the take-back history itself, as
an immutable linked stack that successive positions share.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

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


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Walked(Generic[T]):
    """A log walked to its end: where it stands, how many events, and the stamp
    (a time, for the store) of the event after which cards_played last changed."""

    position: Position
    events: int
    count_reached: T | None


def walk_log(
    seed: int, variant: str, log: Iterable[tuple[str, T]], *, take_backs: bool
) -> Walked[T]:
    """Replay (token, stamp) pairs from the deal, noting when the count last changed:
    the ranking's tie-break (games.races.selectors) and the store's projection of it."""
    position = Position.start(seed, variant)
    played, reached, events = 0, None, 0
    for token, stamp in log:
        position, _ = advance(position, token, take_backs=take_backs)
        events += 1
        if position.state.cards_played != played:
            played, reached = position.state.cards_played, stamp
    return Walked(position, events, reached)

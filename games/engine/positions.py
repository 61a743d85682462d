"""A log's position: the engine state plus the states `undo` can go back to.

One way to step a log, as python-chess's `push`/`pop`: `push` plays a move and
remembers the state before it, `pop` takes the latest one back. The history is
an immutable linked stack that successive positions share, so the store can
cache every position of a game cheaply. `replay` (the engine's public fold
over a log) and the store's `advance` (which adds the log events a server
writes: resignations and timeouts, and which refuses take-backs in a race or
after the end) are both built on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final, Generic, NamedTuple, TypeVar

from games.engine.errors import IllegalMove
from games.engine.notation import UNDO
from games.engine.rules import apply_with_events, new_game, step_token
from games.engine.state import GameState

RESIGN: Final = "resign"
RESIGNED: Final = "resigned"
# Written by the server alone, when a race's time runs out on an open game.
TIMEOUT: Final = "timeout"
LOG_EVENTS: Final = frozenset({UNDO, RESIGN, TIMEOUT})

Event = dict[str, Any]


class _Taken(NamedTuple):
    """One state a later `undo` can go back to, and the rest of the stack.

    NamedTuples, not frozen dataclasses: a frozen dataclass is built through
    `object.__setattr__` per field, and two of them per move halved replay.
    """

    state: GameState
    below: _Taken | None


class Position(NamedTuple):
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

    def push(self, token: str) -> Position:
        """The position after a move (raises InvalidMove / IllegalMove)."""
        return Position(step_token(self.state, token), _Taken(self.state, self.history))

    def push_with_events(self, token: str) -> tuple[Position, list[Event]]:
        after, events = apply_with_events(self.state, token)
        return Position(after, _Taken(self.state, self.history)), events

    def line(self) -> list[GameState]:
        """The states from the deal to this one along the moves not taken back."""
        states, taken = [self.state], self.history
        while taken is not None:
            states.append(taken.state)
            taken = taken.below
        states.reverse()
        return states

    def pop(self) -> Position:
        """The position before the latest move not yet taken back."""
        if self.history is None:
            raise IllegalMove("undo: there is no move to take back", "nothing_to_undo")
        return Position(self.history.state, self.history.below)


def replay(seed: int, variant: str, tokens: list[str]) -> GameState:
    """The state a log leads to. `undo` takes back the latest move not yet taken back.

    The fold keeps only states, on a list: nobody keeps its intermediate
    positions, so building one per move (as `push` does) would be waste.
    """
    state = new_game(seed, variant)
    history: list[GameState] = []
    for token in tokens:
        if token == UNDO:
            if not history:
                raise IllegalMove("undo: there is no move to take back", "nothing_to_undo")
            state = history.pop()
        else:
            history.append(state)
            state = step_token(state, token)
    return state


def advance(position: Position, token: str, *, take_backs: bool) -> tuple[Position, list[Event]]:
    """The position after one log event, and the events a renderer needs.

    Raises the engine's InvalidMove / IllegalMove. `take_backs` is False in a
    race: there `undo` is illegal. A game that is over takes no further event.
    """
    state = position.state
    if token in (RESIGN, TIMEOUT):
        if state.is_over:
            raise IllegalMove(
                f"{token}: the game is over ({state.status})", "over", status=state.status
            )
        status = RESIGNED if token == RESIGN else TIMEOUT
        return Position(state._replace(status=status), position.history), [
            {"type": "status", "status": status}
        ]
    if token == UNDO:
        if not take_backs:
            raise IllegalMove("undo: races have no take-backs", "no_take_backs")
        if state.is_over:
            raise IllegalMove(
                f"undo: the game is over ({state.status})", "over", status=state.status
            )
        return position.pop(), [{"type": "undo"}]
    return position.push_with_events(token)


def moves_on_table(tokens: Iterable[str]) -> int:
    """What Moves counts, from a log's tokens alone (docs/rules.md): the moves made
    and not taken back. A resignation or a timeout ends a game but is no move on the
    table, so a racer who resigns at once has made 0 moves. Equals `Position.moves`
    at the end of any log the store accepted; games.store.tally is its SQL twin."""
    count = 0
    for token in tokens:
        if token == UNDO:
            count -= 1
        elif token not in LOG_EVENTS:
            count += 1
    return count


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Walked(Generic[T]):
    """A log walked to its end: where it stands, how many events, and the stamp
    (a time, for the store) of the event after which cards_played last changed."""

    position: Position
    events: int
    count_reached: T | None

    @property
    def moves(self) -> int:
        return self.position.moves


def walk_steps(
    start: Position, log: Iterable[tuple[str, T]], *, take_backs: bool
) -> Iterator[tuple[Position, list[Event], T]]:
    """Each (token, stamp) of a log played on from `start`: the position after it, its
    events and its stamp. The one loop over a stored log: `walk_log`, the replay
    viewer's steps and a racer's race frames are all built on it."""
    position = start
    for token, stamp in log:
        position, events = advance(position, token, take_backs=take_backs)
        yield position, events, stamp


def walk_log(
    seed: int, variant: str, log: Iterable[tuple[str, T]], *, take_backs: bool
) -> Walked[T]:
    """Replay (token, stamp) pairs from the deal, noting when the count last changed:
    the ranking's tie-break (games.races.selectors) and the store's projection of it."""
    position = start = Position.start(seed, variant)
    played, reached, events = 0, None, 0
    for position, _, stamp in walk_steps(start, log, take_backs=take_backs):
        events += 1
        if position.state.cards_played != played:
            played, reached = position.state.cards_played, stamp
    return Walked(position, events, reached)

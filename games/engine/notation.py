"""Move notation: one token per move, parsed exactly (RULES.md, "Moves").

Every token that is notation is known in advance (91 of them), so parsing is
a dictionary lookup and `str(move)` returns the token it came from.
"""

from dataclasses import dataclass
from typing import Final, Literal

from games.engine.errors import InvalidMove

SLOT_LETTERS: Final = "abcdefgh"
MoveKind = Literal["draw", "redeal", "to_foundation", "to_reserve"]


@dataclass(frozen=True, slots=True)
class Move:
    kind: MoveKind
    token: str
    slot: int = -1  # the reserve slot involved (source or target), -1 for none or waste
    foundation: int = -1  # 0-based foundation index for `to_foundation`

    def __str__(self) -> str:
        return self.token


def _all_moves() -> dict[str, Move]:
    moves = [Move("draw", "draw"), Move("redeal", "redeal")]
    for n in range(9):
        moves.append(Move("to_foundation", f"w{n + 1}", foundation=n))
        for s, letter in enumerate(SLOT_LETTERS):
            moves.append(Move("to_foundation", f"{letter}{n + 1}", slot=s, foundation=n))
    for s, letter in enumerate(SLOT_LETTERS):
        moves.append(Move("to_reserve", f"w{letter}", slot=s))
    return {move.token: move for move in moves}


MOVES: Final = _all_moves()
UNDO: Final = "undo"


def parse_move(token: str) -> Move:
    """The move a token names; `InvalidMove` if it is not notation."""
    move = MOVES.get(token) if isinstance(token, str) else None
    if move is None:
        if token == UNDO:
            raise InvalidMove("undo is a log event, not a move: replay the log to take a move back")
        raise InvalidMove(f"{token!r} is not a move (try draw, redeal, w3, c7 or wb)")
    return move

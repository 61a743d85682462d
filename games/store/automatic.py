"""What the server appends on a player's behalf: automatic moves, Finish, and the
undos that take an automatic run back with the move that set it off.

The rule for which moves are safe lives in the engine (games.engine.safe); this
module decides, from a game's log, how many events the server adds. Every one
is an ordinary log event with `automatic` set, so a replay needs nothing new.
"""

from __future__ import annotations

from typing import Final

from games.engine import UNDO, GameState, finish_line
from games.engine.positions import RESIGN, TIMEOUT
from games.models import Move

# The player's button: not a log event, it becomes the moves that finish the game.
FINISH: Final = "finish"
AUTO_ID_PREFIX: Final = "server-auto-"


def automatic_move_id(seq: int) -> str:
    """The client move id of an event the server appends (unique per game, as seq is)."""
    return f"{AUTO_ID_PREFIX}{seq}"


def finish_moves(state: GameState) -> list[str] | None:
    return None if state.is_over else finish_line(state)


def undos_for(game_id: int) -> int:
    """How many undos a player's one undo becomes: the move not yet taken back that the
    player made, with the automatic moves that followed it."""
    live: list[bool] = []  # automatic?, for each move not yet taken back
    rows = Move.objects.filter(game_id=game_id).order_by("seq").values_list("token", "automatic")
    for token, automatic in rows:
        if token == UNDO:
            if live:
                live.pop()
        elif token not in (RESIGN, TIMEOUT):
            live.append(automatic)
    on_top = 0
    while on_top < len(live) and live[-1 - on_top]:
        on_top += 1
    return on_top + 1 if on_top < len(live) else max(on_top, 1)

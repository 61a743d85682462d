"""A plain greedy player: the yardstick the solver's figures are compared with.

It looks at nothing hidden and never looks ahead. Each turn it makes the first
legal move of this list:

1. a reserve card to a foundation (slot a first, then the lowest-numbered
   foundation that takes it);
2. the waste's top card to a foundation;
3. draw;
4. redeal;
5. `pysolfc` variants only, when nothing above is legal: the waste's top card
   into the first empty reserve slot.

It plays until the game is over, so it ends won or lost.
"""

from games.engine.rules import apply, legal_moves
from games.engine.state import PLAYING, GameState


def greedy_move(state: GameState) -> str | None:
    """The greedy player's choice, or None when the game is over."""
    moves = legal_moves(state)
    # min() keeps the first of equal ranks, and legal_moves lists slots and
    # foundations in order, so ties go to slot a and the lowest foundation.
    return min(moves, key=move_preference) if moves else None


def play_greedy(state: GameState) -> tuple[GameState, list[str]]:
    """Play greedily to the end; the final state and the moves made."""
    moves: list[str] = []
    while state.status == PLAYING:
        move = greedy_move(state)
        if move is None:
            break
        state = apply(state, move)
        moves.append(move)
    return state, moves


def move_preference(move: str) -> int:
    if move == "draw":
        return 2
    if move == "redeal":
        return 3
    if move[0] != "w":
        return 0  # a reserve card to a foundation
    return 1 if move[1].isdigit() else 4  # waste up, else waste into a slot

"""The Sultan rules engine: pure Python, no Django (RULES.md is its contract).

cards.py, state.py and variants.py describe a deal, rules.py plays moves on
it, notation.py reads and writes them, positions.py steps a log (push / pop,
replay), errors.py holds the two refusals; solver/ searches for wins.

May import: the standard library only (no other room; tests/engine enforces it).
"""

from games.engine.errors import IllegalMove, InvalidMove
from games.engine.notation import MOVES, SLOT_LETTERS, UNDO, Move, parse_move
from games.engine.positions import replay
from games.engine.rules import apply, apply_with_events, legal_moves, new_game
from games.engine.state import LOST, PLAYING, WON, GameState, player_view, race_view
from games.engine.variants import DEFAULT_VARIANT, SEED_LIMIT, VARIANTS

__all__ = [
    "DEFAULT_VARIANT",
    "LOST",
    "MOVES",
    "PLAYING",
    "SEED_LIMIT",
    "SLOT_LETTERS",
    "UNDO",
    "VARIANTS",
    "WON",
    "GameState",
    "IllegalMove",
    "InvalidMove",
    "Move",
    "apply",
    "apply_with_events",
    "legal_moves",
    "new_game",
    "parse_move",
    "player_view",
    "race_view",
    "replay",
]

"""The Sultan rules engine: pure Python, no Django (RULES.md is its contract)."""

from games.engine.errors import IllegalMove, InvalidMove
from games.engine.notation import MOVES, SLOT_LETTERS, UNDO, Move, parse_move
from games.engine.rules import apply, apply_with_events, legal_moves, new_game, replay
from games.engine.safe import finish_line, home_foundation, safe_move, safe_run
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
    "finish_line",
    "home_foundation",
    "legal_moves",
    "new_game",
    "parse_move",
    "player_view",
    "race_view",
    "replay",
    "safe_move",
    "safe_run",
]

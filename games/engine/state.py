"""The immutable game state and the three views of it (RULES.md, "Views")."""

from typing import Any, NamedTuple

from games.engine.cards import foundation_top
from games.engine.variants import REDEALS

PLAYING = "playing"
WON = "won"
LOST = "lost"


class GameState(NamedTuple):
    """One position. A tuple: hashable, comparable, and cheap to build.

    `played[i]` counts the cards played onto foundation i (its base not
    included); the top card follows from it. `stock[0]` is drawn next.
    """

    variant: str
    seed: int
    played: tuple[int, ...]
    reserve: tuple[str | None, ...]
    waste: tuple[str, ...]
    stock: tuple[str, ...]
    redeals_left: int
    status: str

    @property
    def cards_played(self) -> int:
        return sum(self.played)

    @property
    def passes_used(self) -> int:
        return 1 + REDEALS - self.redeals_left

    @property
    def is_over(self) -> bool:
        return self.status != PLAYING

    def foundation_tops(self) -> list[str]:
        return [foundation_top(i, n) for i, n in enumerate(self.played)]

    def as_dict(self) -> dict[str, Any]:
        """The full state, stock order included: never for a browser mid-game."""
        return {
            "variant": self.variant,
            "seed": self.seed,
            "foundations": self.foundation_tops(),
            "reserve": list(self.reserve),
            "waste": list(self.waste),
            "stock": list(self.stock),
            "redeals_left": self.redeals_left,
            "status": self.status,
        }


def player_view(state: GameState) -> dict[str, Any]:
    """What the player may see: no stock order, and no seed (it implies the order)."""
    return {
        "variant": state.variant,
        "foundations": state.foundation_tops(),
        "reserve": list(state.reserve),
        "waste": list(state.waste),
        "stock_count": len(state.stock),
        "redeals_left": state.redeals_left,
        "status": state.status,
        "cards_played": state.cards_played,
    }


def race_view(state: GameState) -> dict[str, Any]:
    """What opponents and spectators may see: heights only, not one card."""
    return {
        "foundations": [1 + n for n in state.played],  # the base card counts
        "cards_played": state.cards_played,
        "passes_used": state.passes_used,
        "status": state.status,
    }

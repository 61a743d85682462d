"""Moves that cannot hurt, where a card sent home goes, and when a game plays itself out.

The server plays safe moves for a player who asked for it (automatic moves),
and the solver makes them without trying the others; both read the rule here.
Nothing in this module looks at a card the player has not seen: the stock's
order is never read, so neither an automatic move nor the Finish offer can
tell a player what is coming.

SENDING HOME. A card sent home (double-click) goes to the lowest-numbered
foundation that takes it. Two foundations take the same card only when they
stand at the same rank, so the choice changes nothing but where the card lies;
a player who cares drags it to the other one.

SAFE MOVES. A move is safe when every line from the position can be matched,
move for move, by a line that starts with it. Write A for the position after
the move and B for the position without it; each case shows that A can copy any
line of B (skipping B's moves that A has made already) and reach a win
whenever B does.

Which copy. Let X go up on a foundation of its suit whose top is one rank
below it. If the *lower* foundation of the suit takes X, then either the
other foundation already holds X's rank, so X is the last copy left and no
other card could ever use that place, or both foundations stand one below
X, so they are alike and whichever copy B plays first, A plays it on the
other one. Either way A's foundations are B's plus X, and the one card B
may later put there, X itself, is one A has already put up.

Where it was. X leaves the waste or a slot, and nothing else changes unless
the rules react to that:
- `pysolfc` waste: the waste keeps its order through every redeal (turned
  over, never shuffled), so A's waste and stock are B's with X left out; B's
  moves of X (drawing it, putting it in a slot) are skipped and its other
  moves find the same cards on top. A has at least as many empty slots.
- `pysolfc` slot: A has an empty slot where B has X; an empty slot takes
  any waste card, and B's X only ever goes up.
- `sultan` waste, no redeal left: no shuffle will read the waste again and
  refills come from the stock, which A and B share; as for `pysolfc`.
- `sultan` slot, no redeal left and the stock empty: no refill follows
  either way, and B's slot can only ever send X up.
Not safe: a `sultan` waste card with a redeal left (the waste's length sets
the next shuffle), or a `sultan` slot card while the stock has cards (the
refill takes its top card, and B may keep X to pull in a later card).

The twin below. In the last pass of `sultan`, if the waste's top card X
goes up on either foundation and its other copy lies further down the same
waste, then nothing can go on the foundation B keeps at X's rank minus one
before X itself leaves the waste (the copy below comes out only after), and
X then goes on whichever of the two foundations is at that rank: A's line
plays the same cards on foundations that are B's up to which is which.

FINISH. A game can be finished when, from where it stands, playing the safe
move (or, with none, the one legal move there is) wins without a draw or a
redeal: every card left is then in sight, and no choice remains to be made.
"""

from __future__ import annotations

from games.engine.cards import CARD_PLACES, LAYOUT, RANKS
from games.engine.notation import SLOT_LETTERS
from games.engine.rules import apply, legal_moves
from games.engine.state import PLAYING, WON, GameState
from games.engine.variants import VARIANT_RULES

# With the stock empty a finish is at most 95 plays (and `wx` moves).
_MAX_FINISH = 200


def waste_may_be_safe(auto_refill: bool, redeals_left: int) -> bool:
    """Whether the waste's top card going up can be safe at all (see "Where it was")."""
    return not auto_refill or not redeals_left


def reserve_may_be_safe(auto_refill: bool, redeals_left: int, stock_left: bool) -> bool:
    """Whether a slot's card going up can be safe at all (see "Where it was")."""
    return not auto_refill or (not redeals_left and not stock_left)


def twin_below_counts(auto_refill: bool, redeals_left: int) -> bool:
    """Whether "the twin below" applies: the last pass of a `sultan` variant."""
    return auto_refill and not redeals_left


def _top_rank(foundation: int, played: int) -> int:
    return played + 1 if LAYOUT[foundation] == "AH" else played


def home_foundation(card: str, played: tuple[int, ...]) -> int | None:
    """The foundation (0-8) a card sent home goes to: the lowest-numbered that takes it."""
    for f, need in CARD_PLACES[card]:
        if played[f] == need:
            return f
    return None


def _lower_takes(card: str, played: tuple[int, ...]) -> int | None:
    """The foundation taking `card` when it is the lower one of its suit, else None."""
    taker = home_foundation(card, played)
    if taker is None:
        return None
    rank = RANKS.index(card[0]) + 1
    lowest = min(_top_rank(f, played[f]) for f, _ in CARD_PLACES[card])
    return taker if lowest == rank - 1 else None


def safe_move(state: GameState) -> str | None:
    """A safe move from this position (the waste's first, then slot a's onwards), or None."""
    if state.status != PLAYING:
        return None
    rules = VARIANT_RULES[state.variant]
    refill, redeals_left, played = rules.auto_refill, state.redeals_left, state.played
    if state.waste and waste_may_be_safe(refill, redeals_left):
        top = state.waste[-1]
        f = _lower_takes(top, played)
        if f is None and twin_below_counts(refill, redeals_left) and top in state.waste[:-1]:
            f = home_foundation(top, played)
        if f is not None:
            return f"w{f + 1}"
    if reserve_may_be_safe(refill, redeals_left, bool(state.stock)):
        for slot, card in enumerate(state.reserve):
            f = None if card is None else _lower_takes(card, played)
            if f is not None:
                return f"{SLOT_LETTERS[slot]}{f + 1}"
    return None


def safe_run(state: GameState) -> list[str]:
    """The safe moves to play one after another from `state` (none once the game is over)."""
    moves: list[str] = []
    while (move := safe_move(state)) is not None:
        state = apply(state, move)
        moves.append(move)
    return moves


def finish_line(state: GameState) -> list[str] | None:
    """The moves that finish the game (see FINISH), or None when it cannot be finished."""
    if state.stock:
        return None  # winning needs a draw, and what it brings is not in sight yet
    line: list[str] = []
    while state.status == PLAYING and len(line) < _MAX_FINISH:
        move = safe_move(state)
        if move is None:
            moves = legal_moves(state)
            if len(moves) != 1 or moves[0] in ("draw", "redeal"):
                return None
            move = moves[0]
        state = apply(state, move)
        line.append(move)
    return line if state.status == WON else None

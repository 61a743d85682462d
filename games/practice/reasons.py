"""Why a hint's move: what it leads to, in the player's words.

"Draw a card" alone reads as a shrug. The solver's line says what the move is
for: the card it puts up and the run it starts, the waste card it uncovers,
or, for a draw, which card already on the table the line puts up after it and
in which pass. Only cards the player sees are named (reserve and waste now):
a reason must not tell the order of the stock (RULES.md, hidden information).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import SLOT_LETTERS, GameState, apply, parse_move
from games.i18n.lines import card_short


def _card_moved(state: GameState, token: str) -> str | None:
    move = parse_move(token)
    if move.kind == "draw" or move.kind == "redeal":
        return None
    from_waste = move.slot < 0 or move.kind == "to_reserve"
    return state.waste[-1] if from_waste else state.reserve[move.slot]


def _run_after(state: GameState, shown: Sequence[str]) -> int:
    """How many cards go up right after the first move, within the shown part."""
    count = 0
    for token in shown[1:]:
        if parse_move(token).kind != "to_foundation":
            break
        count += 1
    return count


def _later_visible(state: GameState, line: Sequence[str]) -> tuple[str, int] | None:
    """The first card on view now that the line puts up, and the passes until then."""
    visible = {card for card in (*state.reserve, *state.waste) if card}
    passes = 0
    for token in line:
        card = _card_moved(state, token)
        if token == "redeal":
            passes += 1
        elif card in visible and parse_move(token).kind == "to_foundation":
            return card, passes
        state = apply(state, token)
    return None


def _pass_words(card: str, passes: int) -> str:
    words = {"card": card_short(card)}
    if passes == 0:
        return _("on the way to putting the %(card)s up this pass") % words
    if passes == 1:
        return _("on the way to putting the %(card)s up next pass") % words
    return _("on the way to putting the %(card)s up in the last pass") % words


def hint_reason(state: GameState, line: Sequence[str], shown: Sequence[str]) -> str:
    """Why the line's first move, from `state`. `shown` is the part the player may watch."""
    if not line:
        return ""
    token, move = line[0], parse_move(line[0])
    card = _card_moved(state, token)
    if move.kind == "to_foundation" and card:
        words = {"card": card_short(card), "foundation": move.foundation + 1}
        text = _("puts the %(card)s on foundation %(foundation)s") % words
        run = _run_after(state, shown)
        if run:
            text += ngettext(
                ", and %(n)d more card goes up after it",
                ", and %(n)d more cards go up after it",
                run,
            ) % {"n": run}
        return text
    if move.kind == "to_reserve" and card:
        words = {"card": card_short(card), "slot": SLOT_LETTERS[move.slot]}
        if len(state.waste) > 1:
            under = card_short(state.waste[-2])
            return _("moves the %(card)s to slot %(slot)s, uncovering the %(under)s") % {
                **words,
                "under": under,
            }
        return _("moves the %(card)s to slot %(slot)s, out of the way") % words
    later = _later_visible(state, line)
    if move.kind == "redeal":
        if later is not None:
            return _pass_words(*later)
        return _("nothing on the table can go up: a new pass through the stock")
    if later is not None:
        return _pass_words(*later)
    return _("the cards the line needs next are still in the stock")

"""A line of moves in words, grouped the way a player thinks of it.

The solver's lines (an analysis's winning line, a hint's) are tokens:
`draw draw draw w6 b6 …`. People read "draw 3 cards; 7♣ from the waste and
8♣ from slot b to foundation 6; …": runs of draws are one step, and so are
cards going up one after another onto the same foundation. Each phrase says
where in the line it starts and how many moves it covers, so a page can play
the line to it. The cards named are the ones the line turns up: for a line a
player may see whole (a finished game's analysis, a hint's shown part).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from games.engine import SLOT_LETTERS, GameState, apply, parse_move

_SHORT_RANKS: Final[dict[str, Promise]] = {
    "A": pgettext_lazy("card rank, short", "A"),
    "T": pgettext_lazy("card rank, short", "10"),
    "J": pgettext_lazy("card rank, short", "J"),
    "Q": pgettext_lazy("card rank, short", "Q"),
    "K": pgettext_lazy("card rank, short", "K"),
}
_SUIT_SIGNS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_short(card: str) -> str:
    """ "7C" → "7♣", "QS" → "Q♠" («Д♠»): the card as a line names it."""
    rank = _SHORT_RANKS.get(card[:1])
    return f"{rank if rank is not None else card[:1]}{_SUIT_SIGNS.get(card[1:], card[1:])}"


@dataclass(frozen=True, slots=True)
class Phrase:
    first: int  # the line's move (1-based) it starts at
    moves: int
    text: str

    def as_dict(self) -> dict[str, object]:
        return {"first": self.first, "moves": self.moves, "text": self.text}


@dataclass(frozen=True, slots=True)
class _Step:
    kind: str  # draw, redeal, up (to a foundation), fill (waste to a slot)
    card: str = ""
    source: str = ""  # "w" or a slot's letter
    target: str = ""  # a foundation's number or a slot's letter


def _steps(state: GameState, line: Sequence[str]) -> list[_Step]:
    steps = []
    for token in line:
        move = parse_move(token)
        if move.kind in ("draw", "redeal"):
            steps.append(_Step(move.kind))
        elif move.kind == "to_reserve":
            steps.append(_Step("fill", state.waste[-1], "w", SLOT_LETTERS[move.slot]))
        else:
            source = "w" if move.slot < 0 else SLOT_LETTERS[move.slot]
            card = state.waste[-1] if move.slot < 0 else state.reserve[move.slot]
            steps.append(_Step("up", card or "", source, str(move.foundation + 1)))
        state = apply(state, token)
    return steps


def _from(step: _Step) -> str:
    if step.source == "w":
        return _("%(card)s from the waste") % {"card": card_short(step.card)}
    return _("%(card)s from slot %(slot)s") % {"card": card_short(step.card), "slot": step.source}


def _group_text(group: list[_Step]) -> str:
    head = group[0]
    if head.kind == "draw":
        return ngettext("draw %(n)d card", "draw %(n)d cards", len(group)) % {"n": len(group)}
    if head.kind == "redeal":
        return _("redeal: the waste becomes the stock again")
    if head.kind == "fill":
        return _("%(card)s from the waste to slot %(slot)s") % {
            "card": card_short(head.card),
            "slot": head.target,
        }
    cards = _(", ").join(_from(step) for step in group)
    return _("%(cards)s to foundation %(foundation)s") % {"cards": cards, "foundation": head.target}


def _same_group(group: list[_Step], step: _Step) -> bool:
    head = group[0]
    if head.kind != step.kind:
        return False
    return head.kind == "draw" or (head.kind == "up" and head.target == step.target)


def line_phrases(state: GameState, line: Sequence[str]) -> list[Phrase]:
    """The line from `state` in the reader's language, one phrase per group of moves."""
    groups: list[list[_Step]] = []
    for step in _steps(state, line):
        if groups and _same_group(groups[-1], step):
            groups[-1].append(step)
        else:
            groups.append([step])
    phrases, first = [], 1
    for group in groups:
        phrases.append(Phrase(first, len(group), _group_text(group)))
        first += len(group)
    return phrases

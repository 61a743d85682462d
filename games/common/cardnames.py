"""Cards named as a player says them: "the ace of clubs", not "AC".

The one naming function of the site: server messages use it, and the pages
hand its table to the JavaScript (`card_names`, rendered by the base
template), so the board and the server never name a card differently.
"""

from __future__ import annotations

import re
from typing import Final

from django.utils.translation import gettext, pgettext

_CODE: Final = re.compile(r"\b([A2-9TJQK][CDHS])\b")
_MOVE_PREFIX: Final = re.compile(r"^[a-z0-9]+: ")


def _ranks() -> dict[str, str]:
    return {
        "A": pgettext("card rank", "ace"),
        "2": pgettext("card rank", "two"),
        "3": pgettext("card rank", "three"),
        "4": pgettext("card rank", "four"),
        "5": pgettext("card rank", "five"),
        "6": pgettext("card rank", "six"),
        "7": pgettext("card rank", "seven"),
        "8": pgettext("card rank", "eight"),
        "9": pgettext("card rank", "nine"),
        "T": pgettext("card rank", "ten"),
        "J": pgettext("card rank", "jack"),
        "Q": pgettext("card rank", "queen"),
        "K": pgettext("card rank", "king"),
    }


def _suits() -> dict[str, str]:
    return {
        "C": pgettext("card suit", "clubs"),
        "D": pgettext("card suit", "diamonds"),
        "H": pgettext("card suit", "hearts"),
        "S": pgettext("card suit", "spades"),
    }


def card_name(code: str) -> str:
    """ "AC" -> "ace of clubs"; a code that is not a card comes back as it was."""
    ranks, suits = _ranks(), _suits()
    if len(code) != 2 or code[0] not in ranks or code[1] not in suits:
        return code
    return gettext("%(rank)s of %(suit)s") % {"rank": ranks[code[0]], "suit": suits[code[1]]}


def card_names() -> dict[str, str]:
    """Every card's name, for the pages' JavaScript."""
    return {rank + suit: card_name(rank + suit) for rank in "A23456789TJQK" for suit in "CDHS"}


def name_cards(message: str) -> str:
    """A rules message as a player reads it: no move token in front, cards named.

    "w1: foundation 1 does not take AC" -> "Foundation 1 doesn't take the ace of clubs".
    """
    text = _MOVE_PREFIX.sub("", message).replace("does not", "doesn't")
    text = _CODE.sub(lambda m: gettext("the %(card)s") % {"card": card_name(m[1])}, text)
    return text[:1].upper() + text[1:]

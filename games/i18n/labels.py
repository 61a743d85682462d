"""How pages and messages name the game's things: variants, statuses, cards.

The codes (`sultan-8`, `lost`, `QS`) stay the protocol's words; these are the
names people read, in the request's language. Cards are named as players say
them: "queen of spades", «дама пик».
"""

from __future__ import annotations

from typing import Final

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.engine import VARIANTS

VARIANT_LABELS: Final[dict[str, Promise]] = {
    "sultan": gettext_lazy("Sultan"),
    "sultan-8": gettext_lazy("Sultan, 8 slots"),
    "pysolfc": gettext_lazy("Sultan (PySolFC)"),
    "pysolfc-8": gettext_lazy("Sultan + (PySolFC)"),
}
STATUS_LABELS: Final[dict[str, Promise]] = {
    "playing": pgettext_lazy("game status", "In play"),
    "won": pgettext_lazy("game status", "Won"),
    "lost": pgettext_lazy("game status", "No moves left"),
    "resigned": pgettext_lazy("game status", "Resigned"),
    "timeout": pgettext_lazy("game status", "Time ran out"),
}
_RANKS: Final[dict[str, Promise]] = {
    "A": pgettext_lazy("card rank", "ace"),
    "2": pgettext_lazy("card rank", "two"),
    "3": pgettext_lazy("card rank", "three"),
    "4": pgettext_lazy("card rank", "four"),
    "5": pgettext_lazy("card rank", "five"),
    "6": pgettext_lazy("card rank", "six"),
    "7": pgettext_lazy("card rank", "seven"),
    "8": pgettext_lazy("card rank", "eight"),
    "9": pgettext_lazy("card rank", "nine"),
    "T": pgettext_lazy("card rank", "ten"),
    "J": pgettext_lazy("card rank", "jack"),
    "Q": pgettext_lazy("card rank", "queen"),
    "K": pgettext_lazy("card rank", "king"),
}
# The suit as it follows a rank: "of clubs", in Russian the genitive «треф».
_OF_SUITS: Final[dict[str, Promise]] = {
    "C": pgettext_lazy("card of suit", "clubs"),
    "D": pgettext_lazy("card of suit", "diamonds"),
    "H": pgettext_lazy("card of suit", "hearts"),
    "S": pgettext_lazy("card of suit", "spades"),
}


def variant_label(variant: str) -> str:
    label = VARIANT_LABELS.get(variant)
    return str(label) if label is not None else variant


def variant_choices() -> list[tuple[str, str]]:
    return [(variant, variant_label(variant)) for variant in VARIANTS]


def status_label(status: str) -> str:
    label = STATUS_LABELS.get(status)
    return str(label) if label is not None else status


def card_name(card: str) -> str:
    """ "QS" → "queen of spades" («дама пик»); anything else stays as it is."""
    rank, suit = (_RANKS.get(card[:1]), _OF_SUITS.get(card[1:])) if len(card) == 2 else (None, None)
    if rank is None or suit is None:
        return card
    return pgettext("card name", "%(rank)s of %(suit)s") % {"rank": rank, "suit": suit}

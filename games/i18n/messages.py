"""The engine's refusals in the reader's language.

The engine never imports Django: it says which rule refused a move
(`IllegalMove.reason`, `.details`) and the site words it here, naming cards
as players say them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from django.utils.translation import gettext as _

from games.engine import IllegalMove
from games.i18n.labels import card_name, status_label, variant_label


def game_over(status: str) -> str:
    return _("the game is over (%(status)s)") % {"status": status_label(status)}


def not_a_move(token: str) -> str:
    return _("“%(token)s” is not a move (try draw, redeal, w3, c7 or wb)") % {"token": token[:40]}


_REASONS: Final[dict[str, Callable[[dict[str, Any]], str]]] = {
    "over": lambda d: game_over(str(d["status"])),
    "no_take_backs": lambda d: _("races have no take-backs"),
    "nothing_to_undo": lambda d: _("there is no move to take back"),
    "stock_empty": lambda d: _("the stock is empty"),
    "stock_not_empty": lambda d: _("no redeal yet: the stock is not empty"),
    "no_redeals": lambda d: _("no redeals left"),
    "waste_empty": lambda d: _("the waste is empty"),
    "no_slot": lambda d: (
        _("%(variant)s has no slot %(slot)s")
        % {"variant": variant_label(str(d["variant"])), "slot": d["slot"]}
    ),
    "slot_empty": lambda d: _("slot %(slot)s is empty") % {"slot": d["slot"]},
    "slot_taken": lambda d: _("slot %(slot)s is not empty") % {"slot": d["slot"]},
    "stock_fills_reserve": lambda d: (
        _("in %(variant)s only the stock fills the divan")
        % {"variant": variant_label(str(d["variant"]))}
    ),
    "foundation_refuses": lambda d: (
        _("foundation %(foundation)s does not take the %(card)s")
        % {"foundation": d["foundation"], "card": card_name(str(d["card"]))}
    ),
}


def illegal_move(error: IllegalMove) -> str:
    """Why the rules refused a move, for the player; the engine's English otherwise."""
    word = _REASONS.get(error.reason)
    return word(error.details) if word is not None else str(error)

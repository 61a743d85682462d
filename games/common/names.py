"""The one name rule: every display name a person types — a guest's nickname, a
username, a tournament's name, a token's name — goes through `display_name`.

A name is shown to others beside their own: it may not hide what it is (a NUL,
which PostgreSQL refuses in text besides; a tab or a line break), turn the text
around it backwards (U+202E makes "evil\u202egnp.exe" read "evilexe.png"), or be
nothing at all to the eye (a zero-width space, a Hangul filler, combining marks
alone) while still taking a place in a list.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from django.utils.translation import gettext as _

from games.common.errors import BadInput

# Characters that change how the text around them is shown without being seen
# themselves: the bidirectional embeddings, overrides and isolates, the marks, the
# invisible separators and operators, the soft hyphen, and the fillers that draw as
# blank space (Hangul's, Mongolian's vowel separator). Joiners (U+200C, U+200D) stay:
# scripts and emoji need them, and a name of joiners alone is refused below.
INVISIBLE: Final = frozenset(
    "\u00ad\u061c\u115f\u1160\u180e\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\u3164\ufeff\uffa0"
)
# Unicode categories no name may hold: controls (NUL among them), surrogates,
# private use, unassigned.
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cs", "Co", "Cn"})
# What alone draws nothing: formats (joiners, variation selectors' kin), marks
# that only dress the letter before them, and separators.
_UNSEEN_CATEGORIES: Final = frozenset({"Cf", "Mn", "Me", "Zs", "Zl", "Zp"})


def has_hidden_characters(value: str) -> bool:
    """Does `value` hold a control, a direction override or another unseen character?"""
    return any(c in INVISIBLE or unicodedata.category(c) in _REFUSED_CATEGORIES for c in value)


def display_name(value: object, *, what: str, limit: int) -> str:
    """A name people see (`what` names it in the message: "A nickname"):
    NFC-normalised, its runs of spaces made one, 1 to `limit` characters of which
    one at least is seen; refused (`BadInput`, code `bad_name`) when it holds a
    control or a direction override."""
    if not isinstance(value, str):
        raise BadInput("bad_name", _("%(what)s is text.") % {"what": what})
    # Tabs and line breaks are controls too: refused, not folded into spaces.
    if has_hidden_characters(value):
        raise BadInput(
            "bad_name",
            _(
                "%(what)s may not contain control characters or characters that change "
                "the direction of text."
            )
            % {"what": what},
        )
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if not 0 < len(name) <= limit:
        raise BadInput(
            "bad_name",
            _("%(what)s is 1 to %(limit)d characters.") % {"what": what, "limit": limit},
        )
    if all(unicodedata.category(c) in _UNSEEN_CATEGORIES for c in name):
        raise BadInput(
            "bad_name", _("%(what)s needs at least one visible character.") % {"what": what}
        )
    return name

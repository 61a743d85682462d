"""A memorable nickname to offer a guest who has not picked one ("Swift Vizier 27").

Offered, never imposed: the field is filled with it, and the guest may type
another. In the reader's language; the words are all masculine in Russian so
that every adjective agrees with every noun.
"""

from __future__ import annotations

import secrets
from typing import Final

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

_ADJECTIVES: Final[tuple[Promise, ...]] = (
    pgettext_lazy("nickname adjective", "Swift"),
    pgettext_lazy("nickname adjective", "Patient"),
    pgettext_lazy("nickname adjective", "Lucky"),
    pgettext_lazy("nickname adjective", "Clever"),
    pgettext_lazy("nickname adjective", "Bold"),
    pgettext_lazy("nickname adjective", "Calm"),
    pgettext_lazy("nickname adjective", "Sly"),
    pgettext_lazy("nickname adjective", "Wise"),
    pgettext_lazy("nickname adjective", "Nimble"),
    pgettext_lazy("nickname adjective", "Quiet"),
)
_NOUNS: Final[tuple[Promise, ...]] = (
    pgettext_lazy("nickname noun", "Vizier"),
    pgettext_lazy("nickname noun", "Sultan"),
    pgettext_lazy("nickname noun", "Falcon"),
    pgettext_lazy("nickname noun", "Jester"),
    pgettext_lazy("nickname noun", "Caliph"),
    pgettext_lazy("nickname noun", "Tiger"),
    pgettext_lazy("nickname noun", "Camel"),
    pgettext_lazy("nickname noun", "Owl"),
    pgettext_lazy("nickname noun", "Fox"),
    pgettext_lazy("nickname noun", "Emir"),
)


def nickname_suggestion() -> str:
    """A fresh two-word name and a number: 10 × 10 × 90 of them, easy to say aloud."""
    return _("%(adjective)s %(noun)s %(n)d") % {
        "adjective": secrets.choice(_ADJECTIVES),
        "noun": secrets.choice(_NOUNS),
        "n": 10 + secrets.randbelow(90),
    }

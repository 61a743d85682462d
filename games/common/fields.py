"""Field checks shared by the JSON API and the race socket: one wording for one mistake."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from django.utils.translation import gettext as _

from games.common.errors import BadInput

# Browsers send whole numbers exactly up to 2**53.
JS_SAFE_LIMIT = 2**53


def json_object(raw: bytes | str, *, limit: int, what: str = "body") -> dict[str, Any]:
    """`raw` decoded as one JSON object of at most `limit` bytes."""
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode())
    if size > limit:
        raise BadInput(
            "too_big", _("%(what)s: at most %(limit)d bytes") % {"what": what, "limit": limit}
        )
    try:
        data = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise BadInput("bad_json", _("%(what)s: not valid JSON") % {"what": what}) from None
    if not isinstance(data, dict):
        raise BadInput("bad_json", _("%(what)s: a JSON object is expected") % {"what": what})
    return data


def text(data: dict[str, Any], field: str, limit: int) -> str:
    value = data.get(field)
    # A control character (a NUL above all: PostgreSQL refuses it) is never a token or an id.
    if (
        not isinstance(value, str)
        or not 0 < len(value) <= limit
        or any(unicodedata.category(c) == "Cc" for c in value)
    ):
        raise BadInput(
            "bad_message",
            _("'%(field)s' is a string of 1 to %(limit)d characters")
            % {"field": field, "limit": limit},
        )
    return value


def whole(data: dict[str, Any], field: str, limit: int = JS_SAFE_LIMIT) -> int:
    value = data.get(field)
    # Deal numbers reach 2**63: past 2**53 a browser sends them as digit strings.
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 20:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise BadInput(
            "bad_message",
            _("'%(field)s' is a whole number from 0 to %(last)d")
            % {"field": field, "last": limit - 1},
        )
    return value


def flag(data: dict[str, Any], field: str, default: bool) -> bool:
    value = data.get(field, default)
    if not isinstance(value, bool):
        raise BadInput("bad_message", _("'%(field)s' is true or false") % {"field": field})
    return value

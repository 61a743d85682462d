"""The tournament socket's frames (docs/protocol.md, "Tournament socket"): versioned as
the race socket's are, built here and nowhere else.

Server → client: `standings` (the whole table at version `v`: on connect and
on `sync`), `rows` (the rows that changed from version `base` to `v`, and the
order of players when it moved: applied by a client at `base`, dropped by one
past `v`, any other asks for `sync`), `pong`, `error`. Client → server: `ping`,
`sync` (a fresh `standings`). Anything else is refused with an error, and
changes nothing.
"""

from __future__ import annotations

import json
from typing import Any, Final

from django.utils.translation import gettext as _

from games.common import fields
from games.common.errors import BadInput

PROTOCOL: Final = 1
MAX_FRAME_BYTES: Final = 512
CLIENT_TYPES: Final = frozenset({"ping", "sync"})


class BadTournamentMessage(BadInput):
    """A frame that is not a tournament socket message."""


def parse_client_message(text: str | None) -> str:
    """The client message's type, or a refusal."""
    if text is None:
        raise BadTournamentMessage("bad_frame", _("send text frames holding JSON objects"))
    try:
        data = fields.json_object(text, limit=MAX_FRAME_BYTES, what=_("frame"))
    except BadInput as bad:
        raise BadTournamentMessage(bad.code, bad.message) from None
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise BadTournamentMessage(
            "unknown_type", _("unknown message type %(type)r") % {"type": str(kind)[:40]}
        )
    return str(kind)


def standings(
    *, version: int, phase: str, ends_at: str, rows: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "type": "standings",
        "protocol": PROTOCOL,
        "v": version,
        "phase": phase,
        "ends_at": ends_at,
        "rows": rows,
    }


def rows(
    *,
    version: int,
    base: int,
    phase: str,
    ends_at: str,
    rows: list[dict[str, Any]],
    order: list[int] | None,
) -> dict[str, Any]:
    message = {
        "type": "rows",
        "protocol": PROTOCOL,
        "v": version,
        "base": base,
        "phase": phase,
        "ends_at": ends_at,
        "rows": rows,
    }
    if order is not None:
        message["order"] = order
    return message


def pong() -> dict[str, Any]:
    return {"type": "pong"}


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))

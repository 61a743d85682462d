"""The site socket's messages (`/ws/site/`): parsing what clients send, shaping what they get.

docs/protocol.md ("The site socket") is the reference. The conventions are the
race socket's (games/races/protocol.py, whose frame checks, `error` and
`encode` are reused): every message carries `v`, the player's version, which
grows by one with every change told to them (an invitation, its answer, a
friend coming or going); a client drops a version it has seen and asks `sync`
on a gap, answered with a fresh `snapshot` (the whole state: pending invitations
and who is online). Answers to the client's own messages carry the current
version and change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from django.utils.translation import gettext as _

from games.common import fields
from games.common.errors import BadInput
from games.friends.models import Invitation
from games.i18n.labels import variant_label
from games.races.protocol import BadMessage, encode, error

MAX_FRAME_BYTES: Final = 1024
CLIENT_TYPES: Final = frozenset({"sync", "ping", "answer"})
MAX_ID: Final = 64

__all__ = ["BadMessage", "encode", "error"]


@dataclass(frozen=True, slots=True)
class SiteMessage:
    type: str
    version: int = 0
    id: str = ""
    invitation: int = 0
    accept: bool = False


def parse_site_message(text: str | None) -> SiteMessage:
    if text is None:
        raise BadMessage("bad_frame", _("send text frames holding JSON objects"))
    try:
        data = fields.json_object(text, limit=MAX_FRAME_BYTES, what=_("frame"))
        kind = data.get("type")
        if kind not in CLIENT_TYPES:
            raise BadMessage(
                "unknown_type", _("unknown message type %(type)r") % {"type": str(kind)[:40]}
            )
        if kind == "sync":
            return SiteMessage(kind, version=fields.whole(data, "v"))
        if kind == "answer":
            return SiteMessage(
                kind,
                id=fields.text(data, "id", MAX_ID),
                invitation=fields.whole(data, "invitation"),
                accept=fields.flag(data, "accept", False),
            )
        return SiteMessage(kind)
    except BadInput as bad:
        raise BadMessage(bad.code, bad.message) from None


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def invitation_payload(invitation: Invitation) -> dict[str, Any]:
    """An invitation as the channel layer carries it: codes only, worded by each socket."""
    race = invitation.race
    return {
        "id": invitation.pk,
        "from": invitation.inviter.nickname,
        "race": race.code,
        "variant": race.variant,
        "automatic_moves": race.automatic_moves,
        "time_limit_s": race.time_limit_s,
        "expires_at": _ms(invitation.expires_at),
    }


def invitation_shown(payload: dict[str, Any]) -> dict[str, Any]:
    """The payload with its variant named in the socket's language."""
    return {**payload, "variant_label": variant_label(payload["variant"])}


def snapshot(
    *, version: int, invitations: list[dict[str, Any]], online: list[str]
) -> dict[str, Any]:
    return {
        "type": "snapshot",
        "v": version,
        "invitations": [invitation_shown(p) for p in invitations],
        "online": online,
    }


def invitation(*, version: int, payload: dict[str, Any]) -> dict[str, Any]:
    return {"type": "invitation", "v": version, "invitation": invitation_shown(payload)}


def invitation_closed(
    *, version: int, invitation_id: int, status: str, who: str, side: str
) -> dict[str, Any]:
    """An invitation answered or expired: to its inviter (`side` "inviter": told who and
    how) and to its invitee (`side` "invitee": their tabs drop it, nothing more to say)."""
    return {
        "type": "invitation_closed",
        "v": version,
        "id": invitation_id,
        "status": status,
        "who": who,
        "side": side,
    }


def presence(*, version: int, username: str, online: bool) -> dict[str, Any]:
    return {"type": "friend", "v": version, "player": username, "online": online}


def ack(*, answer_id: str, invitation_id: int, accepted: bool, race: str) -> dict[str, Any]:
    """The answer to an `answer`: accepted, the lobby's address to go to."""
    return {
        "type": "ack",
        "id": answer_id,
        "invitation": invitation_id,
        "accepted": accepted,
        "url": f"/r/{race}/" if accepted else "",
    }


def reject(*, answer_id: str, code: str, message: str) -> dict[str, Any]:
    return {"type": "reject", "id": answer_id, "code": code, "message": message}


def pong(*, version: int) -> dict[str, Any]:
    return {"type": "pong", "v": version}


def heartbeat() -> dict[str, Any]:
    return {"type": "heartbeat"}

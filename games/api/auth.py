"""Who an API request is read as: a token's owner, else the session's player, else nobody.

A token is checked for its scope and counted against its quota (the `api`
quota, per token and per address: games/quotas) before anything is read. A
token never carries its owner's moderator powers: a program sees what its
owner sees as a player, and no more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja.security import HttpBearer

from games.accounts.selectors import player_for_request
from games.api.models import SCOPE_PLAY, SCOPE_READ, AccessToken
from games.api.selectors import token_for_secret
from games.api.services import token_note_use
from games.common.errors import Refused
from games.common.http import client_address
from games.models import MODERATE_PERMISSION, Player
from games.quotas.quotas import quota_take


class ApiRefused(Refused):
    """A refusal with the HTTP status that says it to programs."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code, message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Viewer:
    player: Player | None
    token: AccessToken | None
    moderator: bool


class TokenAuth(HttpBearer):
    """`Authorization: Bearer <token>`; without one, a `read` endpoint reads as the
    session's player (or nobody) and a `play` endpoint is refused."""

    def __init__(self, scope: str) -> None:
        super().__init__()
        self.scope = scope

    def __call__(self, request: HttpRequest) -> Viewer | None:
        header = request.headers.get("Authorization")
        if not header:
            if self.scope == SCOPE_PLAY:
                return None  # ninja answers 401
            moderator = request.user.has_perm(MODERATE_PERMISSION)
            return Viewer(player_for_request(request), None, moderator)
        scheme, _sep, secret = header.partition(" ")
        if scheme.lower() != "bearer":
            raise ApiRefused(401, "bad_token", _("send the token as Authorization: Bearer <token>"))
        return self.authenticate(request, secret.strip())

    def authenticate(self, request: HttpRequest, token: str) -> Viewer:
        found = token_for_secret(secret=token)
        if found is None:
            raise ApiRefused(401, "bad_token", _("this token is unknown or revoked"))
        if not found.allows(self.scope):
            raise ApiRefused(
                403, "scope", _("this token may only read: make one with the play scope")
            )
        quota_take(
            kind="api",
            player_id=found.player_id,
            address=client_address(request),
            token_id=found.pk,
        )
        token_note_use(token=found)
        return Viewer(found.player, found, moderator=False)


read = TokenAuth(SCOPE_READ)
play = TokenAuth(SCOPE_PLAY)

# A public read answers without a token what anyone may see, and with one what its owner
# may. django-ninja declares every operation behind `auth=` as needing the token; this
# (an operation's `openapi_extra`, whose lists ninja appends to its own) adds OpenAPI's
# empty requirement beside the token's: the token is optional. A client generated from
# the schema must not think it needs a token to read a profile (docs/api.md, "Reads").
PUBLIC: Final[dict[str, Any]] = {"security": [{}]}


def viewer_of(request: HttpRequest) -> Viewer:
    auth: Any = getattr(request, "auth", None)
    assert isinstance(auth, Viewer), "every endpoint is behind TokenAuth"
    return auth

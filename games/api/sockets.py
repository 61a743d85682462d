"""The race socket for programs: `Authorization: Bearer <token>` in place of a session.

A socket that sends the header is a program's: its identity is the token's
account, its session cookie (if any) is ignored, and it skips the Origin
check — that check stops another site's page from using a visitor's cookie,
and no page can set this header on a websocket. The token must have the
`play` scope and counts against its `api` quota; one that is unknown, revoked,
read-only or over quota is refused at the handshake (HTTP 403), before any
consumer runs; so is one from an address over its connect rate, before its
token is looked up. Its sockets count as any other's (games/races/limits.py).
A socket without the header goes the browsers' way, unchanged.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from channels.db import database_sync_to_async

from games.api.models import SCOPE_PLAY, AccessToken
from games.api.selectors import token_for_secret
from games.api.services import token_note_use
from games.quotas.quotas import QuotaExceeded, quota_take
from games.races.limits import admission, client_address

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

logger = logging.getLogger(__name__)

CLOSE_POLICY = 4008  # as the race socket's refusals at admission (docs/protocol.md)


def _bearer(scope: Scope) -> str | None:
    for name, value in scope.get("headers") or ():
        if name.lower() == b"authorization":
            scheme, _sep, secret = value.decode("latin-1").partition(" ")
            return secret.strip() if scheme.lower() == "bearer" else ""
    return None


def socket_token(*, secret: str, address: str) -> AccessToken | None:
    """The play-scoped token with this secret, counted; None when it may not play."""
    token = token_for_secret(secret=secret)
    if token is None or not token.allows(SCOPE_PLAY):
        return None
    try:
        quota_take(kind="api", player_id=token.player_id, address=address, token_id=token.pk)
    except QuotaExceeded:
        return None
    token_note_use(token=token)
    return token


class BearerTokenSockets:
    """Routes a socket with a bearer token to `programs`, every other to `browsers`."""

    def __init__(self, *, browsers: App, programs: App) -> None:
        self.browsers = browsers
        self.programs = programs

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        secret = _bearer(scope) if scope["type"] == "websocket" else None
        if secret is None:
            await self.browsers(scope, receive, send)
            return
        address = client_address(scope)
        # The address's connect bucket before the lookup: a loop of invented tokens
        # is refused as a browser's reconnect loop is (the rest of admission is the
        # consumer's, games/races/limits.py).
        if not admission.address_allows(address):
            await receive()  # the handshake's websocket.connect
            await send({"type": "websocket.close", "code": CLOSE_POLICY})
            return
        token = await database_sync_to_async(socket_token)(secret=secret, address=address)
        if token is None:
            await receive()  # the handshake's websocket.connect
            await send({"type": "websocket.close", "code": 4403})
            return
        user = token.player.user
        await self.programs(
            {**scope, "user": user, "session": None, "api_token": token.pk}, receive, send
        )

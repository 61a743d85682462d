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

Revoking a token ends its sockets at once, in every process: each joins its
token's channel-layer group (`services.token_group`) and, when `token_revoke`
announces the revocation there after its commit, is closed with `4401`
("token revoked"); from then on nothing of the consumer's reaches the client
and no frame of the client's reaches the consumer, which sees the socket gone.
Every frame the client sends is let through only once the token has been read
again (one indexed lookup on the primary key, for program sockets alone), so a
frame sent after the revocation committed is never acted on, whether or not
the message has arrived; an idle socket whose message was lost (the channel
layer down at that moment) reads its token every RECHECK_S and closes the same
way. A new connect with the token is refused at the handshake.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import DatabaseError

from games.api.models import SCOPE_PLAY, AccessToken
from games.api.selectors import token_for_secret, token_live
from games.api.services import token_group, token_note_use
from games.quotas.quotas import QuotaExceeded, quota_take
from games.races.limits import admission, client_address

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

logger = logging.getLogger(__name__)

# docs/protocol.md: the socket of a token revoked while it was open.
CLOSE_REVOKED: Final = 4401
# How often an open socket reads its token again, should a revocation's message be
# lost: one indexed lookup per socket per period.
RECHECK_S: Final = 10.0
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
        socket = RevocableSocket(token.pk, receive, send)
        await socket.run(
            self.programs, {**scope, "user": user, "session": None, "api_token": token.pk}
        )


class RevocableSocket:
    """A program's socket between the server and its consumer, cut when its token is revoked.

    On revocation (the group's message, a frame that finds the token revoked, or the
    periodic read) it closes the socket with CLOSE_REVOKED itself, drops whatever the
    consumer sends after that (a move already under way is still committed, as any
    move whose client went away: its answer is not sent), and hands the consumer a
    disconnect in place of the client's next frame, so that it cleans up as for a
    client gone away."""

    def __init__(self, token_id: int, receive: Receive, send: Send) -> None:
        self.token_id = token_id
        self._receive = receive
        self._send = send
        self.closed = False  # a close has been sent: nothing more goes out
        self._revoked: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._next: asyncio.Future[dict[str, Any]] | None = None

    async def run(self, app: App, scope: Scope) -> None:
        layer = get_channel_layer()
        channel = None
        try:
            channel = await layer.new_channel()
            await layer.group_add(token_group(self.token_id), channel)
        except Exception:
            # Without the layer the race's own messages fail too (the consumer says so);
            # the token is still read again every RECHECK_S.
            logger.warning("token socket: the channel layer failed", exc_info=True)
        watcher = asyncio.create_task(self._watch(layer, channel))
        try:
            await app(scope, self.receive, self.send)
        finally:
            for task in (watcher, self._next):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
            if channel is not None:
                with contextlib.suppress(Exception):
                    await layer.group_discard(token_group(self.token_id), channel)

    async def receive(self) -> dict[str, Any]:
        if not self._revoked.done():
            # The client's next frame is awaited across calls: a frame is never lost to
            # a wait that the revocation ended.
            if self._next is None:
                self._next = asyncio.ensure_future(self._receive())
            either: set[asyncio.Future[Any]] = {self._next, self._revoked}
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            if self._next.done():
                message, self._next = self._next.result(), None
                # A frame sent after the revocation committed is refused even when its
                # message has not arrived yet (or never will): the token is read first.
                if message["type"] != "websocket.receive" or await self._live():
                    return message
                await self.revoke()
        return {"type": "websocket.disconnect", "code": CLOSE_REVOKED}

    async def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if message.get("type") == "websocket.close":
            self.closed = True
        await self._send(message)

    async def revoke(self) -> None:
        if self._revoked.done():
            return
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):
                await self._send(
                    {"type": "websocket.close", "code": CLOSE_REVOKED, "reason": "token revoked"}
                )
        self._revoked.set_result(None)

    async def _watch(self, layer: Any, channel: str | None) -> None:
        """Until the socket ends: the revocation's message, else the token read again."""
        heard = asyncio.ensure_future(layer.receive(channel)) if channel else None
        try:
            while True:
                if heard is None:
                    await asyncio.sleep(RECHECK_S)
                else:
                    await asyncio.wait({heard}, timeout=RECHECK_S)
                if heard is not None and heard.done():
                    failed = heard.exception()
                    if failed is None and heard.result().get("type") == "token.revoked":
                        break
                    if failed is not None:
                        logger.warning("token socket: the channel layer failed: %r", failed)
                    # Only revocations are sent here; a failed layer leaves the re-reads.
                    heard = asyncio.ensure_future(layer.receive(channel)) if not failed else None
                    continue
                if not await self._live():
                    break
            await self.revoke()
        finally:
            if heard is not None and not heard.done():
                heard.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await heard

    async def _live(self) -> bool:
        try:
            return bool(await database_sync_to_async(token_live)(token_id=self.token_id))
        except DatabaseError:
            logger.warning("token socket: could not read token %s", self.token_id)
            return True  # the database's failure is not the token's: read it again later

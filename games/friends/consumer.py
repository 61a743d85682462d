"""The site socket, `/ws/site/`: one per tab, for everything outside a race.

Parse a frame, call a service, send the answer; relay what the player's group
is told (notify.py), worded in the socket's language. Admission, close codes,
frame rate and the two-reader loop are the race socket's own pieces
(games/races/limits.py, socket_loop.py, consumer.py's codes). Each socket is
counted in its player's presence while its heartbeat runs (presence.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Final

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from games.accounts.selectors import player_for_session
from games.common.errors import Refused
from games.friends import protocol
from games.friends.notify import player_group, site_tell
from games.friends.presence import (
    heartbeat_s,
    presence_join,
    presence_leave,
    version_current,
)
from games.friends.protocol import BadMessage, SiteMessage, encode, error, parse_site_message
from games.friends.selectors import friend_ids, invitations_pending, online_friend_usernames
from games.friends.services import invitation_answer, invitations_expire
from games.i18n.sockets import scope_language
from games.models import Player
from games.races.consumer import CLOSE_POLICY, CLOSE_SILENT, CLOSE_TOO_BIG, FLOOD_CLOSE_AFTER
from games.races.limits import Admitted, TokenBucket, admission
from games.races.socket_loop import TwoReaderConsumer

CLOSE_NO_ACCOUNT: Final = 4403  # a guest or nobody: only account players have a site socket

logger = logging.getLogger(__name__)
db = database_sync_to_async


def _snapshot(player: Player) -> dict[str, Any]:
    version = version_current(player_id=player.pk)  # before the state: a later change re-tells
    invitations = [protocol.invitation_payload(i) for i in invitations_pending(invitee=player)]
    return protocol.snapshot(
        version=version, invitations=invitations, online=online_friend_usernames(player=player)
    )


def _answer(player: Player, message: SiteMessage) -> dict[str, Any]:
    try:
        invitation = invitation_answer(
            invitation_id=message.invitation, player=player, accept=message.accept
        )
    except Refused as refused:
        return protocol.reject(answer_id=message.id, code=refused.code, message=refused.message)
    return protocol.ack(
        answer_id=message.id,
        invitation_id=invitation.pk,
        accepted=message.accept,
        race=invitation.race.code,
    )


class SiteConsumer(TwoReaderConsumer):
    player: Player
    username: str
    language: str
    counted: bool = False
    admitted: Admitted | None = None
    keepalive: asyncio.Task[None] | None = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        if not hasattr(self, "language"):
            self.language = scope_language(self.scope)
        with translation.override(self.language):
            await super().dispatch(message)

    async def connect(self) -> None:
        self.admitted = await admission.admit(self.scope)
        if self.admitted is None:
            await self.close(code=CLOSE_POLICY)
            return
        player = await db(player_for_session)(
            user=self.scope.get("user"), session=self.scope.get("session")
        )
        if player is None or player.is_guest:
            await self.close(code=CLOSE_NO_ACCOUNT)
            return
        self.player = player
        self.username = self.scope["user"].get_username()
        self.bucket = TokenBucket(settings.WS_RATE_PER_S, settings.WS_RATE_PER_S)
        self.dropped = 0
        self.heard_at = self.sent_at = time.monotonic()
        await self.channel_layer.group_add(player_group(player.pk), self.channel_name)
        await self.accept()
        admission.opened(self.admitted)
        self.counted = True
        await self._present(online=True)
        await self._send(await db(_snapshot)(player))
        self.open_group()
        self.keepalive = asyncio.create_task(self._keepalive())

    async def disconnect(self, code: int) -> None:
        if not self.counted:
            return
        self.counted = False
        admission.closed(self.admitted)
        if self.keepalive is not None:
            self.keepalive.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.keepalive
        try:
            await self.channel_layer.group_discard(player_group(self.player.pk), self.channel_name)
        except Exception:
            logger.warning("site socket: group_discard failed", exc_info=True)
        await self._present(online=False)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.heard_at = time.monotonic()
        if not self.bucket.take():
            self.dropped += 1
            if self.dropped >= FLOOD_CLOSE_AFTER:
                await self.close(code=CLOSE_POLICY, reason="flood")
            elif self.dropped == 1:
                limit = _("at most %(n)d messages a second") % {"n": settings.WS_RATE_PER_S}
                await self._send(error("flood", limit))
            return
        self.dropped = 0
        try:
            message = parse_site_message(text_data)
        except BadMessage as bad:
            await self._send(error(bad.code, bad.message))
            if bad.code == "too_big":
                await self.close(code=CLOSE_TOO_BIG, reason="frame too big")
            return
        await self._handle(message)

    async def _handle(self, message: SiteMessage) -> None:
        if message.type == "ping":
            await self._send(
                protocol.pong(version=await db(version_current)(player_id=self.player.pk))
            )
        elif message.type == "sync":
            await self._send(await db(_snapshot)(self.player))
        else:
            await self._send(await db(_answer)(self.player, message))

    async def site_event(self, event: dict[str, Any]) -> None:
        kind, version = event["kind"], event["v"]
        if kind == "invitation":
            message = protocol.invitation(version=version, payload=event["invitation"])
        elif kind == "invitation_closed":
            message = protocol.invitation_closed(
                version=version,
                invitation_id=event["id"],
                status=event["status"],
                who=event["who"],
                side=event.get("side", "inviter"),
            )
        else:
            message = protocol.presence(
                version=version, username=event["player"], online=event["online"]
            )
        await self._send(message)

    async def _present(self, *, online: bool) -> None:
        """Count this socket in or out; the player's friends (never a one-way follower:
        a follow needs no consent) hear when they come or go."""
        pid, sid = self.player.pk, self.channel_name
        if online:
            changed = await db(presence_join)(player_id=pid, socket_id=sid)
        else:
            changed = await db(presence_leave)(player_id=pid, socket_id=sid)
        if changed:
            for friend in await db(friend_ids)(player=self.player):
                await site_tell(friend, "presence", player=self.username, online=online)

    async def _keepalive(self) -> None:
        """The heartbeat: the presence refreshed, due invitations expired, a frame to the
        client at least every WS_HEARTBEAT_S, a silent client closed."""
        silence = settings.WS_SILENCE_CLOSE_S
        while True:
            await asyncio.sleep(min(heartbeat_s(), settings.WS_HEARTBEAT_S))
            now = time.monotonic()
            if now - self.heard_at > silence:
                await self.close(code=CLOSE_SILENT)
                return
            await self._present(online=True)
            await db(invitations_expire)(player=self.player)
            if now - self.sent_at >= settings.WS_HEARTBEAT_S:
                await self._send(protocol.heartbeat())

    async def _send(self, message: dict[str, Any]) -> None:
        if self.gone:
            return
        self.sent_at = time.monotonic()
        await self.send(text_data=encode(message))

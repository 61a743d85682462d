"""The site socket, `/ws/site/`: one per tab, for everything outside a race.

Parse a frame, call a service, send the answer; relay what the player's group
is told (notify.py), worded in the socket's language. The line itself —
admission, close codes, the frame rate, the inbox, the heartbeat, the
two-reader loop — is the race socket's (games/races/socket_line.py,
limits.py). Each socket is counted in its player's presence while it is open,
refreshed by a task of its own (presence.py's heartbeat, which also expires
the player's due invitations).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Final

from games.accounts.selectors import player_for_session
from games.common.db_threads import db
from games.common.errors import Refused
from games.friends import protocol
from games.friends.notify import player_group, site_tell
from games.friends.presence import (
    heartbeat_s,
    presence_join,
    presence_leave,
    version_current,
)
from games.friends.protocol import SiteMessage, parse_site_message
from games.friends.selectors import friend_ids, invitations_pending, online_friend_usernames
from games.friends.services import invitation_answer, invitations_expire
from games.models import Player
from games.races.limits import Admitted, admission
from games.races.socket_line import CLOSE_POLICY, LineConsumer

CLOSE_NO_ACCOUNT: Final = 4403  # a guest or nobody: only account players have a site socket

logger = logging.getLogger(__name__)


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


class SiteConsumer(LineConsumer[SiteMessage]):
    player: Player
    username: str
    counted: bool = False
    admitted: Admitted | None = None
    presence_task: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        self.admitted = await admission.admit(self.scope)
        if self.admitted is None:
            await self.close(code=CLOSE_POLICY)
            return
        player = await db(player_for_session)(
            user=self.scope.get("user"), session=self.scope["session"]
        )
        if player is None or player.is_guest:
            await self.close(code=CLOSE_NO_ACCOUNT)
            return
        self.player = player
        self.username = self.scope["user"].get_username()
        await self.channel_layer.group_add(player_group(player.pk), self.channel_name)
        await self.accept()
        admission.opened(self.admitted)
        self.counted = True
        self.open_line()
        await self._present(online=True)
        await self.send_message(await db(_snapshot)(player))
        self.open_group()
        self.presence_task = asyncio.create_task(self._stay_present())

    async def disconnect(self, code: int) -> None:
        if not self.counted:
            return
        self.counted = False
        admission.closed(self.admitted)
        await self.close_line()
        if self.presence_task is not None:
            self.presence_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.presence_task
        try:
            await self.channel_layer.group_discard(player_group(self.player.pk), self.channel_name)
        except Exception:
            logger.warning("site socket: group_discard failed", exc_info=True)
        await self._present(online=False)

    def parse(self, text: str | None) -> SiteMessage:
        return parse_site_message(text)

    async def handle(self, message: SiteMessage) -> None:
        match message.type:
            case "ping":
                version = await db(version_current)(player_id=self.player.pk)
                await self.send_message(protocol.pong(version=version))
            case "sync":
                await self.send_message(await db(_snapshot)(self.player))
            case _:
                await self.send_message(await db(_answer)(self.player, message))

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
        await self.send_message(message)

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

    async def _stay_present(self) -> None:
        """Presence's heartbeat (its entry lives ttl_s, refreshed three times in it), and
        the player's invitations whose time is up expired on the way."""
        while True:
            await asyncio.sleep(heartbeat_s())
            try:
                await self._present(online=True)
                await db(invitations_expire)(player=self.player)
            except Exception:
                # Redis or the database away for a beat: the next one tries again.
                logger.warning("site socket: presence heartbeat failed", exc_info=True)

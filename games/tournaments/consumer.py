"""The tournament socket: the standings as they change, for entrants and spectators.

Thin, as the race socket's consumer: admission (the race socket's own
`SocketAdmission`, the same limits), a first `standings` frame, then the
tournament group's frames relayed as they come; `ping` and `sync` answered.
Nothing a client sends here changes anything (docs/protocol.md).
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils import translation

from games.common.db_threads import db
from games.i18n.sockets import scope_language
from games.races.limits import Admitted, TokenBucket, admission
from games.races.socket_loop import TwoReaderConsumer
from games.tournaments import protocol
from games.tournaments.announce import standings_frame, tournament_group
from games.tournaments.loop import ArenaLoop
from games.tournaments.models import Tournament
from games.tournaments.selectors import tournament_by_code

CLOSE_POLICY = 4008
CLOSE_NOT_FOUND = 4404
RATE_PER_S = 5

logger = logging.getLogger(__name__)


def _tournament_id(code: str) -> int | None:
    tournament = tournament_by_code(code=code)
    return None if tournament is None else tournament.pk


def _frame(tournament_id: int) -> str:
    return standings_frame(tournament=Tournament.objects.get(pk=tournament_id))


class TournamentConsumer(TwoReaderConsumer):
    tournament_id: int
    group: str
    admitted: Admitted | None = None

    async def connect(self) -> None:
        self.admitted = await admission.admit(self.scope)
        if self.admitted is None:
            await self.close(code=CLOSE_POLICY)
            return
        found = await db(_tournament_id)(self.scope["url_route"]["kwargs"]["code"])
        if found is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        ArenaLoop.ensure()
        self.tournament_id = found
        self.group = tournament_group(self.tournament_id)
        self.bucket = TokenBucket(RATE_PER_S, RATE_PER_S)
        # In the group before the table is read: a frame sent meanwhile waits for
        # open_group() and is then dropped (seen) or applied (its base is this table).
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        admission.opened(self.admitted)
        self.counted = True
        await self.send(text_data=await db(_frame)(self.tournament_id))
        self.open_group()

    async def disconnect(self, code: int) -> None:
        if getattr(self, "counted", False):
            admission.closed(self.admitted)
            self.counted = False
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.take():
            return  # a flood is dropped: nothing here is worth answering twice a second
        with translation.override(scope_language(self.scope)):
            try:
                kind = protocol.parse_client_message(text_data)
            except protocol.BadTournamentMessage as bad:
                await self.send(text_data=protocol.encode(protocol.error(bad.code, bad.message)))
                return
        if kind == "ping":
            await self.send(text_data=protocol.encode(protocol.pong()))
        else:
            await self.send(text_data=await db(_frame)(self.tournament_id))

    async def tournament_standings(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])

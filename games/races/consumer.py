"""The race socket: parse a frame, call a service, send the answer.

Every answer to a move goes out only after the move is committed. What the
others must learn of a change is not sent from here: the service wrote it
with the change, and the process's publisher announces it
(games/races/outbox.py, publisher.py). This socket relays the race's
announcements to its client, progress coalesced (fanout.py). Each client
message is its own type (protocol.py), answered by one call into
socket_db.py, which decides its refusals; the line itself (rates, the
inbox, the heartbeat) is kept by socket_line.py, and the race's end on time
by the process's one timer per race (clock.py).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.db import DatabaseError
from django.utils.translation import gettext as _

from games.common.db_threads import db
from games.metrics.definitions import MOVE_ACK_SECONDS, MOVES, SOCKETS_OPEN
from games.models import Player
from games.races import protocol
from games.races.clock import RaceClock, race_clock
from games.races.fanout import Fanout
from games.races.limits import Admitted, admission
from games.races.protocol import (
    ClientMessage,
    Close,
    Leave,
    Move,
    Ping,
    PlayMessage,
    Ready,
    Rematch,
    Resign,
    Start,
    Sync,
    encode,
    parse_client_message,
)
from games.races.publisher import Publisher, race_group
from games.races.selectors import race_version
from games.races.socket_db import (
    Snapshot,
    connect_info,
    presence,
    socket_lobby,
    socket_move,
    socket_snapshot,
    socket_sync,
)
from games.races.socket_line import CLOSE_NOT_FOUND, CLOSE_POLICY, UNAVAILABLE, LineConsumer
from games.store.append import MoveRejected

logger = logging.getLogger(__name__)


class RaceConsumer(LineConsumer[ClientMessage]):
    race_id: int
    group: str
    player: Player | None
    racer: bool  # counted in the race's presence
    game_id: int | None = None  # the racer's game, once the race has started
    fanout: Fanout | None = None
    clock: RaceClock | None = None  # holding the race's end timer while open
    admitted: Admitted | None = None

    async def connect(self) -> None:
        self.admitted = await admission.admit(self.scope)
        if self.admitted is None:
            # Refused at the handshake (before accept: the client sees HTTP 403).
            await self.close(code=CLOSE_POLICY)
            return
        code = self.scope["url_route"]["kwargs"]["code"]
        try:
            found = await db(connect_info)(code, self.scope.get("user"), self.scope.get("session"))
        except DatabaseError:
            logger.warning("race socket refused for now: the database failed", exc_info=True)
            await self.refuse_for_now(_("the game store is unavailable"))
            return
        if found is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        race, self.player, self.racer = found
        self.race_id = race.pk
        self.group = race_group(race.pk)
        self.publisher = Publisher.ensure()
        self.open_line()
        assert self.backlog is not None
        self.fanout = Fanout(self.send_text, held=self.backlog.behind)
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception:  # each layer fails its own way (redis, OSError, timeouts)
            logger.warning("race socket refused for now: the channel layer failed", exc_info=True)
            await self.refuse_for_now(_("the race's messages are unavailable"))
            return
        await self.accept()
        SOCKETS_OPEN.inc()
        admission.opened(self.admitted)
        self.counted = True
        snapshot = await db(socket_snapshot)(race_id=self.race_id, player=self.player)
        await self._snapshot(snapshot)
        # Before the group opens: a start heard from then on finds the clock held.
        self.clock = race_clock()
        self.clock.opened(self.race_id, snapshot.ends_at)
        self.open_group()
        if self.racer:
            await self._presence(+1)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "counted", False):
            SOCKETS_OPEN.dec()
            admission.closed(self.admitted)
            self.counted = False
        if not hasattr(self, "group"):
            return
        # Whatever the client asked for that was committed is announced by the
        # publisher, not by this socket's tasks.
        if self.clock is not None:
            self.clock.closed(self.race_id)
            self.clock = None
        await self.close_line()
        if self.fanout is not None:
            await self.fanout.close()
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        except Exception:
            # The layer is down; this process's subscription goes with the
            # socket anyway. The presence count below still matters.
            logger.warning("group_discard failed", exc_info=True)
        if self.racer:
            await self._presence(-1)

    # What clients ask: one call and one answer each ------------------------

    def parse(self, text: str | None) -> ClientMessage:
        return parse_client_message(text)

    async def handle(self, message: ClientMessage) -> None:
        race_id, player = self.race_id, self.player
        match message:
            case Move() | Resign():
                await self._play(message)
            case Leave() | Close():
                left = await db(socket_lobby)(
                    race_id=race_id, player=player, message=message, counted=self.racer
                )
                if self.racer:  # it stays open as a spectator's, no longer here as the racer
                    self.publisher.presence_changed(race_id)
                await self._snapshot(left)
            case Ready() | Start() | Rematch():
                # The service announces the change to every socket, this one too.
                await db(socket_lobby)(
                    race_id=race_id, player=player, message=message, counted=self.racer
                )
            case Sync(version=after, force=force):
                sync = db(socket_sync)
                for text in await sync(race_id=race_id, player=player, after=after, force=force):
                    await self.send_text(text)
            case Ping():
                version = await db(race_version)(race_id=race_id)
                await self.send_message(protocol.pong(version=version))

    async def _play(self, move: PlayMessage) -> None:
        try:
            done = await db(socket_move)(
                race_id=self.race_id, player=self.player, game_id=self.game_id, move=move
            )
        except MoveRejected as rejected:
            await self._reject(move, rejected.code, rejected.message, rejected.current_seq)
            if rejected.code == "too_late" and self.clock is not None:
                # Out of time by the store's clock: the race ends now, not at its timer.
                self.clock.expired(self.race_id)
            return
        # Only the answer: the move's progress (and the end, if it ended the
        # race) was written with it and is announced to everyone, this socket too.
        append = done.append
        self.game_id = append.game_id
        MOVES.labels("race", "accepted", "ok").inc()
        MOVE_ACK_SECONDS.observe(time.perf_counter() - self.taken_at)
        await self.send_message(
            protocol.ack(
                move_id=move.id,
                seq=append.seq,
                token=append.token,
                duplicate=append.duplicate,
                events=append.events,
                automatic=list(append.automatic),
                view=protocol.own_view(append.state, append.seq, append.moves),
                version=done.version,
            )
        )

    async def unavailable(self, message: ClientMessage) -> None:
        text = _("the game store is unavailable for a moment: send the same move again")
        if isinstance(message, Move | Resign):
            # Nothing acknowledged, and the current seq unknown without the
            # database: the client's is echoed, and it retries with the same id.
            await self._reject(message, UNAVAILABLE, text, message.seq)
        else:
            await self.send_message(protocol.error(UNAVAILABLE, text))

    # What the race announces ---------------------------------------------

    async def race_event(self, event: dict[str, Any]) -> None:
        assert self.fanout is not None
        kind = event["kind"]
        if kind == "progress":
            await self.fanout.progress(
                event["v"], event["player"], event["seq"], event["racer"], event.get("sent")
            )
            return
        await self.fanout.flush()
        if kind == "started":
            await self._started()
        else:
            await self.send_text(event["text"])

    async def race_forward(self, event: dict[str, Any]) -> None:
        # A process of the previous release (a rolling restart) still sends these.
        text = event["text"] if "text" in event else encode(event["message"])
        await self.send_text(text)

    async def race_started(self, event: dict[str, Any]) -> None:
        await self._started()  # the previous release's start

    async def _started(self) -> None:
        # Each racer's snapshot differs (their own game), so it is built here.
        snapshot = await db(socket_snapshot)(race_id=self.race_id, player=self.player)
        await self._snapshot(snapshot)
        if self.clock is not None:
            self.clock.started(self.race_id, snapshot.ends_at)

    # Helpers --------------------------------------------------------------

    async def _snapshot(self, snapshot: Snapshot) -> None:
        """Send a snapshot, keeping what this socket needs of it."""
        self.racer, self.game_id = snapshot.racer, snapshot.game_id
        await self.send_message(snapshot.message)

    async def _reject(self, move: PlayMessage, code: str, text: str, seq: int) -> None:
        MOVES.labels("race", "refused", code).inc()
        MOVE_ACK_SECONDS.observe(time.perf_counter() - self.taken_at)
        await self.send_message(protocol.reject(move_id=move.id, code=code, message=text, seq=seq))

    async def _presence(self, delta: int) -> None:
        if await db(presence)(self.race_id, self.player, delta):
            self.publisher.presence_changed(self.race_id)

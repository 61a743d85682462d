"""The race socket: parse a frame, call a service, send the answer.

Every answer to a move goes out only after the move is committed. What the
others must learn of a change is not sent from here: the service wrote it
with the change, and the process's publisher announces it
(games/races/outbox.py, publisher.py). This socket relays the race's
announcements to its client, progress coalesced (fanout.py), and keeps the
line alive both ways (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any, Final

from channels.consumer import get_handler_name
from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.bots.pace import bot_pace_refusal
from games.common.errors import Refused
from games.i18n.sockets import scope_language
from games.metrics.definitions import MOVE_ACK_SECONDS, MOVES, SOCKETS_OPEN
from games.models import Player, Race, RaceStatus
from games.races import protocol
from games.races.fanout import Fanout, ProgressBuffer
from games.races.limits import Admitted, TokenBucket, admission
from games.races.protocol import BadMessage, ClientMessage, encode, error, parse_client_message
from games.races.publisher import Publisher, race_group
from games.races.selectors import race_game_id, race_history, race_snapshot, race_version
from games.races.services import (
    race_close,
    race_close_if_over,
    race_leave,
    race_move,
    race_rematch,
    race_set_ready,
    race_start,
)
from games.races.socket_db import by_race, connect_info, db, presence, race_started
from games.races.socket_loop import TwoReaderConsumer
from games.store.services import MoveRejected

# Frames dropped for flooding before the socket is closed.
FLOOD_CLOSE_AFTER: Final = 30
# Messages accepted but not yet handled; the rate limit keeps it short.
INBOX_SIZE: Final = 64
# Close codes an application may send: Daphne's websocket library (Autobahn)
# refuses 1008/1009/1013 from an application and closes with 1011 instead, so
# the protocol's own codes live in the private 4000 range (docs/protocol.md).
CLOSE_POLICY: Final = 4008  # flooding
CLOSE_TOO_BIG: Final = 4009
CLOSE_SILENT: Final = 4010  # nothing heard from the client for WS_SILENCE_CLOSE_S
CLOSE_NOT_FOUND: Final = 4404
CLOSE_TRY_AGAIN: Final = 4013  # the database or the channel layer is down: reconnect later
# A move refused because the database failed under it: nothing is acknowledged,
# and a retry with the same id gets the first answer should the commit have
# happened after all (docs/protocol.md).
UNAVAILABLE: Final = "unavailable"

logger = logging.getLogger(__name__)

# Per process: a client reconnecting in a loop is refused before any database work.


class RaceConsumer(TwoReaderConsumer):
    race_id: int
    group: str
    player: Player | None
    racer: bool
    fanout: Fanout | None = None
    tasks: tuple[asyncio.Task[None], ...] = ()
    timer: asyncio.Task[None] | None = None
    language: str
    admitted: Admitted | None = None

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections on its shared sync thread
        # before every message; our database calls do that in their own
        # threads, so skipping it here keeps one slow query from stalling
        # every socket of the process.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for {message['type']}")
        if not hasattr(self, "language"):
            self.language = scope_language(self.scope)
        # Refusals are worded in the socket's language, in the worker threads too
        # (Django's active language is a context variable that sync_to_async carries).
        with translation.override(self.language):
            await handler(message)

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
            await self._refuse_for_now(_("the game store is unavailable"))
            return
        if found is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        race, self.player, self.racer = found
        self.race_id = race.pk
        self.group = race_group(race.pk)
        self.bucket = TokenBucket(settings.WS_RATE_PER_S, settings.WS_RATE_PER_S)
        self.dropped = 0
        self.game_id: int | None = None  # the racer's game, once the race has started
        # Client messages are handled one at a time by a task of their own, so
        # that broadcasts reach this socket while a move waits on the database.
        self.inbox: asyncio.Queue[ClientMessage] = asyncio.Queue(maxsize=INBOX_SIZE)
        self.publisher = Publisher.ensure()
        self.heard_at = self.sent_at = time.monotonic()
        self.fanout = Fanout(self._send_text)
        self.tasks = (asyncio.create_task(self._work()), asyncio.create_task(self._keepalive()))
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception:  # each layer fails its own way (redis, OSError, timeouts)
            logger.warning("race socket refused for now: the channel layer failed", exc_info=True)
            await self._refuse_for_now(_("the race's messages are unavailable"))
            return
        await self.accept()
        SOCKETS_OPEN.inc()
        admission.opened(self.admitted)
        self.counted = True
        await self._send(await db(race_snapshot)(race_id=self.race_id, player=self.player))
        self.open_group()
        if self.racer:
            await self._presence(+1)
        self._arm_timer(race)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "counted", False):
            SOCKETS_OPEN.dec()
            admission.closed(self.admitted)
            self.counted = False
        if not hasattr(self, "group"):
            return
        # A client going away is no error. Whatever it asked for that was
        # committed is announced by the publisher, not by these tasks; they
        # are awaited, not left pending.
        for task in (*self.tasks, self.timer):
            if task is not None:
                task.cancel()
        for task in (*self.tasks, self.timer):
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
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

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.heard_at = time.monotonic()
        if not self.bucket.take():
            self.dropped += 1
            if self.dropped >= FLOOD_CLOSE_AFTER:
                await self.close(code=CLOSE_POLICY, reason="flood")
            elif self.dropped == 1:
                await self._send(
                    error(
                        "flood",
                        _("at most %(n)d messages a second") % {"n": settings.WS_RATE_PER_S},
                    )
                )
            return
        self.dropped = 0
        try:
            message = parse_client_message(text_data)
        except BadMessage as bad:
            await self._send(error(bad.code, bad.message))
            if bad.code == "too_big":
                await self.close(code=CLOSE_TOO_BIG, reason="frame too big")
            return
        try:
            self.inbox.put_nowait(message)
        except asyncio.QueueFull:
            await self._send(error("flood", _("too many messages waiting for an answer")))

    async def _work(self) -> None:
        while True:
            message = await self.inbox.get()
            self.taken_at = time.perf_counter()  # an answer's latency counts from here
            try:
                with translation.override(self.language):
                    await getattr(self, f"on_{message.type}")(message)
            except DatabaseError:
                # The database failed under the call (down, restarting, the
                # connection cut). Nothing was acknowledged; a move is refused
                # so that the client retries it with the same id.
                logger.warning("race socket: %s failed on the database", message.type)
                await self._unavailable(message)
            except Exception:
                # Without this, one failure would end the task and leave the
                # socket open but deaf to every later message.
                logger.exception("race socket: %s failed", message.type)
                await self._send(error("server_error", _("the server failed to handle that")))

    async def _unavailable(self, message: ClientMessage) -> None:
        text = _("the game store is unavailable for a moment: send the same move again")
        if message.type in ("move", "resign"):
            # The current seq is unknown without the database: the client's is echoed.
            await self._reject(message, UNAVAILABLE, text, message.seq)
        else:
            await self._send(error(UNAVAILABLE, text))

    async def _keepalive(self) -> None:
        """The server's half of the heartbeat: a frame at least every WS_HEARTBEAT_S, and a
        client heard from at least every WS_SILENCE_CLOSE_S (it pings every 20 s)."""
        beat, silence = settings.WS_HEARTBEAT_S, settings.WS_SILENCE_CLOSE_S
        while True:
            await asyncio.sleep(min(beat, silence) / 4)
            now = time.monotonic()
            if now - self.heard_at > silence:
                await self.close(code=CLOSE_SILENT)
                return
            if now - self.sent_at >= beat:
                await self._send(protocol.heartbeat())

    async def _refuse_for_now(self, reason: str) -> None:
        await self.accept()
        await self._send(error(UNAVAILABLE, reason))
        await self.close(code=CLOSE_TRY_AGAIN)

    # What clients ask ----------------------------------------------------

    async def on_move(self, message: ClientMessage) -> None:
        if self.player is None:
            await self._reject(message, "forbidden", _("join the race to play"), 0)
            return
        if self.game_id is None:
            self.game_id = await db(race_game_id)(race_id=self.race_id, player=self.player)
        if self.game_id is None:
            if await db(race_started)(self.race_id):
                await self._reject(message, "forbidden", _("you have no game in this race"), 0)
            else:
                await self._reject(message, "not_started", _("the race has not started"), 0)
            return
        if message.game is not None and message.game != self.game_id:
            await self._reject(message, "forbidden", _("this is not your game"), 0)
            return
        # A bot's move sooner than the bots' minimum gap is refused (games/bots/pace.py).
        if self.player.is_bot and (
            slow := await db(bot_pace_refusal)(
                player=self.player, game_id=self.game_id, token=message.token
            )
        ):
            await self._reject(message, slow.code, slow.message, slow.current_seq)
            return
        try:
            done = await db(race_move)(
                race_id=self.race_id,
                game_id=self.game_id,
                player=self.player,
                token=message.token,
                client_move_id=message.id,
                expected_seq=message.seq,
            )
        except MoveRejected as rejected:
            await self._reject(message, rejected.code, rejected.message, rejected.current_seq)
            if rejected.code == "too_late":
                await db(race_close_if_over)(race_id=self.race_id)
            return
        # Only the answer: the move's progress (and the end, if it ended the
        # race) was written with it and is announced to everyone, this socket too.
        append = done.append
        MOVES.labels("race", "accepted", "ok").inc()
        MOVE_ACK_SECONDS.observe(time.perf_counter() - self.taken_at)
        await self._send(
            protocol.ack(
                move_id=message.id,
                seq=append.seq,
                token=append.token,
                duplicate=append.duplicate,
                events=append.events,
                automatic=list(append.automatic),
                view=protocol.own_view(append.state, append.seq, append.moves),
                version=done.version,
            )
        )

    on_resign = on_move

    async def on_ready(self, message: ClientMessage) -> None:
        await self._lobby_change(race_set_ready, ready=message.ready)

    async def on_leave(self, message: ClientMessage) -> None:
        if await self._lobby_change(race_leave):
            # This socket stays open as a spectator's: it no longer counts as the racer here.
            await self._presence(-1)
            self.racer = False
            await self._send(await db(race_snapshot)(race_id=self.race_id, player=self.player))

    async def on_close(self, message: ClientMessage) -> None:
        # The host's seat goes with the lobby: this socket stays open as a spectator's.
        if await self._lobby_change(race_close):
            await self._presence(-1)
            self.racer = False

    async def on_start(self, message: ClientMessage) -> None:
        await self._lobby_change(
            race_start, refusal=("not_host", _("only the host starts the race"))
        )

    async def on_rematch(self, message: ClientMessage) -> None:
        refusal = ("not_racer", _("only racers of this race ask for a rematch"))
        await self._lobby_change(race_rematch, refusal=refusal)

    async def on_sync(self, message: ClientMessage) -> None:
        history = None
        if not message.force:
            history = await db(race_history)(race_id=self.race_id, after=message.version)
        if history is None:
            await self._send(await db(race_snapshot)(race_id=self.race_id, player=self.player))
            return
        # Healed from the history: what was announced after the client's version,
        # as it was announced, then where that leaves it.
        pending = ProgressBuffer()
        for version, kind, payload in history.events:
            if kind == "progress":
                event = json.loads(payload)
                pending.add(version, event["player"], event["seq"], protocol.progress_racer(event))
                continue
            await self._send_pending(pending)
            await self._send_text(payload)
        await self._send_pending(pending)
        await self._send(protocol.synced(version=history.version))

    async def on_ping(self, message: ClientMessage) -> None:
        await self._send(protocol.pong(version=await db(race_version)(race_id=self.race_id)))

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
            await self._send_text(event["text"])

    async def race_forward(self, event: dict[str, Any]) -> None:
        # A process of the previous release (a rolling restart) still sends these.
        text = event["text"] if "text" in event else encode(event["message"])
        await self._send_text(text)

    async def race_started(self, event: dict[str, Any]) -> None:
        await self._started()  # the previous release's start

    async def _started(self) -> None:
        # Each racer's snapshot differs (their own game), so it is built here.
        snapshot = await db(race_snapshot)(race_id=self.race_id, player=self.player)
        self.racer = snapshot["you"]["role"] == "racer"
        await self._send(snapshot)
        race = await db(Race.objects.get)(pk=self.race_id)
        self._arm_timer(race)

    # Helpers --------------------------------------------------------------

    async def _send(self, message: dict[str, Any]) -> None:
        await self._send_text(encode(message))

    async def _send_text(self, text: str) -> None:
        if self.gone:
            return  # nobody left to read it: what was committed is announced anyway
        self.sent_at = time.monotonic()
        await self.send(text_data=text)

    async def _send_pending(self, pending: ProgressBuffer) -> None:
        text = pending.take()
        if text is not None:
            await self._send_text(text)

    async def _reject(self, message: ClientMessage, code: str, text: str, seq: int) -> None:
        MOVES.labels("race", "refused", code).inc()
        MOVE_ACK_SECONDS.observe(time.perf_counter() - self.taken_at)
        await self._send(protocol.reject(move_id=message.id, code=code, message=text, seq=seq))

    async def _lobby_change(
        self,
        service: Callable[..., object],
        refusal: tuple[str, str] | None = None,
        **kwargs: Any,
    ) -> bool:
        """A change the service announces itself; here only a refusal is answered."""
        if self.player is None:
            code, text = refusal or ("not_racer", _("you are not in this race"))
            await self._send(error(code, text))
            return False
        try:
            await db(by_race(service))(self.race_id, player=self.player, **kwargs)
        except Refused as refused:  # the lobby's rules, or a room's seat check (races/seating)
            await self._send(error(refused.code, refused.message))
            return False
        return True

    async def _presence(self, delta: int) -> None:
        if await db(presence)(self.race_id, self.player, delta):
            self.publisher.presence_changed(self.race_id)

    def _arm_timer(self, race: Race) -> None:
        if race.status != RaceStatus.RUNNING or race.ends_at is None or self.timer is not None:
            return
        delay = (race.ends_at - timezone.now()).total_seconds()
        self.timer = asyncio.create_task(self._end_on_time(max(0.0, delay) + 0.25))

    async def _end_on_time(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await db(race_close_if_over)(race_id=self.race_id)

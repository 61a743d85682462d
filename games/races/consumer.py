"""The race socket: parse a frame, call a service, send the answer.

Every answer to a move goes out only after the move is committed. Broadcasts
to the race's group carry the race's version (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, Final

from channels.consumer import get_handler_name
from django.conf import settings
from django.db import DatabaseError
from django.utils import timezone

from games.engine import race_view
from games.metrics.definitions import (
    BROADCASTS,
    MOVE_ACK_SECONDS,
    MOVES,
    PROGRESS_DELIVERY_SECONDS,
    SOCKETS_OPEN,
)
from games.models import Player, Race, RaceStatus
from games.races.broadcast import race_group
from games.races.limits import ConnectLimiter, TokenBucket, client_key
from games.races.protocol import (
    BadMessage,
    ClientMessage,
    encode,
    error,
    own_view,
    parse_client_message,
)
from games.races.selectors import race_game_id, race_snapshot, race_version
from games.races.services import (
    RaceRefused,
    race_close_if_over,
    race_leave,
    race_move,
    race_rematch,
    race_set_ready,
    race_start,
)
from games.races.socket_db import (
    by_race,
    connect_info,
    db,
    end_message,
    lobby_racers,
    presence,
    race_started,
)
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
CLOSE_NOT_FOUND: Final = 4404
CLOSE_TRY_AGAIN: Final = 4013  # the database or the channel layer is down: reconnect later
# A move refused because the database failed under it: nothing is acknowledged,
# and a retry with the same id gets the first answer should the commit have
# happened after all (docs/protocol.md).
UNAVAILABLE: Final = "unavailable"
# A broadcast that the channel layer cannot take within this is dropped: the
# move is committed and answered; the others resync on the version gap.
BROADCAST_TIMEOUT_S: Final = 5.0

logger = logging.getLogger(__name__)

# Per process: a client reconnecting in a loop is refused before any database work.
connect_limiter = ConnectLimiter(settings.WS_CONNECTS_PER_MIN, settings.WS_CONNECT_BURST)


class RaceConsumer(TwoReaderConsumer):
    race_id: int
    group: str
    player: Player | None
    racer: bool

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections on its shared sync thread
        # before every message; our database calls do that in their own
        # threads, so skipping it here keeps one slow query from stalling
        # every socket of the process.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        if not connect_limiter.allow(client_key(self.scope, settings.SESSION_COOKIE_NAME)):
            # Refused at the handshake (before accept: the client sees HTTP 403).
            await self.close(code=CLOSE_POLICY)
            return
        code = self.scope["url_route"]["kwargs"]["code"]
        try:
            found = await db(connect_info)(code, self.scope.get("user"), self.scope.get("session"))
        except DatabaseError:
            logger.warning("race socket refused for now: the database failed", exc_info=True)
            await self._refuse_for_now("the game store is unavailable")
            return
        if found is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        race, self.player, self.racer = found
        self.race_id = race.pk
        self.group = race_group(race.pk)
        self.bucket = TokenBucket(settings.WS_RATE_PER_S, settings.WS_RATE_PER_S)
        self.dropped = 0
        self.timer: asyncio.Task[None] | None = None
        self.game_id: int | None = None  # the racer's game, once the race has started
        # Client messages are handled one at a time by a task of their own, so
        # that broadcasts reach this socket while a move waits on the database.
        self.inbox: asyncio.Queue[ClientMessage] = asyncio.Queue(maxsize=INBOX_SIZE)
        self.worker = asyncio.create_task(self._work())
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception:  # each layer fails its own way (redis, OSError, timeouts)
            logger.warning("race socket refused for now: the channel layer failed", exc_info=True)
            await self._refuse_for_now("the race's messages are unavailable")
            return
        await self.accept()
        SOCKETS_OPEN.inc()
        self.counted = True
        await self._send(await db(race_snapshot)(race_id=self.race_id, player=self.player))
        self.open_group()
        if self.racer:
            await self._presence(+1)
        self._arm_timer(race)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "counted", False):
            SOCKETS_OPEN.dec()
            self.counted = False
        if not hasattr(self, "group"):
            return
        if self.timer is not None:
            self.timer.cancel()
        self.worker.cancel()
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        except Exception:
            # The layer is down; this process's subscription goes with the
            # socket anyway. The presence count below still matters.
            logger.warning("group_discard failed", exc_info=True)
        if self.racer:
            await self._presence(-1)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.take():
            self.dropped += 1
            if self.dropped >= FLOOD_CLOSE_AFTER:
                await self.close(code=CLOSE_POLICY, reason="flood")
            elif self.dropped == 1:
                await self._send(
                    error("flood", f"at most {settings.WS_RATE_PER_S} messages a second")
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
            await self._send(error("flood", "too many messages waiting for an answer"))

    async def _work(self) -> None:
        while True:
            message = await self.inbox.get()
            self.taken_at = time.perf_counter()  # an answer's latency counts from here
            try:
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
                await self._send(error("server_error", "the server failed to handle that"))

    async def _unavailable(self, message: ClientMessage) -> None:
        text = "the game store is unavailable for a moment: send the same move again"
        if message.type in ("move", "resign"):
            # The current seq is unknown without the database: the client's is echoed.
            await self._reject(message, UNAVAILABLE, text, message.seq)
        else:
            await self._send(error(UNAVAILABLE, text))

    async def _refuse_for_now(self, reason: str) -> None:
        await self.accept()
        await self._send(error(UNAVAILABLE, reason))
        await self.close(code=CLOSE_TRY_AGAIN)

    # What clients ask ----------------------------------------------------

    async def on_move(self, message: ClientMessage) -> None:
        if self.player is None:
            await self._reject(message, "forbidden", "join the race to play", 0)
            return
        if self.game_id is None:
            self.game_id = await db(race_game_id)(race_id=self.race_id, player=self.player)
        if self.game_id is None:
            if await db(race_started)(self.race_id):
                await self._reject(message, "forbidden", "you have no game in this race", 0)
            else:
                await self._reject(message, "not_started", "the race has not started", 0)
            return
        if message.game is not None and message.game != self.game_id:
            await self._reject(message, "forbidden", "this is not your game", 0)
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
                await self._end_if_over()
            return
        append = done.append
        MOVES.labels("race", "accepted", "ok").inc()
        MOVE_ACK_SECONDS.observe(time.perf_counter() - self.taken_at)
        await self._send(
            {
                "type": "ack",
                "id": message.id,
                "seq": append.seq,
                "token": append.token,
                "duplicate": append.duplicate,
                "events": append.events,
                "view": own_view(append.state, append.seq),
            }
        )
        if not append.duplicate:
            await self._broadcast(
                "progress",
                v=done.version,
                player=self.player.pk,
                seq=append.seq,
                progress=race_view(append.state),
            )
        if done.ended:
            await self._announce_end()

    on_resign = on_move

    async def on_ready(self, message: ClientMessage) -> None:
        await self._lobby_change(race_set_ready, ready=message.ready)

    async def on_leave(self, message: ClientMessage) -> None:
        if await self._lobby_change(race_leave):
            # This socket stays open as a spectator's: it no longer counts as the racer here.
            await self._presence(-1)
            self.racer = False
            await self._send(await db(race_snapshot)(race_id=self.race_id, player=self.player))

    async def on_start(self, message: ClientMessage) -> None:
        if self.player is None:
            await self._send(error("not_host", "only the host starts the race"))
            return
        try:
            version = await db(by_race(race_start))(self.race_id, player=self.player)
        except RaceRefused as refused:
            await self._send(error(refused.code, refused.message))
            return
        await self._broadcast("started", v=version)

    async def on_rematch(self, message: ClientMessage) -> None:
        if self.player is None:
            await self._send(error("not_racer", "only racers of this race ask for a rematch"))
            return
        try:
            rematch = await db(by_race(race_rematch))(self.race_id, player=self.player)
        except RaceRefused as refused:
            await self._send(error(refused.code, refused.message))
            return
        version = await db(race_version)(race_id=self.race_id)
        await self._broadcast("rematch", v=version, code=rematch.code)

    async def on_sync(self, message: ClientMessage) -> None:
        version = await db(race_version)(race_id=self.race_id)
        if message.version == version and not message.force:
            await self._send({"type": "synced", "v": version})
        else:
            await self._send(await db(race_snapshot)(race_id=self.race_id, player=self.player))

    async def on_ping(self, message: ClientMessage) -> None:
        await self._send({"type": "pong", "v": await db(race_version)(race_id=self.race_id)})

    # What the group tells ------------------------------------------------

    async def race_forward(self, event: dict[str, Any]) -> None:
        # Encoded once by the sender, for every socket of the race. A process
        # of the previous release (a rolling restart) still sends the message.
        text = event["text"] if "text" in event else encode(event["message"])
        await self.send(text_data=text)
        if "sent" in event:
            PROGRESS_DELIVERY_SECONDS.observe(max(0.0, time.time() - event["sent"]))

    async def race_started(self, event: dict[str, Any]) -> None:
        # Each racer's snapshot differs (their own game), so it is built here.
        snapshot = await db(race_snapshot)(race_id=self.race_id, player=self.player)
        self.racer = snapshot["you"]["role"] == "racer"
        await self._send(snapshot)
        race = await db(Race.objects.get)(pk=self.race_id)
        self._arm_timer(race)

    # Helpers --------------------------------------------------------------

    async def _send(self, message: dict[str, Any]) -> None:
        await self.send(text_data=encode(message))

    async def _reject(self, message: ClientMessage, code: str, text: str, seq: int) -> None:
        MOVES.labels("race", "refused", code).inc()
        MOVE_ACK_SECONDS.observe(time.perf_counter() - self.taken_at)
        await self._send(
            {"type": "reject", "id": message.id, "code": code, "message": text, "seq": seq}
        )

    async def _broadcast(self, kind: str, **fields: Any) -> None:
        if kind == "started":  # each socket builds its own snapshot
            event: dict[str, Any] = {"type": "race.started"}
        else:
            event = {"type": "race.forward", "text": encode({"type": kind, **fields})}
            if kind == "progress":  # wall clock: the receiving socket may be in another process
                event["sent"] = time.time()
        BROADCASTS.labels(kind).inc()
        try:
            await asyncio.wait_for(
                self.channel_layer.group_send(self.group, event), BROADCAST_TIMEOUT_S
            )
        except Exception:
            # The channel layer is down. What is broadcast is already committed
            # (and a move already answered): the others miss this version and
            # resync when they see the next one, or their ping's answer.
            logger.warning("broadcast of %s v=%s dropped", kind, fields.get("v"), exc_info=True)

    async def _lobby_change(self, service: Callable[..., int], **kwargs: Any) -> bool:
        if self.player is None:
            await self._send(error("not_racer", "you are not in this race"))
            return False
        try:
            version = await db(by_race(service))(self.race_id, player=self.player, **kwargs)
        except RaceRefused as refused:
            await self._send(error(refused.code, refused.message))
            return False
        await self._broadcast_lobby(version)
        return True

    async def _presence(self, delta: int) -> None:
        version = await db(presence)(self.race_id, self.player, delta)
        if version is not None:
            await self._broadcast_lobby(version)

    async def _broadcast_lobby(self, version: int) -> None:
        racers = await db(lobby_racers)(self.race_id)
        await self._broadcast("lobby", v=version, racers=racers)

    def _arm_timer(self, race: Race) -> None:
        if race.status != RaceStatus.RUNNING or race.ends_at is None or self.timer is not None:
            return
        delay = (race.ends_at - timezone.now()).total_seconds()
        self.timer = asyncio.create_task(self._end_on_time(max(0.0, delay) + 0.25))

    async def _end_on_time(self, delay: float) -> None:
        await asyncio.sleep(delay)
        await self._end_if_over()

    async def _end_if_over(self) -> None:
        if await db(race_close_if_over)(race_id=self.race_id):
            await self._announce_end()

    async def _announce_end(self) -> None:
        end = await db(end_message)(self.race_id)
        await self._broadcast("end", **end)

"""A socket's line to its client, kept in bounds and alive, whatever the socket serves.

Frames are rate limited (a flooder is warned once, then closed), parsed by the
socket's protocol and queued to a task that handles them one at a time, so
that the socket's broadcasts go on reaching it while a message waits on the
database; a refusal is answered with an `error`, a failure never leaves the
socket deaf. Both ends keep the line alive (docs/protocol.md): a frame out at
least every WS_HEARTBEAT_S, a client silent for WS_SILENCE_CLOSE_S closed.
A client that stops reading is closed with CLOSE_BEHIND once it is stalled
(races/backlog.py): what the server holds for it stays bounded.
Everything is said in the socket's language, in the worker threads too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Final, Generic, TypeVar

from channels.consumer import get_handler_name
from django.conf import settings
from django.db import DatabaseError
from django.utils import translation
from django.utils.translation import gettext as _

from games.common.errors import BadInput, Refused
from games.i18n.sockets import scope_language
from games.metrics.definitions import SLOW_READERS
from games.races.backlog import Backlog
from games.races.limits import TokenBucket
from games.races.protocol import encode, error, heartbeat
from games.races.socket_loop import TwoReaderConsumer

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
CLOSE_BEHIND: Final = 4012  # the client stopped reading: too much unsent, or for too long
CLOSE_NOT_FOUND: Final = 4404
CLOSE_TRY_AGAIN: Final = 4013  # the database or the channel layer is down: reconnect later
# A move refused because the database failed under it: nothing is acknowledged,
# and a retry with the same id gets the first answer should the commit have
# happened after all (docs/protocol.md).
UNAVAILABLE: Final = "unavailable"

M = TypeVar("M")

logger = logging.getLogger(__name__)


class LineConsumer(TwoReaderConsumer, Generic[M]):
    """Subclasses parse a frame into a message (`parse`) and answer it (`handle`)."""

    language: str
    line: tuple[asyncio.Task[None], ...] = ()
    backlog: Backlog | None = None  # from open_line on

    def parse(self, text: str | None) -> M:
        raise NotImplementedError

    async def handle(self, message: M) -> None:
        raise NotImplementedError

    async def unavailable(self, message: M) -> None:
        """The database failed under `message`: nothing it asked for was acknowledged."""
        await self.send_message(error(UNAVAILABLE, _("the game store is unavailable")))

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

    def open_line(self) -> None:
        """Start reading the client's messages and keeping the line alive."""
        self.bucket = TokenBucket(settings.WS_RATE_PER_S, settings.WS_RATE_PER_S)
        self.dropped = 0
        self.inbox: asyncio.Queue[M] = asyncio.Queue(maxsize=INBOX_SIZE)
        self.heard_at = self.sent_at = time.monotonic()
        self.backlog = Backlog(self.base_send)
        self.taken_at = time.perf_counter()
        self.line = (asyncio.create_task(self._work()), asyncio.create_task(self._keepalive()))

    async def close_line(self) -> None:
        # A client going away is no error: the tasks are awaited, not left pending.
        for task in self.line:
            task.cancel()
        for task in self.line:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def refuse_for_now(self, reason: str) -> None:
        await self.accept()
        await self.send_message(error(UNAVAILABLE, reason))
        await self.close(code=CLOSE_TRY_AGAIN)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.heard_at = time.monotonic()
        if not self.bucket.take():
            self.dropped += 1
            if self.dropped >= FLOOD_CLOSE_AFTER:
                await self.close(code=CLOSE_POLICY, reason="flood")
            elif self.dropped == 1:
                text = _("at most %(n)d messages a second") % {"n": settings.WS_RATE_PER_S}
                await self.send_message(error("flood", text))
            return
        self.dropped = 0
        try:
            message = self.parse(text_data)
        except BadInput as bad:
            await self.send_message(error(bad.code, bad.message))
            if bad.code == "too_big":
                await self.close(code=CLOSE_TOO_BIG, reason="frame too big")
            return
        try:
            self.inbox.put_nowait(message)
        except asyncio.QueueFull:
            await self.send_message(error("flood", _("too many messages waiting for an answer")))

    async def _work(self) -> None:
        while True:
            message = await self.inbox.get()
            self.taken_at = time.perf_counter()  # an answer's latency counts from here
            kind = type(message).__name__
            try:
                with translation.override(self.language):
                    await self.handle(message)
            except Refused as refused:  # a service's rules, or a room's seat check
                await self.send_message(error(refused.code, refused.message))
            except DatabaseError:
                # The database failed under the call (down, restarting, the connection cut).
                logger.warning("socket: %s failed on the database", kind)
                await self.unavailable(message)
            except Exception:
                # Without this, one failure would end the task and leave the
                # socket open but deaf to every later message.
                logger.exception("socket: %s failed", kind)
                text = _("the server failed to handle that")
                await self.send_message(error("server_error", text))

    async def _keepalive(self) -> None:
        """The server's half of the heartbeat: a frame at least every WS_HEARTBEAT_S, and a
        client heard from at least every WS_SILENCE_CLOSE_S (it pings every 20 s)."""
        beat, silence = settings.WS_HEARTBEAT_S, settings.WS_SILENCE_CLOSE_S
        backlog = self.backlog
        assert backlog is not None
        while True:
            await asyncio.sleep(min(beat, silence, backlog.close_s) / 4)
            now = time.monotonic()
            if now - self.heard_at > silence:
                await self.close(code=CLOSE_SILENT)
                return
            if backlog.stalled():
                await self.close_behind()
                return
            if now - self.sent_at >= beat:
                await self.send_message(heartbeat())

    async def send_message(self, message: dict[str, Any]) -> None:
        await self.send_text(encode(message))

    async def send_text(self, text: str) -> None:
        if self.gone:
            return  # nobody left to read it: what was committed is announced anyway
        self.sent_at = time.monotonic()
        await self.send(text_data=text)
        backlog = self.backlog
        if backlog is not None and backlog.unsent() > backlog.close_bytes:
            await self.close_behind()

    async def close_behind(self) -> None:
        """The client stopped reading: closed, its buffer freed (the close frame waits behind
        what it has not read, and the connection is dropped a second later, unanswered)."""
        if self.gone:
            return
        self.gone = True  # nothing more is queued for it
        SLOW_READERS.labels("closed").inc()
        unsent = self.backlog.unsent() if self.backlog is not None else 0
        logger.info("socket closed: the client is %d bytes behind", unsent)
        await self.close(code=CLOSE_BEHIND)

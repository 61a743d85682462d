"""A websocket consumer whose two inputs are each read by a task of its own.

Channels' consumer loop (`await_many_dispatch`) waits on the socket and the
channel layer with `asyncio.wait` and starts a new task for every message it
takes: some three turns of the event loop per message, one message per turn.
In a race every move reaches every socket of the race, and under load their
group messages queued for seconds while the process still had time to spare
(docs/performance.md has the measurement). Here one task reads the socket's
frames and another the channel layer's messages, and each dispatches for as
long as messages are waiting without handing the loop a turn in between.

Group messages are held back until `open_group()`: a socket's first frame is
its snapshot, and broadcasts come after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Final

from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer

# Daphne (Autobahn) refuses 1011 from an application no more than it does 1008:
# the private range, as the race socket's other codes (docs/protocol.md).
CLOSE_SERVER_ERROR: Final = 4011

logger = logging.getLogger(__name__)


class TwoReaderConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    _group_open: asyncio.Event
    _receiving: bool
    # The client has gone: what is still in flight to it is dropped quietly.
    gone: bool = False

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.channel_name = await self.channel_layer.new_channel()
        self.base_send = send
        self._group_open = asyncio.Event()
        self._receiving = False
        reader = asyncio.create_task(self._read_group())
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            if not self._receiving:
                await self._close_channel()

    def open_group(self) -> None:
        """Let the channel layer's messages through (they wait in the layer until then)."""
        self._group_open.set()

    async def _read_group(self) -> None:
        await self._group_open.wait()
        receive, name = self.channel_layer.receive, self.channel_name
        try:
            while True:
                self._receiving = True
                message = await receive(name)
                self._receiving = False
                await self.dispatch(message)
        except Exception:
            if self.gone:  # a client going away is no error
                logger.debug("group message dropped: the socket is closed", exc_info=True)
                return
            # A socket that no longer hears its group must not stay open, deaf:
            # closed, its client reconnects and starts again from a snapshot
            # (Channels' own loop ends the consumer the same way).
            logger.exception("group message failed: closing the socket")
            await self.close(code=CLOSE_SERVER_ERROR)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        self.gone = True
        await super().websocket_disconnect(message)

    async def _close_channel(self) -> None:
        # Channel layers forget a channel (its queue, Redis's subscription)
        # when a receive on it is cancelled, their only way to hear that a
        # consumer is gone: cancel one, as Channels' own loop does on exit.
        while True:
            pending = asyncio.ensure_future(self.channel_layer.receive(self.channel_name))
            await asyncio.sleep(0)  # it runs until it waits on the empty queue
            if pending.done():
                continue  # a message was still waiting: nobody is left to read it
            pending.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pending
            return

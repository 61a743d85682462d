"""The channel layers: channels_redis's publish/subscribe layer, publishing in
parallel, and for one process without Redis, Channels' in-memory layer with its
housekeeping paced.

channels_redis (4.3) holds one lock per Redis connection for the whole of a
publish, its network round trip included, so a process sends one broadcast at
a time, each waiting for the event loop to read Redis's answer. Under load a
busy process's broadcasts queued behind each other for seconds, each a
version gap its receivers then had to repair (docs/performance.md). A publish
shares nothing with another but the client's connection pool, which is safe
to use concurrently; only the lazy set-up of the client needs the lock. At most
`PUBLISH_SLOTS` are in flight at once, below the pool's size.

With several Redis servers in `hosts`, channels_redis shards: each group and
channel lives on the server its name hashes to (docs/scaling.md).

Subscriptions, the receiving task and reconnection are channels_redis's own,
unchanged. The classes below lean on its internals (`_lock`, `_ensure_redis`,
`_layers`): pyproject pins channels-redis below 5, and
tests/deploy/test_channel_layer.py checks the behaviour relied on.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Final

from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close

# redis-py's asyncio pool holds 100 connections and refuses the 101st
# (MaxConnectionsError, "Too many connections"): under bench/arena.py's 500 bots a
# burst of parallel publishes reached it, and those broadcasts were lost. At most
# this many publishes of a process are on the wire to one Redis server at once; the
# rest wait for a slot, which leaves the pool room for the subscriptions.
PUBLISH_SLOTS: Final = 64


class _ParallelPublishShard(RedisSingleShardConnection):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._slots = asyncio.Semaphore(PUBLISH_SLOTS)

    async def publish(self, channel: str, message: bytes) -> None:
        async with self._lock:
            self._ensure_redis()
            client = self._redis
        async with self._slots:
            await client.publish(channel, message)


class _LoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]
    _shards: list[Any]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [_ParallelPublishShard(shard.host, self) for shard in self._shards]


class RedisParallelPublishChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """channels_redis.pubsub.RedisPubSubChannelLayer whose publishes do not wait for each other."""

    # channels_redis reaches these through __getattr__, a new partial on every
    # call; every receive and broadcast of every socket goes through them.
    async def receive(self, channel: str) -> Any:
        return await self._get_layer().receive(channel)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self._get_layer().group_send(group, message)

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        await self._get_layer().send(channel, message)

    def _get_layer(self) -> _LoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer  # type: ignore[no-any-return]


class LocalChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]
    """Channels' in-memory layer, for one process without Redis (the embedded default).

    Channels' layer looks through every channel and group for expired messages
    on every receive and every group send: with hundreds of sockets that scan
    was most of a move's cost (docs/performance.md). Messages expire after a
    minute, so looking once a second changes nothing a client could notice.
    """

    CLEAN_EVERY_S = 1.0
    _next_clean = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_clean:
            return
        self._next_clean = now + self.CLEAN_EVERY_S
        super()._clean_expired()

"""The channel layer (sultan_site/channel_layer.py): channels_redis's publish/subscribe
layer, with broadcasts that do not wait for each other's round trip to Redis."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from sultan_site.channel_layer import PUBLISH_SLOTS, RedisParallelPublishChannelLayer
from tests.services import REDIS_URL, needs_redis

pytestmark = needs_redis

DELAY_S = 0.1
PUBLISHES = 20
# Pub/sub channels are not scoped by Redis's database number: names of this run's own,
# or another run of these tests on the same Redis delivers into ours.
PREFIX = f"test-layer-{os.getpid()}"


@dataclass
class SlowRedis:
    """Redis behind a proxy that holds every answer for DELAY_S: a distant Redis. It counts
    the PUBLISH commands sent to Redis before the first answer of a round reached the
    layer: all of them when they do not wait for each other's round trip, one when they
    do. A count, not a time, so a loaded machine changes nothing."""

    url: str = ""
    published: int = 0
    before_first_answer: int | None = None
    counting: bool = False

    def round_start(self) -> None:
        self.published, self.before_first_answer, self.counting = 0, None, True


@pytest.fixture
async def slow_redis() -> AsyncIterator[SlowRedis]:
    host, port = REDIS_URL.split("//", 1)[1].split("/", 1)[0].split(":")
    proxy = SlowRedis()

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float):
        try:
            while data := await reader.read(65536):
                if delay:
                    await asyncio.sleep(delay)
                    if proxy.counting and proxy.before_first_answer is None:
                        proxy.before_first_answer = proxy.published
                else:
                    proxy.published += data.upper().count(b"PUBLISH")
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def handle(client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        redis_r, redis_w = await asyncio.open_connection(host, int(port))
        await asyncio.gather(pipe(client_r, redis_w, 0), pipe(redis_r, client_w, DELAY_S))

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    proxy.url = f"redis://127.0.0.1:{server.sockets[0].getsockname()[1]}/0"
    yield proxy
    server.close()


async def _publish_many(layer_class: type, proxy: SlowRedis, publishes: int = PUBLISHES) -> int:
    """How many of `publishes` broadcasts went to Redis before the first answer came back."""
    layer = layer_class(hosts=[proxy.url], prefix=PREFIX)
    try:
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        at_once = 0
        for _ in range(2):  # the second time on connections already open
            proxy.round_start()
            await asyncio.gather(
                *(layer.group_send("g", {"type": "x", "n": n}) for n in range(publishes))
            )
            proxy.counting = False
            assert proxy.published == publishes
            at_once = proxy.before_first_answer or 0
            received = {(await layer.receive(channel))["n"] for _ in range(publishes)}
            assert received == set(range(publishes))
        return at_once
    finally:
        await layer.flush()


async def test_broadcasts_do_not_wait_for_each_others_round_trip(slow_redis: SlowRedis):
    assert await _publish_many(RedisParallelPublishChannelLayer, slow_redis) == PUBLISHES


async def test_a_burst_beyond_the_pool_waits_for_a_slot_and_every_broadcast_arrives(
    slow_redis: SlowRedis,
):
    """redis-py's pool refuses its 101st connection: 250 broadcasts at once failed with
    MaxConnectionsError before the slots (bench/arena.py at 500 bots lost broadcasts so)."""
    at_once = await _publish_many(RedisParallelPublishChannelLayer, slow_redis, publishes=250)
    assert at_once == PUBLISH_SLOTS


async def test_the_stock_layer_sends_them_one_round_trip_after_another(slow_redis: SlowRedis):
    # Why the subclass exists; should channels_redis change, this says so.
    assert await _publish_many(RedisPubSubChannelLayer, slow_redis) == 1


async def test_a_broadcast_reaches_a_channel_of_another_process():
    # Two layers on one loop stand for two processes: they share only Redis.
    sender = RedisParallelPublishChannelLayer(hosts=[REDIS_URL], prefix=PREFIX)
    receiver = RedisParallelPublishChannelLayer(hosts=[REDIS_URL], prefix=PREFIX)
    try:
        channel = await receiver.new_channel()
        await receiver.group_add("race-test", channel)
        await sender.group_send("race-test", {"type": "race.forward", "message": {"v": 7}})
        received = await asyncio.wait_for(receiver.receive(channel), 5)
        assert received["message"] == {"v": 7}
    finally:
        await sender.flush()
        await receiver.flush()

"""The in-process channel layer (no Redis): Channels' own, its housekeeping paced."""

from __future__ import annotations

import asyncio

from sultan_site.channel_layer import LocalChannelLayer


async def test_it_delivers_a_broadcast_to_every_channel_of_the_group():
    layer = LocalChannelLayer()
    channels = [await layer.new_channel() for _ in range(3)]
    for channel in channels:
        await layer.group_add("race-1", channel)
    await layer.group_send("race-1", {"type": "race.forward", "text": "{}"})
    for channel in channels:
        assert await asyncio.wait_for(layer.receive(channel), 1) == {
            "type": "race.forward",
            "text": "{}",
        }


async def test_it_still_drops_expired_messages_and_the_channels_that_left_them():
    layer = LocalChannelLayer(expiry=0.05)
    gone, alive = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("race-1", gone)
    await layer.group_send("race-1", {"type": "race.forward", "text": "1"})  # never read
    await asyncio.sleep(LocalChannelLayer.CLEAN_EVERY_S + 0.1)
    await layer.group_add("race-1", alive)
    await layer.group_send("race-1", {"type": "race.forward", "text": "2"})
    assert gone not in layer.channels
    assert list(layer.groups["race-1"]) == [alive]

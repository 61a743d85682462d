"""Racers on two Daphne processes sharing one Redis and one database see each other."""

from __future__ import annotations

import json
import os

import pytest

from tests.live import WebClient, receive_until
from tests.servers import daphne, database_env
from tests.services import REDIS_URL, needs_redis

# CI starts Redis; a laptop without one skips with the reason rather than failing.
pytestmark = needs_redis


@pytest.fixture(scope="module")
def two_servers():
    with database_env("two") as env:
        # Pub/sub channels are not scoped by Redis's database number: a prefix of our own.
        prefix = f"sultan-two-{os.getpid()}"
        env = {
            **env,
            "REDIS_URL": REDIS_URL,
            "SULTAN_RACE_COUNTDOWN_S": "0",
            "SULTAN_CHANNEL_PREFIX": prefix,
        }
        with daphne(env) as first, daphne(env) as second:
            yield first, second


async def test_racers_on_different_processes_see_each_others_progress(two_servers):
    first, second = two_servers
    alice, bob = WebClient(first.url), WebClient(second.url)
    _, race_url = alice.post("/races/new", {"nickname": "alice", "time_limit": 15, "seats": 2})
    code = race_url.rstrip("/").rsplit("/", 1)[1]
    bob.post(f"/r/{code}/join", {"nickname": "bob"})

    alice_ws = await alice.connect(first.ws_url, f"/ws/races/{code}/")
    bob_ws = await bob.connect(second.ws_url, f"/ws/races/{code}/")
    try:
        alice_id = (await receive_until(alice_ws, "snapshot"))["you"]["player"]
        bob_id = (await receive_until(bob_ws, "snapshot"))["you"]["player"]
        await alice_ws.send(json.dumps({"type": "start"}))
        for ws in (alice_ws, bob_ws):
            assert (await receive_until(ws, "snapshot"))["race"]["status"] == "running"
        await alice_ws.send(json.dumps({"type": "move", "token": "draw", "id": "a1", "seq": 0}))
        assert (await receive_until(alice_ws, "ack"))["seq"] == 1
        (seen_by_bob,) = (await receive_until(bob_ws, "progress"))["racers"]
        assert seen_by_bob["player"] == alice_id
        assert seen_by_bob["progress"]["passes_used"] == 1

        await bob_ws.send(json.dumps({"type": "resign", "id": "b1", "seq": 0}))
        assert (await receive_until(bob_ws, "ack"))["view"]["status"] == "resigned"
        racers = (await receive_until(alice_ws, "progress"))["racers"]
        while bob_id not in {r["player"] for r in racers}:  # her own move's may come first
            racers = (await receive_until(alice_ws, "progress"))["racers"]
        (seen_by_alice,) = [r for r in racers if r["player"] == bob_id]
        assert seen_by_alice["progress"]["status"] == "resigned"
    finally:
        await alice_ws.close()
        await bob_ws.close()

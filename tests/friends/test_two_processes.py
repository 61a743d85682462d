"""Presence and invitations across two Daphne processes sharing one Redis and one database,
and presence right after one of them is killed."""

from __future__ import annotations

import asyncio
import json
import os
import time

from tests.live import WebClient, receive_until
from tests.servers import daphne, database_env
from tests.services import REDIS_URL, needs_redis

pytestmark = needs_redis
TTL_S = 3


def _account(server_url: str, name: str) -> WebClient:
    client = WebClient(server_url)
    client.post(
        "/accounts/signup/",
        {"username": name, "password1": "s3cret-Pass!x", "password2": "s3cret-Pass!x"},
    )
    assert client.cookie("sessionid"), f"{name} did not sign up"
    return client


async def test_presence_crosses_processes_and_lapses_when_a_process_is_killed() -> None:
    with database_env("friends") as env:
        env = {
            **env,
            "REDIS_URL": REDIS_URL,
            "SULTAN_CHANNEL_PREFIX": f"sultan-friends-{os.getpid()}",
            "SULTAN_PRESENCE_TTL_S": str(TTL_S),
            "SULTAN_QUOTA_SIGNUP": "1,100",
        }
        with daphne(env) as first, daphne(env) as second:
            alice = _account(first.url, "alice")
            bob = _account(second.url, "bob")
            alice.post("/@/bob/follow", {})
            bob.post("/@/alice/follow", {}, base=second.url)
            alice_ws = await alice.connect(first.ws_url, "/ws/site/")
            assert (await receive_until(alice_ws, "snapshot"))["online"] == []
            bob_ws = await bob.connect(second.ws_url, "/ws/site/")
            await receive_until(bob_ws, "snapshot")
            came = await receive_until(alice_ws, "friend")
            assert (came["player"], came["online"]) == ("bob", True)

            second.process.kill()  # bob's socket is never closed: its heartbeat stops
            second.process.wait(timeout=10)
            killed_at = time.monotonic()
            online = ["bob"]
            while online and time.monotonic() - killed_at < TTL_S * 3:
                await asyncio.sleep(0.5)
                await alice_ws.send(json.dumps({"type": "sync", "v": 0}))
                online = (await receive_until(alice_ws, "snapshot"))["online"]
            assert online == [], "bob stayed online after his process was killed"
            assert time.monotonic() - killed_at >= TTL_S - 1  # lapsed by its heartbeat, not before
            await alice_ws.close()

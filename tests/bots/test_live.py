"""Bots race over a real Daphne: the house bot and docs/api.md's bot, beside a person."""

from __future__ import annotations

import asyncio
import json
import urllib.error

import pytest
import websockets

from tests.bots.helpers import account_with_token, api, docs_bot
from tests.live import WebClient, receive_until
from tests.servers import daphne, database_env

LIVE = {
    "SULTAN_BOT_MIN_GAP_MS": "40",
    "SULTAN_RACE_COUNTDOWN_S": "1",
    "SULTAN_WS_CONNECT_BURST": "100",
}


async def _racers_ready(socket, count: int):
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 30))
        racers = message.get("racers")
        full = message["type"] in ("lobby", "snapshot") and racers and len(racers) == count
        if full and all(r["ready"] for r in racers if not r["host"]):
            return racers


async def test_a_person_races_the_house_bot_and_the_docs_bot_to_the_end(monkeypatch):
    monkeypatch.setenv("BOT_GAP_S", "0.05")
    with database_env("bots") as env, daphne({**env, **LIVE}) as live:
        _, token = account_with_token(live.url, "greedy-bot")
        upgraded = json.load(api(live.url, "/api/v1/bot/account/upgrade", token, "POST"))
        assert upgraded["player"]["bot"] is True

        host = WebClient(live.url)
        _, url = host.post("/races/new", {"nickname": "alice", "time_limit": 15, "seats": 3})
        code = url.rstrip("/").rsplit("/", 1)[1]
        host.post(f"/r/{code}/bot", {"strength": "quick", "pace": "fast"})
        socket = await host.connect(live.ws_url, f"/ws/races/{code}/")
        bot = asyncio.create_task(docs_bot().race(live.url, code, token))

        racers = await _racers_ready(socket, 3)
        assert {(r["nickname"], r["bot"]) for r in racers} == {
            ("alice", False),
            ("Sultan bot", True),
            ("greedy-bot", True),
        }
        await socket.send(json.dumps({"type": "start"}))
        snapshot = await receive_until(socket, "snapshot")
        while snapshot["race"]["status"] != "running":
            snapshot = await receive_until(socket, "snapshot")
        await asyncio.sleep(1.2)  # the countdown
        seq = snapshot["you"]["game"]["view"]["seq"]
        await socket.send(json.dumps({"type": "resign", "id": "r1", "seq": seq}))

        results = await asyncio.wait_for(bot, 120)
        await socket.close()
        by_name = {row["nickname"]: row for row in results}
        assert set(by_name) == {"alice", "Sultan bot", "greedy-bot"}
        assert by_name["alice"]["status"] == "resigned"
        for name in ("Sultan bot", "greedy-bot"):
            assert by_name[name]["bot"] is True
            assert by_name[name]["moves"] > 20  # they played their games out
            assert by_name[name]["status"] in ("won", "lost")

        # The bot's finished game, streamed over HTTP as curl would read it.
        with api(live.url, "/api/v1/account/games", token) as stream:
            assert stream.headers["Content-Type"] == "application/x-ndjson"
            rows = [json.loads(line) for line in stream.read().splitlines()]
        assert [(row["race"], row["player"]["bot"]) for row in rows] == [(code, True)]


async def test_a_read_token_or_a_revoked_one_cannot_open_the_race_socket():
    with database_env("bots_refused") as env, daphne({**env, **LIVE}) as live:
        _, read_token = account_with_token(live.url, "reader", scope="read")
        host = WebClient(live.url)
        _, url = host.post("/races/new", {"nickname": "alice", "time_limit": 15, "seats": 3})
        code = url.rstrip("/").rsplit("/", 1)[1]
        for secret in (read_token, "sultan_not-a-token"):
            with pytest.raises(websockets.InvalidStatus) as refused:
                await websockets.connect(
                    f"{live.ws_url}/ws/races/{code}/",
                    additional_headers={"Authorization": f"Bearer {secret}"},
                )
            assert refused.value.response.status_code == 403
        with pytest.raises(urllib.error.HTTPError) as scope:
            api(live.url, f"/api/v1/races/{code}/join", read_token, "POST")
        assert scope.value.code == 403

"""Revoking a token closes its open race sockets at once, in every process (issue #36, point 3).

A program seated with a play token races over the bearer socket; its owner revokes the
token on /accounts/tokens/ — on the same process, then on another one sharing Redis —
and sends `draw` at once, as the issue's reproduction did: no `ack`, and the socket is
closed with 4401 within a second."""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from typing import Any

import pytest
import websockets

from tests.bots.helpers import account_with_token, api
from tests.live import WebClient, receive_until
from tests.servers import LiveServer, daphne, database_env
from tests.services import REDIS_URL, needs_redis

LIVE = {"SULTAN_RACE_COUNTDOWN_S": "0", "SULTAN_WS_CONNECT_BURST": "100"}
CLOSE_REVOKED = 4401


async def _program_racing(on: LiveServer, username: str) -> tuple[WebClient, Any, Any, int]:
    """A person's race with a program seated by its token: (owner, program socket, the
    person's socket, the token's id), the race running and one draw acknowledged."""
    owner, token = account_with_token(on.url, username)
    _, page = owner.get("/accounts/tokens/")
    (token_id,) = {int(n) for n in re.findall(r"/accounts/tokens/(\d+)/revoke", page)}
    person = WebClient(on.url)
    _, url = person.post("/races/new", {"nickname": "alice", "time_limit": 15, "seats": 2})
    code = url.rstrip("/").rsplit("/", 1)[1]
    api(on.url, f"/api/v1/races/{code}/join", token, "POST").close()
    program = await websockets.connect(
        f"{on.ws_url}/ws/races/{code}/",
        additional_headers={"Authorization": f"Bearer {token}"},
        open_timeout=10,
    )
    await receive_until(program, "snapshot")
    await program.send(json.dumps({"type": "ready", "ready": True}))
    host = await person.connect(on.ws_url, f"/ws/races/{code}/")
    await receive_until(host, "snapshot")
    await host.send(json.dumps({"type": "start"}))
    running = await receive_until(program, "snapshot")
    while running["race"]["status"] != "running":
        running = await receive_until(program, "snapshot")
    await program.send(json.dumps({"type": "move", "token": "draw", "id": "d0", "seq": 0}))
    assert (await receive_until(program, "ack"))["seq"] == 1  # it plays before the revocation
    return owner, program, host, token_id


async def _revoked(program: Any, revoke: Any, *, draws: bool) -> tuple[list[str], int, float]:
    """Revoke, then (if `draws`) send `draw` three times at once: the frame types received,
    the close code, and the seconds from the revocation's answer to the close. Without
    draws only the revocation's message can close the socket that soon."""
    await asyncio.to_thread(revoke)
    revoked_at = time.monotonic()
    seen: list[str] = []
    moves = [{"type": "move", "token": "draw", "id": f"d{seq}", "seq": seq} for seq in (1, 2, 3)]
    closed = await _until_closed(program, moves if draws else [], seen)
    after = time.monotonic() - revoked_at
    assert closed.rcvd is not None, "the server did not close the socket"
    with pytest.raises(websockets.ConnectionClosed):  # nothing more goes through
        await program.send(json.dumps({"type": "move", "token": "draw", "id": "d9", "seq": 1}))
    return seen, closed.rcvd.code, after


async def _until_closed(
    program: Any, sends: list[dict[str, Any]], seen: list[str]
) -> websockets.ConnectionClosed:
    """Send, then read (the types into `seen`) until the server closes; 5 s at most."""
    try:
        for message in sends:
            await program.send(json.dumps(message))
        async with asyncio.timeout(5):
            while True:
                seen.append(json.loads(await program.recv())["type"])
    except websockets.ConnectionClosed as closed:
        return closed
    raise AssertionError("unreachable: the loop ends only by the close or the timeout")


def _revoker(owner: WebClient, token_id: int, base: str) -> Any:
    def revoke() -> None:
        status, _ = owner.post(f"/accounts/tokens/{token_id}/revoke", {}, base=base)
        assert status == 200

    return revoke


@pytest.mark.parametrize("draws", [True, False], ids=["drawing", "idle"])
async def test_it_closes_a_revoked_tokens_socket_with_4401_within_a_second(draws: bool):
    with database_env("revoke_one") as env, daphne({**env, **LIVE}) as live:
        owner, program, host, token_id = await _program_racing(live, "revoked-bot")
        try:
            seen, code, after = await _revoked(
                program, _revoker(owner, token_id, live.url), draws=draws
            )
        finally:
            await program.close()
            await host.close()
        assert "ack" not in seen, f"a revoked token's draw was acknowledged: {seen}"
        assert code == CLOSE_REVOKED
        assert after < 1.0


@needs_redis
async def test_it_closes_a_revoked_tokens_socket_on_another_process():
    with database_env("revoke_two") as env:
        env = {
            **env,
            **LIVE,
            "REDIS_URL": REDIS_URL,
            "SULTAN_CHANNEL_PREFIX": f"sultan-revoke-{os.getpid()}",
        }
        with daphne(env) as first, daphne(env) as second:
            owner, program, host, token_id = await _program_racing(first, "revoked-elsewhere")
            try:
                # The owner's page on the second process; the socket is on the first.
                seen, code, after = await _revoked(
                    program, _revoker(owner, token_id, second.url), draws=False
                )
            finally:
                await program.close()
                await host.close()
            assert "ack" not in seen, f"a revoked token's draw was acknowledged: {seen}"
            assert code == CLOSE_REVOKED
            assert after < 1.0

"""A bare websocket echo on the same server stack (Daphne): the ceiling a race
server is compared with in bench/race_load.py."""

from __future__ import annotations

from typing import Any


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http":
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"echo"})
        return
    if scope["type"] != "websocket":
        return
    while True:
        message = await receive()
        if message["type"] == "websocket.connect":
            await send({"type": "websocket.accept"})
        elif message["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": message.get("text") or ""})
        else:
            return

"""A browser-like HTTP client for live servers: cookies, CSRF, forms; and sockets."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import urllib.parse
import urllib.request
from typing import Any

import websockets


class WebClient:
    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def get(self, path: str) -> tuple[int, str]:
        with self.opener.open(self.base + path, timeout=10) as response:
            return response.status, response.read().decode()

    def post(self, path: str, fields: dict[str, Any], base: str | None = None) -> tuple[int, str]:
        """A form POST with the CSRF token, following the redirect; returns the final URL."""
        if self.cookie("csrftoken") is None:
            self.get("/")
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": self.cookie("csrftoken")})
        request = urllib.request.Request(
            (base or self.base) + path,
            data=data.encode(),
            headers={"Referer": (base or self.base) + "/"},
        )
        with self.opener.open(request, timeout=10) as response:
            return response.status, response.url

    def socket_headers(self, origin: str) -> dict[str, str]:
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        return {"Cookie": cookies, "Origin": origin}

    async def connect(self, ws_base: str, path: str) -> Any:
        origin = self.base
        return await websockets.connect(
            ws_base + path, additional_headers=self.socket_headers(origin), open_timeout=10
        )


async def receive_until(socket: Any, kind: str, timeout: float = 10) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            message: dict[str, Any] = json.loads(await socket.recv())
            if message["type"] == kind:
                return message

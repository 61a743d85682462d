"""The friends' tests: alice, bob and charlie are account players (tests/conftest.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import redis
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import Client

from games.friends import presence
from games.friends.models import Follow
from games.models import Player
from sultan_site.asgi import application


@pytest.fixture(autouse=True)
def _presence_afresh() -> Iterator[None]:
    """Every test starts with nobody online and every version at 0 (presence.py)."""
    _presence_clear()
    yield
    _presence_clear()


def _presence_clear() -> None:
    if settings.REDIS_URL:
        client = redis.Redis.from_url(settings.REDIS_URL)
        try:
            keys = list(client.scan_iter(match=f"{settings.REDIS_KEY_PREFIX}:site:*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()
    presence._backend = None


@pytest.fixture(autouse=True)
def _close_worker_connections() -> None:
    connections.settings["default"]["CONN_MAX_AGE"] = 0


def befriend(a: Player, b: Player) -> None:
    Follow.objects.create(follower=a, followee=b)
    Follow.objects.create(follower=b, followee=a)


def session_key(player: Player) -> str:
    client = Client()
    assert player.user is not None
    client.force_login(player.user)
    return client.cookies["sessionid"].value


@dataclass
class Site:
    """One tab's site socket, keeping every frame it received."""

    communicator: WebsocketCommunicator
    frames: list[dict[str, Any]] = field(default_factory=list)

    async def receive(self, timeout: float = 5) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await self.communicator.receive_from(timeout=timeout))
        self.frames.append(message)
        return message

    async def receive_until(self, kind: str, timeout: float = 5) -> dict[str, Any]:
        while True:
            message = await self.receive(timeout)
            if message["type"] == kind:
                return message

    async def send(self, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        await self.communicator.send_to(text_data=text)

    async def nothing(self, timeout: float = 0.3) -> bool:
        return bool(await self.communicator.receive_nothing(timeout=timeout))

    async def close(self) -> None:
        await self.communicator.disconnect()


def communicator(key: str | None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://127.0.0.1")]
    if key:
        headers.append((b"cookie", f"sessionid={key}".encode()))
    return WebsocketCommunicator(application, "/ws/site/", headers=headers)


async def site_connect(key: str) -> Site:
    comm = communicator(key)
    connected, _ = await comm.connect(timeout=10)
    assert connected
    site = Site(comm)
    assert (await site.receive())["type"] == "snapshot"
    return site

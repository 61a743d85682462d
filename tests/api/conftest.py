"""Tokens and games for the API's tests, through the real services."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.api.services import token_create
from games.models import Player, Race
from tests.pages.conftest import finished_race, live_race


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    settings.RACE_COUNTDOWN_S = 0


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def login(client: Client, player: Player) -> None:
    assert player.user is not None
    client.force_login(player.user)


@pytest.fixture
def alice_read(alice: Player) -> str:
    return token_create(player=alice, name="export", scope="read").secret


@pytest.fixture
def alice_play(alice: Player) -> str:
    return token_create(player=alice, name="bot", scope="play").secret


@pytest.fixture
def bob_read(bob: Player) -> str:
    return token_create(player=bob, name="export", scope="read").secret


def get(client: Client, path: str, secret: str | None = None, accept: str | None = None) -> Any:
    headers = bearer(secret) if secret else {}
    if accept:
        headers["Accept"] = accept
    return client.get(path, headers=headers)


__all__ = ["Race", "bearer", "finished_race", "get", "live_race", "login"]

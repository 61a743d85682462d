"""The fairness suite's players act through the site, as people would: a browser is a
Django test client (its session cookie), an address is the one all test clients share."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.daily.models import DailyAttempt
from games.models import Player

PASSWORD = "a long and honest password"


@pytest.fixture(autouse=True)
def _no_countdown(settings: Any) -> None:
    """Attempts start at once: moves are accepted from the first one."""
    settings.RACE_COUNTDOWN_S = 0


def daily_by_browser(client: Client, nickname: str | None = None) -> DailyAttempt:
    """Take today's `sultan` attempt in this browser (as a new guest when `nickname`)."""
    data = {"variant": "sultan", **({"nickname": nickname} if nickname else {})}
    response = client.post("/daily/play", data)
    assert response.status_code == 302, response.content
    code = response["Location"].split("/")[2]
    return DailyAttempt.objects.select_related("race", "game", "player").get(race__code=code)


def account_with_password(username: str) -> User:
    return User.objects.create_user(username=username, password=PASSWORD)


def log_in(client: Client, username: str) -> Player:
    response = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert response.status_code == 302, response.content
    return Player.objects.get(user__username=username)


def is_unranked(attempt: DailyAttempt) -> bool:
    return type(attempt.game).objects.filter(pk=attempt.game_id, unranked__isnull=False).exists()

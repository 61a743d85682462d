"""The five defects of issue 22, each as a user met it, through the site only (so that
each test runs, and fails, on the code before the fix: checked with the fix stashed)."""

from __future__ import annotations

import secrets

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from games.daily.rules import daily_today
from games.daily.selectors import daily_leaderboard
from games.models import Player
from sultan_site.asgi import application
from tests.daily.helpers import play_some, resign
from tests.fairness.conftest import PASSWORD, daily_by_browser
from tests.pages.helpers import client_for, post_json


def _board() -> list[str]:
    return [s.nickname for s in daily_leaderboard(day=daily_today(), variant="sultan")]


@pytest.mark.django_db
def test_1_a_challenge_does_not_open_the_days_deal(alice: Player, bob: Player):
    taken = daily_by_browser(client_for(alice))
    resign(play_some(taken.game, 3))
    response = client_for(alice).post(f"/games/{taken.game_id}/challenge")
    assert response.status_code == 400
    assert "sealed" in response.content.decode()


@pytest.mark.django_db
def test_2_a_guests_rehearsal_does_not_become_an_accounts_ranked_result():
    User.objects.create_user(username="erin", password=PASSWORD)
    login = Client()
    assert (
        login.post("/accounts/login/", {"username": "erin", "password": PASSWORD}).status_code
        == 302
    )
    login.post("/accounts/logout/")  # the account has its player, and no attempt today
    resign(play_some(daily_by_browser(Client(), "scout").game, 5))
    rehearsal = Client()
    resign(play_some(daily_by_browser(rehearsal, "second").game, 8))
    response = rehearsal.post("/accounts/login/", {"username": "erin", "password": PASSWORD})
    assert response.status_code == 302
    assert "erin" not in _board()


@pytest.mark.django_db(transaction=True)
async def test_3_invented_session_cookies_do_not_bypass_the_connect_limit(alice: Player):
    from asgiref.sync import sync_to_async

    from games.races.services import race_create

    race = await sync_to_async(race_create)(host=alice)
    outcomes = []
    for _ in range(settings.WS_CONNECT_BURST + 1):
        communicator = WebsocketCommunicator(
            application,
            f"/ws/races/{race.code}/",
            headers=[
                (b"origin", b"http://127.0.0.1"),
                (b"cookie", f"sessionid={secrets.token_hex(16)}".encode()),
            ],
        )
        connected, code = await communicator.connect(timeout=10)
        if connected:
            await communicator.disconnect()
        outcomes.append((connected, code))
    assert outcomes[-1] == (False, 4008)


@pytest.mark.django_db
def test_4_a_nul_or_an_override_in_a_nickname_is_refused():
    for nickname in ("a\u0000b", "\u202eevil"):
        response = post_json(Client(), "/api/practice", {"nickname": nickname})
        assert response.status_code == 400, nickname
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_5_guests_from_one_address_are_throttled():
    answers = [post_json(Client(), "/api/practice", {}).status_code for _ in range(50)]
    assert 429 in answers
    assert Player.objects.count() < 50

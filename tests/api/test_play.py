"""Taking a seat with a play token: the lobby's rules, answered with HTTP statuses."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Player, RaceEntry
from games.races.services import race_create, race_join
from tests.api.conftest import bearer, login

pytestmark = pytest.mark.django_db


def test_a_play_token_takes_a_seat_and_is_told_the_socket(
    client: Client, alice: Player, bob: Player, alice_play: str
):
    race = race_create(host=bob)
    response = client.post(f"/api/v1/races/{race.code}/join", headers=bearer(alice_play))
    assert response.status_code == 200
    assert response.json()["socket"] == f"/ws/races/{race.code}/"
    assert RaceEntry.objects.filter(race=race, player=alice, left_at__isnull=True).exists()


def test_a_full_race_or_an_unknown_one_seats_nobody(
    client: Client, alice: Player, bob: Player, charlie: Player, alice_play: str
):
    race = race_create(host=bob, seat_limit=2)
    race_join(race=race, player=charlie)
    full = client.post(f"/api/v1/races/{race.code}/join", headers=bearer(alice_play))
    assert full.status_code == 409
    assert full.json()["code"] == "full"
    assert not RaceEntry.objects.filter(race=race, player=alice).exists()
    unknown = client.post("/api/v1/races/zzzz-zzzz/join", headers=bearer(alice_play))
    assert unknown.status_code == 404


def test_a_bots_name_says_bot_on_its_profile(client: Client, alice: Player, alice_play: str):
    assert client.post("/api/v1/bot/account/upgrade", headers=bearer(alice_play)).status_code == 200
    page = client.get("/@/alice/").content.decode()
    assert 'class="tag tag-bot"' in page
    login(client, alice)
    assert "This account is a bot" in client.get("/accounts/tokens/").content.decode()

"""A newcomer who started as "Guest" picks a name (or keeps an offered one) the first
time the name would be shown to others: a race's seat, a challenge, a daily board."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from games.accounts.names import nickname_suggestion
from games.accounts.selectors import SESSION_PLAYER_KEY
from games.accounts.services import nickname_clean
from games.challenges.models import Challenge
from games.models import Player, RaceEntry
from games.races.services import race_create
from games.store.services import game_create, game_resign
from tests.pages.helpers import start_practice

pytestmark = pytest.mark.django_db

_VALUE = re.compile(r'name="nickname"[^>]*value="([^"]+)"')


def _default_guest() -> tuple[Client, Player]:
    client = Client()
    start_practice(client)
    player = Player.objects.get(pk=client.session[SESSION_PLAYER_KEY])
    assert player.nickname == "Guest"
    assert not player.nickname_chosen
    return client, player


def test_a_guest_under_the_default_name_is_asked_for_one_before_taking_a_seat(alice: Player):
    client, guest = _default_guest()
    race = race_create(host=alice)
    page = client.get(f"/r/{race.code}/").content.decode()
    offered = _VALUE.search(page)
    assert offered, "the join form offers a name"
    refused = client.post(f"/r/{race.code}/join", {})
    assert refused.status_code == 400
    assert "Pick a nickname first" in refused.content.decode()
    assert not RaceEntry.objects.filter(race=race, player=guest).exists()

    client.post(f"/r/{race.code}/join", {"nickname": offered.group(1)})
    guest.refresh_from_db()
    assert (guest.nickname, guest.nickname_chosen) == (offered.group(1), True)
    assert RaceEntry.objects.filter(race=race, player=guest).exists()


def test_a_challenge_is_made_under_a_chosen_name_never_guest():
    client, guest = _default_guest()
    game = game_create(player=guest, variant="sultan", seed=7)
    game_resign(game_id=game.pk, player=guest, client_move_id="r", expected_seq=0)
    refused = client.post(f"/games/{game.pk}/challenge", {})
    assert refused.status_code == 400
    assert not Challenge.objects.exists()
    assert "nickname" in client.get(f"/games/{game.pk}/replay/").content.decode()

    client.post(f"/games/{game.pk}/challenge", {"nickname": "Scheherazade"})
    challenge = Challenge.objects.get()
    page = client.get(f"/c/{challenge.code}/").content.decode()
    assert "Scheherazade" in page
    assert "Guest" not in page


def test_a_named_guest_is_not_asked_again(alice: Player):
    client = Client()
    client.post("/guest", {"nickname": "bob"})
    race = race_create(host=alice)
    assert client.post(f"/r/{race.code}/join", {}).status_code == 302
    assert RaceEntry.objects.filter(race=race, player__nickname="bob").exists()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_an_offered_name_passes_the_one_name_check(language: str):
    with translation.override(language):
        names = {nickname_suggestion() for _ in range(50)}
    assert len(names) > 10
    for name in names:
        assert nickname_clean(name) == name

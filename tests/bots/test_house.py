"""Seating the house bot: the host's "add a bot", and a public lobby that waited too long."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.api.models import AccessToken
from games.bots.house import HOUSE_NICKNAME, HouseBotRefused, house_bot_add, house_bot_fill
from games.common.errors import Refused
from games.models import Player, Race, RaceEntry, RaceStatus
from games.races.matchmaking import race_now
from games.races.services import race_create, race_join, race_start
from tests.api.conftest import login

pytestmark = pytest.mark.django_db


def _seated(race: Race) -> list[str]:
    entries = RaceEntry.objects.filter(race=race, left_at__isnull=True).select_related("player")
    return sorted(entry.player.nickname for entry in entries)


def _add(race: Race, by: Player, **options: Any) -> Any:
    fields = {"strength": "greedy", "pace": "calm", "address": "10.0.0.1", "socket_base": "ws://x"}
    return house_bot_add(race=race, by=by, **{**fields, **options})


def test_the_host_seats_the_house_bot_with_a_play_token_for_that_race(alice: Player):
    race = race_create(host=alice)
    run = _add(race, alice, strength="full", pace="fast")
    assert _seated(race) == sorted(["alice", HOUSE_NICKNAME])
    bot = Player.objects.get(nickname=HOUSE_NICKNAME)
    assert bot.is_bot
    token = AccessToken.objects.get(player=bot)
    assert (token.scope, token.name) == ("play", f"race {race.code}")
    assert run.gap_ms == 300  # "fast" is the bots' minimum


@pytest.mark.parametrize(
    ("options", "code"),
    [({"strength": "godlike"}, "bad_request"), ({"pace": "warp"}, "bad_request")],
)
def test_a_bad_choice_seats_nobody(alice: Player, options: dict[str, str], code: str):
    race = race_create(host=alice)
    with pytest.raises(HouseBotRefused) as refused:
        _add(race, alice, **options)
    assert refused.value.code == code
    assert _seated(race) == ["alice"]


def test_only_the_host_of_a_lobby_adds_a_bot(client: Client, alice: Player, bob: Player):
    race = race_create(host=alice)
    race_join(race=race, player=bob)
    login(client, bob)
    response = client.post(f"/r/{race.code}/bot", {"strength": "greedy", "pace": "calm"})
    assert response.status_code == 400
    assert "only the host adds a bot" in response.content.decode()
    race_start(race=race, player=alice, countdown_s=0)
    with pytest.raises(Refused) as refused:
        _add(race, alice)
    assert refused.value.code == "not_open"
    assert _seated(race) == ["alice", "bob"]


def test_a_public_race_takes_no_bot_from_its_racers(alice: Player):
    seat = race_now(player=alice, variant="sultan", minutes=5)
    with pytest.raises(HouseBotRefused) as refused:
        _add(seat.race, alice)
    assert refused.value.code == "public"


def test_a_public_lobby_alone_too_long_gets_the_house_bot(alice: Player):
    race = race_now(player=alice, variant="sultan", minutes=5).race
    RaceEntry.objects.filter(race=race, player=alice).update(connections=1)  # her page is open
    assert house_bot_fill(race_id=race.pk, socket_base="ws://x") is not None
    race.refresh_from_db()
    assert race.status == RaceStatus.RUNNING  # the second seat started the countdown
    assert _seated(race) == sorted(["alice", HOUSE_NICKNAME])


def test_a_public_lobby_someone_joined_or_left_is_not_filled(alice: Player, bob: Player):
    race = race_now(player=alice, variant="sultan", minutes=5).race
    assert house_bot_fill(race_id=race.pk, socket_base="ws://x") is None  # nobody is here
    race_now(player=bob, variant="sultan", minutes=5)
    assert house_bot_fill(race_id=race.pk, socket_base="ws://x") is None  # it started already
    assert HOUSE_NICKNAME not in _seated(race)


def test_a_public_lobby_says_the_house_bot_will_come(client: Client, alice: Player, settings):
    settings.SULTAN_BOT_FILL_AFTER_S = 45
    race = race_now(player=alice, variant="sultan", minutes=5).race
    login(client, alice)
    page = client.get(f"/r/{race.code}/").content.decode()
    assert "If nobody else comes within 45 seconds, Sultan bot takes the second seat" in page
    assert 'id="lobby-bot"' not in page

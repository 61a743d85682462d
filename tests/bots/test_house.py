"""Seating the house bot: the host's "add a bot", and a public lobby that waited too long."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from games.api.models import AccessToken
from games.bots.address import bot_socket_base, bound_address_forget, bound_address_note
from games.bots.house import HOUSE_NICKNAME, HouseBotRefused, house_bot_add, house_bot_fill
from games.common.errors import Refused
from games.models import Player, Race, RaceEntry, RaceStatus
from games.races.matchmaking import race_now
from games.races.services import race_create, race_join, race_start
from tests.api.conftest import login

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _bot_address(settings: Any) -> Iterator[None]:
    """Somewhere for the bot to go (nothing connects: its thread starts on a commit that
    these tests roll back); as a process that has served no connection yet."""
    settings.SULTAN_BOT_SOCKET_URL = "ws://127.0.0.1:9"
    bound_address_forget()
    yield
    bound_address_forget()


def _seated(race: Race) -> list[str]:
    entries = RaceEntry.objects.filter(race=race, left_at__isnull=True).select_related("player")
    return sorted(entry.player.nickname for entry in entries)


def _add(race: Race, by: Player, **options: Any) -> Any:
    fields = {"strength": "greedy", "pace": "calm", "address": "10.0.0.1"}
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
    assert house_bot_fill(race_id=race.pk) is not None
    race.refresh_from_db()
    assert race.status == RaceStatus.RUNNING  # the second seat started the countdown
    assert _seated(race) == sorted(["alice", HOUSE_NICKNAME])


def test_a_public_lobby_someone_joined_or_left_is_not_filled(alice: Player, bob: Player):
    race = race_now(player=alice, variant="sultan", minutes=5).race
    assert house_bot_fill(race_id=race.pk) is None  # nobody is here
    race_now(player=bob, variant="sultan", minutes=5)
    assert house_bot_fill(race_id=race.pk) is None  # it started already
    assert HOUSE_NICKNAME not in _seated(race)


def test_a_public_lobby_says_the_house_bot_will_come(client: Client, alice: Player, settings):
    settings.SULTAN_BOT_FILL_AFTER_S = 45
    race = race_now(player=alice, variant="sultan", minutes=5).race
    login(client, alice)
    page = client.get(f"/r/{race.code}/").content.decode()
    assert "If nobody else comes within 45 seconds, Sultan bot takes the second seat" in page
    assert 'id="lobby-bot"' not in page


def test_the_bot_goes_to_the_setting_else_to_the_address_this_process_serves_on(settings):
    assert bot_socket_base() == "ws://127.0.0.1:9"
    settings.SULTAN_BOT_SOCKET_URL = ""
    assert bot_socket_base() is None
    bound_address_note(None)  # no address (a Unix socket's scope)
    bound_address_note(["/run/sultan.sock", None])
    bound_address_note(["0.0.0.0", 8000])  # never a socket's local end
    assert bot_socket_base() is None
    bound_address_note(["::1", 8001])
    bound_address_note(["127.0.0.1", 8002])  # the first one stays
    assert bot_socket_base() == "ws://[::1]:8001"


def test_it_seats_no_bot_when_it_knows_no_address_of_its_own(
    client: Client, alice: Player, settings
):
    settings.SULTAN_BOT_SOCKET_URL = ""
    race = race_create(host=alice)
    login(client, alice)
    forged = {"Host": "127.0.0.1:9", "Origin": "http://127.0.0.1:9"}
    response = client.post(
        f"/r/{race.code}/bot", {"strength": "greedy", "pace": "calm"}, headers=forged
    )
    assert response.status_code == 400
    assert "the house bot is not available on this server" in response.content.decode()
    assert _seated(race) == ["alice"]
    assert not AccessToken.objects.exists()


def test_it_refuses_a_host_the_site_does_not_serve_before_any_view(
    client: Client, alice: Player, settings
):
    """DEBUG's default ALLOWED_HOSTS is the loopback names alone (a port is not part of the
    check: which is why the bot's address never comes from the Host)."""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
    race = race_create(host=alice)
    login(client, alice)
    response = client.post(
        f"/r/{race.code}/bot",
        {"strength": "greedy", "pace": "calm"},
        headers={"Host": "evil.example"},
    )
    assert response.status_code == 400
    assert _seated(race) == ["alice"]

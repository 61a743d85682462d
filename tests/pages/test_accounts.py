"""Sign up, log in, log out; a guest's games become the new account's."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django.fixtures import Settings

from games.accounts.selectors import SESSION_PLAYER_KEY
from games.accounts.services import (
    ClaimRefused,
    player_claim_for_user,
    player_create_guest,
    player_for_user,
    player_rename,
    player_take_guest_games,
)
from games.common.errors import BadInput
from games.models import Game, Player
from games.moderation.services import player_ban
from games.races.services import race_create, race_join
from games.store.services import game_create
from tests.pages.helpers import client_for, play, start_practice

pytestmark = pytest.mark.django_db
PASSWORD = "camel-caravan-93"


@pytest.fixture(autouse=True)
def _fast_hashing(settings: Settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _sign_up(client: Client, username: str = "scheherazade", **extra: str) -> Any:
    fields = {"username": username, "password1": PASSWORD, "password2": PASSWORD, **extra}
    return client.post("/accounts/signup/", fields)


def test_the_account_pages_render() -> None:
    for url in ("/accounts/signup/", "/accounts/login/"):
        response = Client().get(url)
        assert response.status_code == 200
        assert b'name="password' in response.content


def test_signing_up_creates_the_account_and_signs_in() -> None:
    client = Client()
    response = _sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == "/"
    user = User.objects.get(username="scheherazade")
    assert int(client.session["_auth_user_id"]) == user.pk
    assert "scheherazade" in client.get("/").content.decode()


def test_a_guest_who_signs_up_keeps_their_games() -> None:
    client = Client()
    game_id = start_practice(client, 61)["game"]["id"]
    play(client, game_id, ["draw", "resign"])
    guest = Player.objects.get(pk=client.session[SESSION_PLAYER_KEY])
    _sign_up(client, "sinbad")
    guest.refresh_from_db()
    user = User.objects.get(username="sinbad")
    assert guest.user_id == user.pk
    assert guest.nickname == "sinbad"
    assert Player.objects.count() == 1
    assert Game.objects.get(pk=game_id).player_id == guest.pk
    history = client.get("/history/").content.decode()
    assert f"/games/{game_id}/replay/" in history


def test_a_refused_sign_up_changes_nothing() -> None:
    client = Client()
    client.post("/guest", {"nickname": "Ali"})
    response = client.post(
        "/accounts/signup/", {"username": "ali", "password1": PASSWORD, "password2": "different"}
    )
    assert response.status_code == 400
    assert b"field-error" in response.content
    assert not User.objects.exists()
    assert Player.objects.get().is_guest


def test_a_taken_username_is_refused(alice: Player) -> None:
    response = _sign_up(Client(), "alice")
    assert response.status_code == 400
    assert User.objects.filter(username="alice").count() == 1


def test_logging_in_and_out() -> None:
    User.objects.create_user(username="harun", password=PASSWORD)
    client = Client()
    wrong = client.post("/accounts/login/", {"username": "harun", "password": "nope"})
    assert wrong.status_code == 400
    assert b"alert-error" in wrong.content
    right = client.post("/accounts/login/", {"username": "harun", "password": PASSWORD})
    assert right.status_code == 302
    assert right["Location"] == "/"
    assert "_auth_user_id" in client.session
    assert client.get("/accounts/logout/").status_code == 405  # a link cannot log anyone out
    out = client.post("/accounts/logout/")
    assert out.status_code == 302
    assert "_auth_user_id" not in client.session


def test_the_login_page_tells_a_guest_their_games_come_along() -> None:
    client = Client()
    client.post("/guest", {"nickname": "Ali"})
    assert (
        "brings that guest’s games into your account"
        in client.get("/accounts/login/").content.decode()
    )


def _log_in(client: Client, username: str) -> None:
    response = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert response.status_code == 302


def test_a_guest_who_logs_in_brings_their_games_into_the_account() -> None:
    user = User.objects.create_user(username="harun", password=PASSWORD)
    account = player_for_user(user=user)
    earlier = game_create(player=account, variant="sultan", seed=5)
    client = Client()
    game_id = start_practice(client, 61)["game"]["id"]
    seq = play(client, game_id, ["draw"])
    _log_in(client, "harun")
    assert Game.objects.get(pk=game_id).player_id == account.pk
    assert set(Game.objects.filter(player=account).values_list("pk", flat=True)) == {
        earlier.pk,
        game_id,
    }
    # The game plays on under the account, its log untouched.
    assert play(client, game_id, ["draw"], seq=seq) == 2


def test_a_race_the_account_played_too_stays_with_the_guest(alice: Player) -> None:
    guest = player_create_guest(nickname="ali")
    race = race_create(host=guest)
    race_join(race=race, player=alice)
    theirs = game_create(player=guest, variant=race.variant, race=race)
    game_create(player=alice, variant=race.variant, race=race)
    practice = game_create(player=guest, variant="sultan", seed=9)
    assert alice.user is not None
    assert player_take_guest_games(guest=guest, user=alice.user) == 1
    assert Game.objects.get(pk=practice.pk).player_id == alice.pk
    assert Game.objects.get(pk=theirs.pk).player_id == guest.pk  # one game per player per race
    race.refresh_from_db()
    assert race.host_id == guest.pk


def test_a_guest_hosting_a_lobby_hands_it_to_the_account(alice: Player) -> None:
    guest = player_create_guest(nickname="ali")
    race = race_create(host=guest)
    version = race.version
    assert alice.user is not None
    player_take_guest_games(guest=guest, user=alice.user)
    race.refresh_from_db()
    assert race.host_id == alice.pk
    assert list(race.entries.values_list("player_id", flat=True)) == [alice.pk]
    assert race.version > version  # its clients ask for a snapshot with the new name


def test_a_banned_guest_keeps_its_games(alice: Player, moderator: User) -> None:
    guest = player_create_guest(nickname="ali")
    game = game_create(player=guest, variant="sultan", seed=9)
    player_ban(player=guest, moderator=moderator, reason="a script")
    assert alice.user is not None
    assert player_take_guest_games(guest=guest, user=alice.user) == 0
    assert Game.objects.get(pk=game.pk).player_id == guest.pk


def test_an_account_without_a_player_claims_the_guest_on_login() -> None:
    user = User.objects.create_user(username="harun", password=PASSWORD)
    client = Client()
    game_id = start_practice(client, 61)["game"]["id"]
    guest = Player.objects.get(pk=client.session[SESSION_PLAYER_KEY])
    _log_in(client, "harun")
    guest.refresh_from_db()
    assert guest.user_id == user.pk
    assert Game.objects.get(pk=game_id).player_id == guest.pk


def test_signed_in_players_skip_the_sign_up_page(alice: Player) -> None:
    assert client_for(alice).get("/accounts/signup/").status_code == 302


def test_claiming_refuses_a_guest_already_claimed(alice: Player) -> None:
    guest = player_create_guest(nickname="g")
    first = User.objects.create_user(username="first")
    player_claim_for_user(player=guest, user=first)
    second = User.objects.create_user(username="second")
    with pytest.raises(ClaimRefused):
        player_claim_for_user(player=guest, user=second)
    guest.refresh_from_db()
    assert guest.user_id == first.pk


def test_claiming_refuses_an_account_that_has_a_player(alice: Player) -> None:
    guest = player_create_guest(nickname="g")
    assert alice.user is not None
    with pytest.raises(ClaimRefused):
        player_claim_for_user(player=guest, user=alice.user)
    guest.refresh_from_db()
    assert guest.is_guest


def test_a_claimed_guest_is_no_longer_reached_by_the_old_session() -> None:
    client = Client()
    start_practice(client, 2)
    old_session = client.session[SESSION_PLAYER_KEY]
    _sign_up(client, "harun")
    stranger = Client()
    session = stranger.session
    session[SESSION_PLAYER_KEY] = old_session
    session.save()
    assert b"No games yet" in stranger.get("/history/").content


def test_only_guests_are_renamed(alice: Player) -> None:
    with pytest.raises(ValueError, match="username"):
        player_rename(player=alice, nickname="Other")
    guest = player_create_guest(nickname="g")
    with pytest.raises(BadInput, match="1 to 40 characters"):
        player_rename(player=guest, nickname="   ")
    with pytest.raises(BadInput, match="control characters"):
        player_rename(player=guest, nickname=" \t ")
    assert player_rename(player=guest, nickname=" Nur  ").nickname == "Nur"

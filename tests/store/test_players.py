"""Guests play under a nickname; only their session reaches their player."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.backends.db import SessionStore
from django.http import HttpRequest
from django.test import Client, RequestFactory

from games.accounts.selectors import player_for_request
from games.accounts.services import player_create_guest, player_for_user, player_start_guest_session
from games.common.errors import BadInput
from games.models import Player
from games.store.services import MoveRejected, game_create
from tests.store.helpers import append, log_of

pytestmark = pytest.mark.django_db


def browser(user=None) -> HttpRequest:
    request = RequestFactory().get("/")
    request.session = SessionStore()
    request.user = user or AnonymousUser()
    return request


def test_two_guests_may_share_a_nickname_but_not_a_player():
    first_browser, second_browser = browser(), browser()
    first = player_start_guest_session(request=first_browser, nickname="zed")
    second = player_start_guest_session(request=second_browser, nickname="zed")
    assert first.pk != second.pk
    assert player_for_request(first_browser) == first
    assert player_for_request(second_browser) == second
    assert player_for_request(browser()) is None


def test_a_guests_game_is_closed_to_another_guest_with_the_same_nickname():
    owner_browser, impostor_browser = browser(), browser()
    owner = player_start_guest_session(request=owner_browser, nickname="zed")
    impostor = player_start_guest_session(request=impostor_browser, nickname="zed")
    game = game_create(player=owner, variant="sultan", seed=1)
    with pytest.raises(MoveRejected) as caught:
        append(game, player_for_request(impostor_browser) or impostor, "draw")
    assert caught.value.code == "forbidden"
    assert log_of(game) == []


def test_an_account_with_a_guests_nickname_gets_its_own_player():
    guest = player_create_guest(nickname="yara")
    user = User.objects.create_user(username="yara")
    Client().force_login(user)  # logging in makes the account's player
    account = player_for_request(browser(user))
    assert account is not None
    assert account != guest
    assert account == player_for_user(user=user)


def test_reading_who_the_visitor_is_creates_no_player():
    user = User.objects.create_user(username="zeno")
    assert player_for_request(browser(user)) is None
    assert not Player.objects.filter(user=user).exists()


def test_a_session_cannot_reach_a_guest_that_an_account_has_claimed():
    request = browser()
    guest = player_start_guest_session(request=request, nickname="wim")
    guest.user = User.objects.create_user(username="wim")
    guest.save()
    assert player_for_request(request) is None


def test_nicknames_are_trimmed_and_never_empty():
    assert player_create_guest(nickname="  a   b  ").nickname == "a b"
    with pytest.raises(BadInput, match="1 to 40 characters"):
        player_create_guest(nickname="   ")

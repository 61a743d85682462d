"""Following, friends, blocking, the invitation setting, and the pages that change them."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from games.accounts.services import player_create_guest
from games.friends.models import INVITE_FRIENDS, INVITE_NOBODY, Block, Follow
from games.friends.selectors import friends_are, invite_privacy
from games.friends.services import (
    FriendRefused,
    block_create,
    follow_create,
    follow_delete,
    privacy_set,
)
from games.models import Player, RaceEntry
from games.races.matchmaking import race_now
from games.races.services import RaceRefused
from tests.friends.conftest import befriend
from tests.pages.helpers import client_for

pytestmark = pytest.mark.django_db


def test_mutual_follows_are_friends_and_one_way_is_not(alice: Player, bob: Player) -> None:
    follow_create(follower=alice, followee=bob)
    assert not friends_are(a=alice, b=bob)
    follow_create(follower=bob, followee=alice)
    assert friends_are(a=alice, b=bob)
    follow_delete(follower=bob, followee=alice)
    assert not friends_are(a=alice, b=bob)


def test_following_twice_keeps_one_follow(alice: Player, bob: Player) -> None:
    follow_create(follower=alice, followee=bob)
    follow_create(follower=alice, followee=bob)
    assert Follow.objects.count() == 1


def test_the_database_refuses_a_second_follow_and_a_follow_of_oneself(
    alice: Player, bob: Player
) -> None:
    Follow.objects.create(follower=alice, followee=bob)
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=alice, followee=bob)
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=alice, followee=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Block.objects.create(blocker=alice, blocked=alice)


def test_it_refuses_following_oneself_with_its_reason(alice: Player) -> None:
    with pytest.raises(FriendRefused) as refused:
        follow_create(follower=alice, followee=alice)
    assert refused.value.code == "oneself"
    assert not Follow.objects.exists()


def test_a_blocked_player_cannot_follow_the_blocker(alice: Player, bob: Player) -> None:
    block_create(blocker=alice, blocked=bob)
    with pytest.raises(FriendRefused) as refused:
        follow_create(follower=bob, followee=alice)
    assert refused.value.code == "blocked"
    assert not Follow.objects.exists()


def test_blocking_ends_both_follows(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    block_create(blocker=alice, blocked=bob)
    assert not Follow.objects.exists()


def test_a_guest_cannot_follow(bob: Player) -> None:
    guest = player_create_guest(nickname="dave")
    with pytest.raises(FriendRefused) as refused:
        follow_create(follower=guest, followee=bob)
    assert refused.value.code == "not_account"


def test_invitations_come_from_friends_only_until_changed(alice: Player) -> None:
    assert invite_privacy(player=alice) == INVITE_FRIENDS
    privacy_set(player=alice, invitations=INVITE_NOBODY)
    assert invite_privacy(player=alice) == INVITE_NOBODY
    with pytest.raises(FriendRefused):
        privacy_set(player=alice, invitations="everyone")
    assert invite_privacy(player=alice) == INVITE_NOBODY


def test_friends_page_answers_an_account_player(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    response = client_for(alice).get("/friends/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-presence="bob"' in page
    assert "friend" in page


def test_friends_page_sends_a_guest_to_log_in_and_says_why() -> None:
    client = Client()
    response = client.get("/friends/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/friends/")
    page = client.get(response["Location"]).content.decode()
    assert "a guest has no friends list" in page


def test_profile_shows_follow_and_the_button_follows(alice: Player, bob: Player) -> None:
    client = client_for(alice)
    page = client.get("/@/bob/").content.decode()
    assert "/@/bob/follow" in page
    response = client.post("/@/bob/follow")
    assert response.status_code == 302
    assert Follow.objects.filter(follower=alice, followee=bob).exists()
    page = client.get("/@/bob/").content.decode()
    assert "/@/bob/unfollow" in page
    assert "You follow bob." in page


def test_own_profile_and_a_visitor_have_no_follow_button(alice: Player) -> None:
    assert "/@/alice/follow" not in client_for(alice).get("/@/alice/").content.decode()
    assert "/@/alice/follow" not in Client().get("/@/alice/").content.decode()


def test_profile_block_button_blocks_and_unknown_action_changes_nothing(
    alice: Player, bob: Player
) -> None:
    client = client_for(alice)
    client.post("/@/bob/block")
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    client.post("/@/bob/befriend")
    client.post("/@/nobody/follow")
    assert not Follow.objects.exists()


def test_race_now_never_seats_two_players_one_of_whom_blocks_the_other(
    alice: Player, bob: Player, charlie: Player
) -> None:
    block_create(blocker=bob, blocked=alice)
    seat = race_now(player=bob, variant="sultan", minutes=5)
    with pytest.raises(RaceRefused) as refused:
        race_now(player=alice, variant="sultan", minutes=5)
    assert refused.value.code == "no_seat"
    assert not RaceEntry.objects.filter(race=seat.race, player=alice).exists()
    assert race_now(player=charlie, variant="sultan", minutes=5).race == seat.race

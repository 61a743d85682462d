"""Inviting from a profile: whoever the profile's player lets invite them sees a working
Invite, with the race form's choices (#38 points 2 and 3)."""

from __future__ import annotations

import pytest

from games.friends.models import INVITE_ANYONE, INVITE_NOBODY, Invitation
from games.friends.services import follow_create, privacy_set
from games.models import Player, Race
from tests.friends.conftest import befriend
from tests.pages.helpers import client_for

pytestmark = pytest.mark.django_db


def _invite_form(page: str) -> str:
    assert 'id="profile-invite"' in page, "no Invite on the profile"
    return page.split('id="profile-invite"')[1].split("</details>")[0]


def test_a_stranger_sees_a_working_invite_when_the_player_accepts_anyone(
    alice: Player, bob: Player
) -> None:
    privacy_set(player=bob, invitations=INVITE_ANYONE)
    client = client_for(alice)
    form = _invite_form(client.get("/@/bob/").content.decode())
    assert 'name="to" value="bob"' in form
    response = client.post(
        "/friends/invite",
        {"to": ["bob"], "variant": "sultan", "time_limit": "15", "next": "/@/bob/"},
    )
    invitation = Invitation.objects.get()
    assert response["Location"] == f"/r/{invitation.race.code}/"
    assert (invitation.inviter, invitation.invitee) == (alice, bob)


def test_no_invite_where_the_player_accepts_friends_only_or_no_one(
    alice: Player, bob: Player, charlie: Player
) -> None:
    follow_create(follower=alice, followee=bob)  # one way: not friends
    assert 'id="profile-invite"' not in client_for(alice).get("/@/bob/").content.decode()
    befriend(alice, charlie)
    privacy_set(player=charlie, invitations=INVITE_NOBODY)
    assert 'id="profile-invite"' not in client_for(alice).get("/@/charlie/").content.decode()


def test_the_profile_invite_offers_variant_time_limit_and_automatic_moves(
    alice: Player, bob: Player
) -> None:
    befriend(alice, bob)
    client = client_for(alice)
    form = _invite_form(client.get("/@/bob/").content.decode())
    assert '<select id="profile-invite-variant" name="variant">' in form
    assert 'name="time_limit" type="number"' in form
    assert 'name="automatic_moves"' in form
    assert 'type="hidden" name="time_limit"' not in form
    client.post(
        "/friends/invite",
        {"to": ["bob"], "variant": "sultan", "time_limit": "7", "automatic_moves": "on"},
    )
    race = Race.objects.get()
    assert (race.time_limit_s, race.automatic_moves) == (420, True)


def test_friends_page_lets_you_tick_one_who_accepts_anyone_but_not_a_one_way_follow(
    alice: Player, bob: Player, charlie: Player
) -> None:
    follow_create(follower=alice, followee=bob)
    follow_create(follower=alice, followee=charlie)
    privacy_set(player=bob, invitations=INVITE_ANYONE)
    page = client_for(alice).get("/friends/").content.decode()
    assert '<input type="checkbox" name="to" value="bob">' in page
    assert '<input type="checkbox" name="to" value="charlie" disabled>' in page

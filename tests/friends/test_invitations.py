"""Inviting to a race: who may, the quota, answering once, expiring."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.friends.models import INVITE_ANYONE, INVITE_NOBODY, Invitation, InvitationStatus
from games.friends.services import (
    FriendRefused,
    block_create,
    invitation_answer,
    invitations_expire,
    privacy_set,
)
from games.models import Player, Race, RaceEntry
from games.quotas.quotas import QuotaExceeded
from games.races.services import race_create, race_join, race_leave
from tests.friends.conftest import befriend
from tests.friends.helpers import invite, open_lobbies
from tests.pages.helpers import client_for

pytestmark = pytest.mark.django_db


def test_a_friend_is_invited_to_a_new_race_of_the_settings_asked(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    befriend(alice, charlie)
    made = invite(alice, bob, charlie, variant="sultan", automatic_moves=True, time_limit_s=300)
    race = made[0].race
    assert {i.invitee for i in made} == {bob, charlie}
    assert (race.host, race.automatic_moves, race.time_limit_s) == (alice, True, 300)
    assert all(i.status == InvitationStatus.PENDING for i in made)


def test_it_refuses_invitation_from_blocked_player(alice: Player, bob: Player) -> None:
    privacy_set(player=bob, invitations=INVITE_ANYONE)
    block_create(blocker=bob, blocked=alice)
    with pytest.raises(FriendRefused) as refused:
        invite(alice, bob)
    assert refused.value.code == "blocked"
    assert not Race.objects.exists()


def test_it_refuses_invitation_to_someone_who_accepts_from_no_one(
    alice: Player, bob: Player
) -> None:
    befriend(alice, bob)
    privacy_set(player=bob, invitations=INVITE_NOBODY)
    with pytest.raises(FriendRefused) as refused:
        invite(alice, bob)
    assert refused.value.code == "no_invitations"
    assert not Invitation.objects.exists()


def test_by_default_only_friends_may_invite(alice: Player, bob: Player) -> None:
    with pytest.raises(FriendRefused) as refused:
        invite(alice, bob)
    assert refused.value.code == "friends_only"
    privacy_set(player=bob, invitations=INVITE_ANYONE)
    assert len(invite(alice, bob)) == 1


def test_one_invitee_refused_refuses_the_lot(alice: Player, bob: Player, charlie: Player) -> None:
    befriend(alice, bob)
    with pytest.raises(FriendRefused):
        invite(alice, bob, charlie)
    assert not Invitation.objects.exists()


def _invite_quota(settings: Any, per_player: int) -> None:
    """Only `per_player` invitations a window for each player (the address's far off)."""
    settings.SULTAN_QUOTAS = {**settings.SULTAN_QUOTAS, "invite": (per_player, 100)}


@pytest.fixture
def two_invitations(alice: Player, bob: Player, settings: Any) -> None:
    """alice and bob are friends, and alice may invite twice before the quota refuses her."""
    _invite_quota(settings, 2)
    befriend(alice, bob)


@pytest.mark.usefixtures("two_invitations")
def test_invitations_are_quota_limited(alice: Player, bob: Player) -> None:
    invite(alice, bob)
    invite(alice, bob)
    with pytest.raises(QuotaExceeded):
        invite(alice, bob)
    # The second renewed the first: a re-invitation goes to the lobby already open (#37).
    assert Invitation.objects.count() == 1


@pytest.mark.usefixtures("two_invitations")
def test_refused_invitations_spend_no_quota(alice: Player, bob: Player, charlie: Player) -> None:
    befriend(charlie, bob)
    lobby = race_create(host=alice, seat_limit=2)
    race_join(race=lobby, player=charlie)
    (charlies,) = invite(charlie, bob)  # to a lobby alice does not sit in
    for race, code in [(lobby, "full"), (charlies.race, "not_open"), (lobby, "full")]:
        with pytest.raises(FriendRefused) as refused:
            invite(alice, bob, race=race)
        assert refused.value.code == code
    race_leave(race=lobby, player=charlie)
    # Three refused, none spent: both of her two go, and the quota still counts them.
    invite(alice, bob, race=lobby)
    invite(alice, bob, race=lobby)
    with pytest.raises(QuotaExceeded):
        invite(alice, bob, race=lobby)


def test_an_invitation_over_quota_leaves_the_lobbies_as_they_were(
    alice: Player, bob: Player, charlie: Player, settings: Any
) -> None:
    _invite_quota(settings, 1)
    befriend(alice, bob)
    befriend(alice, charlie)
    (first,) = invite(alice, bob)
    # Other settings would withdraw her lobby and open another: the quota refuses it
    # last, and that undoes both.
    with pytest.raises(QuotaExceeded):
        invite(alice, charlie, time_limit_s=300)
    assert open_lobbies(alice) == [first.race]
    first.refresh_from_db()
    assert first.status == InvitationStatus.PENDING
    assert not Invitation.objects.filter(invitee=charlie).exists()


def test_accepting_seats_the_invitee_in_the_lobby(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    (invitation,) = invite(alice, bob)
    invitation_answer(invitation_id=invitation.pk, player=bob, accept=True)
    assert RaceEntry.objects.filter(race=invitation.race, player=bob, left_at=None).exists()
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.ACCEPTED


def test_an_invitation_is_answered_once_and_only_by_its_invitee(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    (invitation,) = invite(alice, bob)
    with pytest.raises(FriendRefused) as refused:
        invitation_answer(invitation_id=invitation.pk, player=charlie, accept=True)
    assert refused.value.code == "not_found"
    invitation_answer(invitation_id=invitation.pk, player=bob, accept=False)
    with pytest.raises(FriendRefused) as refused:
        invitation_answer(invitation_id=invitation.pk, player=bob, accept=True)
    assert refused.value.code == "answered"
    assert not RaceEntry.objects.filter(player=bob).exists()


def test_an_expired_invitation_cannot_be_accepted_and_is_closed_once(
    alice: Player, bob: Player
) -> None:
    befriend(alice, bob)
    (invitation,) = invite(alice, bob)
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    with pytest.raises(FriendRefused) as refused:
        invitation_answer(invitation_id=invitation.pk, player=bob, accept=True)
    assert refused.value.code == "expired"
    assert invitations_expire(player=alice) == 1
    assert invitations_expire(player=bob) == 0
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.DECLINED


def test_an_invitation_to_a_lobby_needs_the_inviter_seated_there(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    befriend(charlie, bob)
    (first,) = invite(alice, bob)
    with pytest.raises(FriendRefused) as refused:
        invite(charlie, bob, race=first.race)
    assert refused.value.code == "not_open"


def test_the_invite_form_goes_to_the_new_lobby(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    response = client_for(alice).post(
        "/friends/invite", {"to": ["bob"], "variant": "sultan", "time_limit": "5"}
    )
    (race,) = open_lobbies(alice)
    assert response.status_code == 302
    assert response["Location"] == f"/r/{race.code}/"
    assert race.time_limit_s == 300


def test_the_invite_form_refused_says_why_and_makes_nothing(alice: Player, bob: Player) -> None:
    client = client_for(alice)
    response = client.post(
        "/friends/invite", {"to": ["bob"], "variant": "sultan", "time_limit": "5"}, follow=True
    )
    assert "bob accepts invitations from friends only" in response.content.decode()
    assert not Race.objects.exists()


def test_a_lobby_offers_to_invite_friends_not_seated_and_invites_to_it(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    befriend(alice, charlie)
    race = race_create(host=alice, variant="sultan")
    race_join(race=race, player=charlie)
    client = client_for(alice)
    form = client.get(f"/r/{race.code}/").content.decode().split('id="lobby-invite"')[1]
    form = form.split("</form>")[0]
    assert 'value="bob"' in form
    assert 'value="charlie"' not in form  # seated already
    response = client.post(
        "/friends/invite",
        {"to": ["bob"], "race": race.code, "variant": "sultan", "time_limit": "15"},
    )
    assert response["Location"] == f"/r/{race.code}/"
    assert Invitation.objects.get().race == race

"""An invitation's lobby does not outlive it, and a host can close their own lobby
(#38 point 4, #37 point 3)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.accounts.services import player_for_user
from games.friends.models import Invitation
from games.friends.services import (
    FriendRefused,
    block_create,
    invitation_answer,
    invitations_expire,
)
from games.models import Player, Race, RaceEntry, RaceEvent, RaceStatus
from games.races.selectors import race_info, race_role
from games.races.services import MAX_SEATS, RaceRefused, race_close, race_create, race_join
from games.tournaments.models import Tournament
from games.tournaments.selectors import player_racing_elsewhere
from games.tournaments.services import TournamentRefused, tournament_create, tournament_join
from tests.friends.conftest import befriend
from tests.friends.helpers import invite, open_lobbies
from tests.pages.helpers import client_for

pytestmark = pytest.mark.django_db


def _closed(race: Race) -> bool:
    race.refresh_from_db()
    return race.status == RaceStatus.FINISHED and race.starts_at is None


def test_a_declined_invitation_closes_its_lobby_and_frees_the_inviter(
    alice: Player, bob: Player
) -> None:
    befriend(alice, bob)
    (invitation,) = invite(alice, bob)
    race = invitation.race
    invitation_answer(invitation_id=invitation.pk, player=bob, accept=False)
    assert _closed(race)
    assert not RaceEntry.objects.filter(race=race, left_at__isnull=True).exists()
    assert race_role(race=race, player=alice) != "racer"
    assert race_info(race=race)["closed"] is True
    assert RaceEvent.objects.filter(race=race, kind="closed").count() == 1
    with pytest.raises(RaceRefused) as refused:
        race_join(race=race, player=bob)
    assert refused.value.code == "not_open"


def test_an_expired_invitation_closes_its_lobby(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    (invitation,) = invite(alice, bob)
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert invitations_expire(player=bob) == 1
    assert _closed(invitation.race)


def test_a_lobby_stays_while_another_invitation_is_pending_or_someone_joined(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    befriend(alice, charlie)
    first, second = invite(alice, bob, charlie)
    race = first.race
    invitation_answer(invitation_id=first.pk, player=bob, accept=False)
    assert not _closed(race)  # charlie may still come
    invitation_answer(invitation_id=second.pk, player=charlie, accept=True)
    assert not _closed(race)


def test_a_lobby_someone_joined_by_its_link_stays_after_a_decline(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    (invitation,) = invite(alice, bob)
    race_join(race=invitation.race, player=charlie)
    invitation_answer(invitation_id=invitation.pk, player=bob, accept=False)
    assert not _closed(invitation.race)


def test_a_block_closes_the_lobby_of_the_invitations_it_cancels(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    (invitation,) = invite(alice, bob)
    block_create(blocker=bob, blocked=alice)
    assert _closed(invitation.race)


def test_the_host_closes_their_lobby_and_only_they_may(alice: Player, bob: Player) -> None:
    race = race_create(host=alice, variant="sultan")
    race_join(race=race, player=bob)
    with pytest.raises(RaceRefused) as refused:
        race_close(race=race, player=bob)
    assert refused.value.code == "not_host"
    race_close(race=race, player=alice)
    assert _closed(race)
    assert not RaceEntry.objects.filter(race=race, left_at__isnull=True).exists()
    with pytest.raises(RaceRefused) as again:
        race_close(race=race, player=alice)
    assert again.value.code == "not_open"


def test_a_closed_lobby_keeps_its_deal_secret(alice: Player) -> None:
    race = race_create(host=alice, variant="sultan")
    race_close(race=race, player=alice)
    race.refresh_from_db()
    info = race_info(race=race)
    assert info["closed"] is True
    assert "seed" not in info
    assert "deal_code" not in info


def _evening(creator: Player) -> Tournament:
    return tournament_create(
        creator=creator,
        name="Evening",
        variant="sultan",
        minutes=30,
        seat_limit=4,
        automatic_moves=False,
        public=True,
    )


def test_a_closed_lobby_page_says_so(alice: Player, bob: Player) -> None:
    race = race_create(host=alice, variant="sultan")
    race_close(race=race, player=alice)
    page = client_for(bob).get(f"/r/{race.code}/").content.decode()
    closed = page.split('id="race-closed"')[1].split(">")[0]
    assert "hidden" not in closed


def test_a_declined_invitation_no_longer_keeps_its_inviter_out_of_a_tournament(
    alice: Player, bob: Player
) -> None:
    befriend(alice, bob)
    (invitation,) = invite(alice, bob)
    tournament = _evening(alice)
    assert player_racing_elsewhere(player=alice, tournament=tournament) == invitation.race.code
    with pytest.raises(TournamentRefused) as refused:
        tournament_join(tournament=tournament, player=alice)
    assert refused.value.code == "racing"
    invitation_answer(invitation_id=invitation.pk, player=bob, accept=False)
    assert player_racing_elsewhere(player=alice, tournament=tournament) is None
    entry = tournament_join(tournament=tournament, player=alice)
    assert entry.player_id == alice.pk
    assert not entry.paused


def test_reinviting_seats_the_invitees_in_the_open_lobby_instead_of_a_new_one(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    befriend(alice, charlie)
    (first,) = invite(alice, bob)
    (again,) = invite(alice, bob)
    (third,) = invite(alice, charlie)
    assert first.race_id == again.race_id == third.race_id
    assert open_lobbies(alice) == [first.race]
    # bob's invitation is the one row, renewed: one answer seats him.
    assert Invitation.objects.filter(invitee=bob).count() == 1
    invitation_answer(invitation_id=again.pk, player=bob, accept=True)
    assert race_role(race=first.race, player=bob) == "racer"


def test_an_invitation_of_other_settings_replaces_the_empty_lobby_it_would_pile_on(
    alice: Player, bob: Player
) -> None:
    befriend(alice, bob)
    (first,) = invite(alice, bob)
    (second,) = invite(alice, bob, variant="sultan", time_limit_s=300)
    assert second.race_id != first.race_id
    assert _closed(first.race)
    first.refresh_from_db()
    assert first.status == Invitation.Status.DECLINED  # bob can no longer answer it
    assert open_lobbies(alice) == [second.race]


def test_a_lobby_someone_sits_in_stays_when_its_host_invites_to_other_settings(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    befriend(alice, charlie)
    (first,) = invite(alice, bob)
    invitation_answer(invitation_id=first.pk, player=bob, accept=True)
    (second,) = invite(alice, charlie, variant="sultan", time_limit_s=300)
    assert second.race_id != first.race_id
    assert not _closed(first.race)  # bob sits there: a real race, closed by its host only


def test_the_host_closes_the_lobby_by_a_form_that_needs_its_csrf_token(
    alice: Player, bob: Player
) -> None:
    race = race_create(host=alice, variant="sultan")
    race_join(race=race, player=bob)
    forged = Client(enforce_csrf_checks=True)
    assert alice.user is not None
    forged.force_login(alice.user)
    assert forged.post(f"/r/{race.code}/close").status_code == 403
    assert not _closed(race)

    refused = client_for(bob).post(f"/r/{race.code}/close")
    assert refused.status_code == 400
    assert "only the host closes the lobby" in refused.content.decode()
    assert not _closed(race)

    closed = client_for(alice).post(f"/r/{race.code}/close")
    assert closed.status_code == 302
    assert closed["Location"] == f"/r/{race.code}/"
    assert _closed(race)
    assert RaceEvent.objects.filter(race=race, kind="closed").count() == 1
    # bob, seated a moment ago, reads on the page that it closed.
    page = client_for(bob).get(f"/r/{race.code}/").content.decode()
    assert "hidden" not in page.split('id="race-closed"')[1].split(">")[0]
    again = client_for(alice).post(f"/r/{race.code}/close")
    assert again.status_code == 400


def test_closing_by_form_answers_bad_addresses_and_methods_clearly(alice: Player) -> None:
    race = race_create(host=alice, variant="sultan")
    client = client_for(alice)
    assert client.post("/r/nosuchrace/close").status_code == 404
    assert client.get(f"/r/{race.code}/close").status_code == 405
    assert Client().post(f"/r/{race.code}/close").status_code == 400  # nobody: not the host
    assert not _closed(race)


def _friends_of(host: Player, count: int) -> list[Player]:
    friends = []
    for n in range(count):
        user = User.objects.create_user(username=f"friend{n}")
        friend = player_for_user(user=user)
        befriend(host, friend)
        friends.append(friend)
    return friends


def test_an_invitation_the_open_lobby_has_no_seat_for_opens_a_new_one(alice: Player) -> None:
    *party, late = _friends_of(alice, MAX_SEATS)
    invitations = invite(alice, *party)
    full = invitations[0].race
    for invitation in invitations:
        invitation_answer(invitation_id=invitation.pk, player=invitation.invitee, accept=True)
    assert RaceEntry.objects.filter(race=full, left_at__isnull=True).count() == MAX_SEATS
    (latecomer,) = invite(alice, late)
    assert open_lobbies(alice) == [full, latecomer.race]
    # The full lobby is a real race: it stays as it was, its racers seated.
    full.refresh_from_db()
    assert full.status == RaceStatus.LOBBY
    assert RaceEntry.objects.filter(race=full, left_at__isnull=True).count() == MAX_SEATS
    # The latecomer's Accept finds a seat instead of "this race is full".
    invitation_answer(invitation_id=latecomer.pk, player=late, accept=True)
    assert race_role(race=latecomer.race, player=late) == "racer"


def test_a_lobby_with_seats_left_still_takes_the_invitees_that_fit(alice: Player) -> None:
    party = _friends_of(alice, MAX_SEATS - 1)
    seated, *rest = party
    (first,) = invite(alice, seated)
    invitation_answer(invitation_id=first.pk, player=seated, accept=True)
    # alice and one friend seated: six seats left for the six others, and for the
    # friend already seated, whom inviting again needs no seat for.
    again = invite(alice, *rest, seated)
    assert {i.race_id for i in again} == {first.race_id}


def test_an_invitation_to_a_named_lobby_without_a_seat_for_them_is_refused(
    alice: Player,
) -> None:
    *party, late = _friends_of(alice, MAX_SEATS)
    invitations = invite(alice, *party)
    full = invitations[0].race
    for invitation in invitations:
        invitation_answer(invitation_id=invitation.pk, player=invitation.invitee, accept=True)
    with pytest.raises(FriendRefused) as refused:
        invite(alice, late, race=full)
    assert refused.value.code == "full"
    assert not Invitation.objects.filter(invitee=late).exists()

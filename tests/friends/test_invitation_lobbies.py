"""An invitation's lobby does not outlive it, and a host can close their own lobby
(#38 point 4, #37 point 3)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.friends.models import Invitation
from games.friends.services import (
    block_create,
    invitation_answer,
    invitation_send,
    invitations_expire,
)
from games.models import Player, Race, RaceEntry, RaceEvent, RaceStatus
from games.races.selectors import race_info, race_role
from games.races.services import RaceRefused, race_close, race_create, race_join
from games.tournaments.selectors import player_racing_elsewhere
from games.tournaments.services import tournament_create
from tests.friends.conftest import befriend
from tests.pages.helpers import client_for

pytestmark = pytest.mark.django_db

ADDRESS = "127.0.0.1"


def _invite(inviter: Player, *invitees: Player) -> list[Invitation]:
    return invitation_send(inviter=inviter, invitees=list(invitees), address=ADDRESS)


def _closed(race: Race) -> bool:
    race.refresh_from_db()
    return race.status == RaceStatus.FINISHED and race.starts_at is None


def test_a_declined_invitation_closes_its_lobby_and_frees_the_inviter(
    alice: Player, bob: Player
) -> None:
    befriend(alice, bob)
    (invitation,) = _invite(alice, bob)
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
    (invitation,) = _invite(alice, bob)
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
    first, second = _invite(alice, bob, charlie)
    race = first.race
    invitation_answer(invitation_id=first.pk, player=bob, accept=False)
    assert not _closed(race)  # charlie may still come
    invitation_answer(invitation_id=second.pk, player=charlie, accept=True)
    assert not _closed(race)


def test_a_lobby_someone_joined_by_its_link_stays_after_a_decline(
    alice: Player, bob: Player, charlie: Player
) -> None:
    befriend(alice, bob)
    (invitation,) = _invite(alice, bob)
    race_join(race=invitation.race, player=charlie)
    invitation_answer(invitation_id=invitation.pk, player=bob, accept=False)
    assert not _closed(invitation.race)


def test_a_block_closes_the_lobby_of_the_invitations_it_cancels(alice: Player, bob: Player) -> None:
    befriend(alice, bob)
    (invitation,) = _invite(alice, bob)
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


def test_a_closed_invitation_lobby_no_longer_keeps_its_host_out_of_a_tournament(
    alice: Player, bob: Player
) -> None:
    befriend(alice, bob)
    (invitation,) = _invite(alice, bob)
    tournament = tournament_create(
        creator=alice,
        name="Evening",
        variant="sultan",
        minutes=30,
        seat_limit=4,
        automatic_moves=False,
        public=True,
    )
    assert player_racing_elsewhere(player=alice, tournament=tournament) == invitation.race.code
    invitation_answer(invitation_id=invitation.pk, player=bob, accept=False)
    assert player_racing_elsewhere(player=alice, tournament=tournament) is None


def test_a_closed_lobby_page_says_so(alice: Player, bob: Player) -> None:
    race = race_create(host=alice, variant="sultan")
    race_close(race=race, player=alice)
    page = client_for(bob).get(f"/r/{race.code}/").content.decode()
    closed = page.split('id="race-closed"')[1].split(">")[0]
    assert "hidden" not in closed

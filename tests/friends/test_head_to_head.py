"""The record between two players, from their finished races' standings."""

from __future__ import annotations

import pytest

from games.friends.headtohead import head_to_head
from games.models import Game, Player, Race
from games.races.services import race_create, race_join, race_start
from tests.pages.helpers import client_for
from tests.ratings.conftest import finish_race

pytestmark = pytest.mark.django_db


def _race(first: Player, *others: Player) -> Race:
    """A finished race `first` wins: one card played against none."""
    return finish_race([first, *others], rated=False, moves=[1] + [0] * len(others))


def test_it_counts_the_races_both_ran_and_who_finished_ahead(
    alice: Player, bob: Player, charlie: Player
) -> None:
    _race(alice, bob)
    _race(bob, alice)
    _race(alice, bob, charlie)
    _race(alice, charlie)  # bob was not there
    record = head_to_head(me=alice, other=bob)
    assert (record.races, record.ahead, record.behind) == (3, 2, 1)
    mirrored = head_to_head(me=bob, other=alice)
    assert (mirrored.races, mirrored.ahead, mirrored.behind) == (3, 1, 2)
    assert len(record.deals) == 3
    assert {Game.objects.get(pk=d.theirs).player for d in record.deals} == {bob}


def test_a_race_still_running_is_not_counted(alice: Player, bob: Player) -> None:
    race = race_create(host=alice, variant="sultan")
    race_join(race=race, player=bob)
    race_start(race=race, player=alice, countdown_s=0)
    assert head_to_head(me=alice, other=bob).races == 0


def test_the_profile_shows_the_record_with_both_replays(alice: Player, bob: Player) -> None:
    _race(bob, alice)
    page = client_for(alice).get("/@/bob/").content.decode()
    assert "You and bob: 1 race, you ahead in 0, bob in 1." in page
    (game,) = Game.objects.filter(player=bob)
    assert f"/games/{game.pk}/replay/" in page

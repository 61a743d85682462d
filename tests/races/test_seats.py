"""A race's free seats, one rule (races.selectors.race_seats_left) for joining, the
lobby's "add a bot" and an invitation's lobby: a racer who left holds no seat."""

from __future__ import annotations

import pytest

from games.models import Player
from games.races.selectors import race_seats_left
from games.races.services import RaceRefused, race_create, race_join, race_leave
from tests.pages.helpers import client_for

pytestmark = pytest.mark.django_db


def test_only_seated_racers_take_seats_and_one_who_left_frees_theirs(
    alice: Player, bob: Player, charlie: Player
) -> None:
    race = race_create(host=alice, seat_limit=3)
    assert race_seats_left(race=race) == 2
    race_join(race=race, player=bob)
    assert race_seats_left(race=race) == 1
    race_leave(race=race, player=bob)
    assert race_seats_left(race=race) == 2
    race_join(race=race, player=charlie)
    race_join(race=race, player=bob)  # back in the seat he left
    assert race_seats_left(race=race) == 0


def test_a_race_without_a_seat_left_refuses_a_join_and_offers_its_host_no_bot(
    alice: Player, bob: Player, charlie: Player
) -> None:
    race = race_create(host=alice, seat_limit=2)
    race_join(race=race, player=bob)
    with pytest.raises(RaceRefused) as refused:
        race_join(race=race, player=charlie)
    assert refused.value.code == "full"
    assert 'id="lobby-bot"' not in client_for(alice).get(f"/r/{race.code}/").content.decode()
    race_leave(race=race, player=bob)
    assert 'id="lobby-bot"' in client_for(alice).get(f"/r/{race.code}/").content.decode()
    race_join(race=race, player=charlie)  # bob's seat, freed

"""Races set up through the store's services, as the race socket would drive them."""

from __future__ import annotations

import pytest

from games.engine import legal_moves
from games.models import Game, Player, Race
from games.races.moves import race_close_if_over
from games.races.services import race_create, race_join, race_start
from games.store.selectors import game_state
from tests.races.play import race_append


def race_play(race: Race, player: Player, count: int) -> Game:
    """`count` moves of `player` in `race`, foundation plays first."""
    game = Game.objects.get(race=race, player=player)
    for _ in range(count):
        game.refresh_from_db()
        legal = legal_moves(game_state(game=game))
        token = next((m for m in legal if m[-1].isdigit()), legal[0])
        race_append(game, player, token)
    game.refresh_from_db()
    return game


def race_resign(race: Race, player: Player) -> None:
    game = Game.objects.get(race=race, player=player)
    race_append(game, player, "resign")
    race_close_if_over(race_id=race.pk)


@pytest.fixture
def live_race(alice: Player, bob: Player) -> Race:
    """A race alice and bob are running: alice has made three moves."""
    race = race_create(host=alice, variant="sultan", time_limit_s=900, seat_limit=4)
    race_join(race=race, player=bob)
    race_start(race=race, player=alice, countdown_s=0)
    race.refresh_from_db()
    race_play(race, alice, 3)
    return race


@pytest.fixture
def finished_race(live_race: Race, alice: Player, bob: Player) -> Race:
    """The same race, over: bob played twice, then both resigned."""
    race_play(live_race, bob, 2)
    race_resign(live_race, alice)
    race_resign(live_race, bob)
    live_race.refresh_from_db()
    assert live_race.status == "finished"
    return live_race

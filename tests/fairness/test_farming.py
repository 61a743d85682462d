"""Ratings against throwaway accounts (docs/ratings.md, "Farming"): a player races fresh
accounts that resign at once, many times; nothing moves their rating. And a rated
race on a deal a racer has seen (a winnable deal drawn again, a rematch) rates
everyone else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.accounts.services import player_for_user
from games.fairness.models import UnrankedGame
from games.models import Game, Player
from games.ratings.models import Rating, RatingChange
from games.ratings.skill import ESTABLISHED_RACES, MIN_RATED_MOVES, MU
from games.store.services import game_create
from tests.ratings.conftest import finish_race, fresh_deal

pytestmark = pytest.mark.django_db(transaction=True)


def _throwaway(n: int) -> Player:
    return player_for_user(user=User.objects.create_user(username=f"throwaway{n}"))


def _establish(players: list[Player]) -> None:
    """Honest races among them until each has ESTABLISHED_RACES behind them."""
    for _ in range(ESTABLISHED_RACES):
        finish_race(players, moves=[8, 6, 7][: len(players)])


def _rating(player: Player) -> float:
    return Rating.objects.get(player=player, variant="sultan").mu


def test_beating_throwaways_that_resign_at_once_moves_no_rating(
    alice: Player, bob: Player, charlie: Player
):
    _establish([alice, bob, charlie])
    before = _rating(alice)
    for n in range(6):
        finish_race([alice, _throwaway(n)], moves=[8, 0])  # it resigns before a move
    assert _rating(alice) == before
    assert Rating.objects.get(player=alice, variant="sultan").races == ESTABLISHED_RACES + 6
    # The throwaways lost as racers who resigned: farming them costs them, not alice.
    assert all(r.mu < MU for r in Rating.objects.filter(player__user__username__startswith="t"))


def test_a_racer_with_too_few_moves_weighs_nothing_even_when_established(
    alice: Player, bob: Player, charlie: Player
):
    _establish([alice, bob, charlie])
    before = (_rating(alice), _rating(bob))
    finish_race([alice, bob], moves=[8, MIN_RATED_MOVES - 1])
    assert _rating(alice) == before[0]  # bob gave nothing
    assert _rating(bob) < before[1]  # and lost as the race said
    finish_race([alice, bob], moves=[8, MIN_RATED_MOVES])
    assert _rating(alice) > before[0]


def test_a_new_account_moves_nobody_until_it_is_established(
    alice: Player, bob: Player, charlie: Player
):
    _establish([alice, bob, charlie])
    before = _rating(alice)
    fresh = _throwaway(1)
    finish_race([alice, fresh], moves=[8, 6])
    assert _rating(alice) == before
    assert _rating(fresh) < MU  # the newcomer is rated against everyone


def test_a_rated_race_on_a_deal_a_racer_has_seen_rates_the_others(
    alice: Player, bob: Player, charlie: Player, monkeypatch: pytest.MonkeyPatch
):
    # A deal comes up that bob has practised (a winnable deal drawn twice, one in 2**63).
    seen = fresh_deal("sultan")
    practised = game_create(player=bob, variant="sultan", seed=seen)
    monkeypatch.setattr("tests.ratings.conftest.fresh_deal", lambda variant: seen)
    race = finish_race([alice, bob, charlie], moves=[3, 8, 1])
    bobs = Game.objects.get(race=race, player=bob)
    assert UnrankedGame.objects.get().game == bobs
    assert UnrankedGame.objects.get().seen_in == practised
    rated = dict(RatingChange.objects.filter(race=race).values_list("player", "rank"))
    assert rated == {alice.pk: 1, charlie.pk: 2}  # bob's best result is his, unranked


def test_the_race_page_tells_a_racer_who_has_seen_its_deal(alice: Player, bob: Player):
    from games.races.services import race_create
    from tests.pages.helpers import client_for

    race = race_create(host=alice, rated=True)
    assert "Unranked." not in client_for(bob).get(f"/r/{race.code}/").content.decode()
    game_create(player=bob, variant="pysolfc", seed=race.seed)
    assert "Unranked." in client_for(bob).get(f"/r/{race.code}/").content.decode()

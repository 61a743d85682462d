"""What a result is worth against whom (games/fairness/worth.py; docs/anticheat.md,
"Farming"), through the services as racers would drive them: two fresh accounts
farming each other get nothing, in a tournament, in public races ("Race now") and in
rated private races; an established player gains nothing from racers who barely
moved; a pair counts three times a day; the leaderboard lists established players;
and the rule is a projection like the rest: a rebuild gives the same numbers."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from games.accounts.services import player_for_user
from games.fairness.models import UnrankedGame
from games.fairness.worth import MIN_PLACED_MOVES
from games.models import Game, Player, Race
from games.moderation.services import game_void
from games.races.matchmaking import race_now
from games.races.moves import race_close_if_over
from games.ratings.models import Rating, RatingChange
from games.ratings.selectors import leaderboard, player_rank
from games.ratings.skill import ESTABLISHED_RACES, MU
from games.store.services import game_create
from games.tournaments.models import TournamentRace
from games.tournaments.pairing import pairing_tick
from games.tournaments.selectors import tournament_standings
from games.tournaments.services import tournament_create, tournament_join
from tests.ratings.conftest import finish_race, fresh_deal, projection
from tests.tournaments.helpers import cards_up, race_go, resign

pytestmark = pytest.mark.django_db(transaction=True)

FARMED = 5  # the five races


def _account(name: str) -> Player:
    return player_for_user(user=User.objects.create_user(username=name))


def _establish(players: list[Player], races: int = ESTABLISHED_RACES) -> None:
    """Honest races of four or more, everyone placed: each has met three distinct
    opponents after the first (and is listed after ESTABLISHED_RACES). A player races
    at most 11 races in a test (tests/ratings/conftest.py's deals)."""
    for _ in range(races):
        finish_race(players, moves=[8, 7, 6, 5, 5, 5][: len(players)])


def _mu(player: Player) -> float:
    return Rating.objects.get(player=player, variant="sultan").mu


def _on_board(player: Player) -> bool:
    return any(row.nickname == player.nickname for row in leaderboard(variant="sultan"))


# The reproduction: two fresh accounts A and B; each race B resigns at 0 cards
# and A plays one card and resigns.


def test_two_fresh_accounts_farm_nothing_in_a_tournament(alice: Player, bob: Player, settings: Any):
    settings.TOURNAMENT_REST_S = 0  # seated again at the next tick: the farm's pace
    tournament = tournament_create(
        creator=alice,
        name="Farm",
        variant="sultan",
        minutes=30,
        seat_limit=2,
        automatic_moves=False,
        public=True,
    )
    tournament_join(tournament=tournament, player=alice)
    tournament_join(tournament=tournament, player=bob)
    for _ in range(FARMED):
        pairing_tick()  # seats them (or the last race's end already has)
        race = TournamentRace.objects.get(tournament=tournament, scored_at__isnull=True).race
        race_go(race)
        resign(bob, race)
        assert cards_up(alice, race, 1) == 1
        resign(alice, race)
        race_close_if_over(race_id=race.pk)
        pairing_tick()  # scores it, should its end not have
    assert (
        TournamentRace.objects.filter(tournament=tournament, scored_at__isnull=False).count() == 5
    )
    rows = {row["nickname"]: row for row in tournament_standings(tournament=tournament)}
    assert rows["alice"]["points"] == 0  # was 16, on-fire doubling included
    assert rows["alice"]["races"] == FARMED
    assert _mu(alice) == MU  # was 2011
    assert not _on_board(alice)


def test_two_fresh_accounts_farm_nothing_in_public_races(alice: Player, bob: Player):
    for _ in range(FARMED):
        race = race_now(player=alice, variant="sultan", minutes=5).race
        assert race_now(player=bob, variant="sultan", minutes=5).race.pk == race.pk
        race_go(race)
        resign(bob, race)
        assert cards_up(alice, race, 1) == 1
        resign(alice, race)
        race_close_if_over(race_id=race.pk)
    assert Rating.objects.get(player=alice, variant="sultan").races == FARMED
    assert _mu(alice) == MU
    assert not _on_board(alice)


def test_two_fresh_accounts_farm_nothing_in_rated_private_races(alice: Player, bob: Player):
    for _ in range(FARMED):
        finish_race([alice, bob], moves=[1, 0])
    assert Rating.objects.get(player=alice, variant="sultan").races == FARMED
    assert _mu(alice) == MU
    assert not _on_board(alice)
    assert leaderboard(variant="sultan") == []


# The rule's parts, one by one.


def test_beating_racers_who_barely_moved_gains_nothing(alice, bob, charlie):
    dave = _account("dave")
    _establish([alice, bob, charlie, dave], races=1)
    before = _mu(alice)
    for n in range(4):
        finish_race([alice, _account(f"throwaway{n}")], moves=[8, 0])  # it resigns at once
    finish_race([alice, bob], moves=[8, MIN_PLACED_MOVES - 1])  # established, barely moved
    assert _mu(alice) == before
    # The racers who barely moved lost as the race said: farming costs them, not alice.
    assert all(r.mu < MU for r in Rating.objects.filter(player__user__username__startswith="t"))
    bobs = RatingChange.objects.filter(player=bob).order_by("at").last()
    assert bobs is not None
    assert bobs.delta < 0
    assert not bobs.placed


def test_a_new_account_moves_nobody_until_it_has_met_enough_opponents(
    alice, bob, charlie, settings
):
    assert settings.RATING_ESTABLISHED_OPPONENTS == 3  # the default
    dave = _account("dave")
    _establish([alice, bob, charlie, dave], races=1)
    fresh = _account("fresh")
    before = _mu(alice)
    finish_race([alice, fresh], moves=[8, 6])
    assert _mu(alice) == before  # fresh gave nothing
    assert _mu(fresh) < MU  # and learnt from alice
    finish_race([bob, fresh], moves=[8, 6])
    finish_race([charlie, fresh], moves=[8, 6])  # a third distinct opponent
    assert Rating.objects.get(player=fresh, variant="sultan").established
    finish_race([alice, fresh], moves=[8, 6])
    assert _mu(alice) > before


def test_a_pair_counts_three_times_a_day(alice, bob, charlie, settings):
    assert settings.PAIR_RESULTS_PER_DAY == 3  # the default
    dave = _account("dave")
    # Established in other company: pairs with alice are fresh today.
    _establish([bob, charlie, dave, _account("erin")], races=1)
    _establish([alice, _account("frank"), _account("grace"), _account("heidi")], races=1)
    mus = [_mu(alice)]
    races = []
    for _ in range(5):
        races.append(finish_race([alice, bob], moves=[8, 6]))
        mus.append(_mu(alice))
    assert mus[0] < mus[1] < mus[2] < mus[3] == mus[4] == mus[5]
    # The next day the pair counts again (a rebuild, the races moved a day on).
    third = races[2].finished_at
    assert third is not None
    Race.objects.filter(pk__in=[r.pk for r in races[3:]]).update(
        finished_at=third + timedelta(days=1)
    )
    call_command("rebuild_ratings", "--kept-rankings")
    assert _mu(alice) > mus[3]


def test_a_pair_earns_tournament_points_three_times_a_day(alice, bob, settings):
    settings.TOURNAMENT_REST_S = 0  # seated again at the next tick
    tournament = tournament_create(
        creator=alice,
        name="Pair",
        variant="sultan",
        minutes=30,
        seat_limit=2,
        automatic_moves=False,
        public=True,
    )
    tournament_join(tournament=tournament, player=alice)
    tournament_join(tournament=tournament, player=bob)
    for _ in range(FARMED):
        pairing_tick()
        race = TournamentRace.objects.get(tournament=tournament, scored_at__isnull=True).race
        race_go(race)
        assert cards_up(alice, race, 7) == 7
        assert cards_up(bob, race, 5) == 5
        resign(alice, race)
        resign(bob, race)
        race_close_if_over(race_id=race.pk)
        pairing_tick()
    rows = {row["nickname"]: row for row in tournament_standings(tournament=tournament)}
    assert rows["alice"]["points"] == 2 + 2 + 4  # the third on fire; then no contest
    assert rows["bob"]["points"] == 3


def test_the_leaderboard_lists_established_players_of_five_races(alice, bob, charlie):
    dave = _account("dave")
    for _ in range(ESTABLISHED_RACES - 1):
        finish_race([alice, bob, charlie, dave], moves=[8, 7, 6, 5])
    assert leaderboard(variant="sultan") == []  # established, but four races
    trio = [_account(name) for name in ("erin", "frank", "grace")]
    for _ in range(ESTABLISHED_RACES):
        finish_race(trio, moves=[8, 7, 6])  # five races, two opponents each
    finish_race([alice, bob, charlie, dave], moves=[8, 7, 6, 5])
    listed = [row.username for row in leaderboard(variant="sultan")]
    assert set(listed) == {"alice", "bob", "charlie", "dave"}
    erin = Rating.objects.get(player=trio[0], variant="sultan")
    assert erin.races == ESTABLISHED_RACES
    assert not erin.established
    assert player_rank(rating=erin) is None


def test_the_rule_is_a_projection_a_rebuild_gives_the_same(alice, bob, charlie, moderator):
    dave, erin = _account("dave"), _account("erin")
    finish_race([alice, bob, charlie, dave], moves=[8, 7, 6, 5])  # all established
    finish_race([erin, alice], moves=[8, 6])  # erin new: alice unmoved
    finish_race([alice, bob], moves=[8, 2])  # bob not placed
    voided = finish_race([erin, bob], moves=[8, 6])
    finish_race([erin, charlie, dave], moves=[8, 7, 6])  # erin established
    for _ in range(3):
        finish_race([alice, erin], moves=[6, 8])  # the third beyond the pair's day
    game_void(game=Game.objects.get(race=voided, player=bob), moderator=moderator, reason="test")
    live = projection()
    assert any(change[-1] for change in live[1] if change[0] == erin.pk)
    call_command("rebuild_ratings")
    assert projection() == live


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

"""Ratings are a projection of rated races' results: rated as races finish, and the
same numbers again from `rebuild_ratings`, after a void, a flag, a reinstatement."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import transaction

from games.accounts.services import player_claim_for_user, player_create_guest
from games.models import Game, Player, Race
from games.moderation.services import game_clear_flag, game_flag, game_reinstate, game_void
from games.races.models import RaceStanding
from games.races.services import RaceRefused, race_create
from games.ratings.models import Rating, RatingChange
from games.ratings.services import ratings_rebuild, ratings_replay
from games.ratings.skill import MU
from tests.ratings.conftest import finish_race, projection, ranking

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _newcomers_count_at_once(settings) -> None:
    """These tests are about the model and the projection among a few fresh accounts:
    their results count against each other from the first race. What a newcomer's
    results are worth by default, and its projection, is tests/fairness/test_farming.py."""
    settings.RATING_ESTABLISHED_OPPONENTS = 0


def test_a_rated_race_moves_its_racers_ratings_by_their_places(alice, bob, charlie):
    # Every racer placed (games.fairness.worth: five moves of their own or more).
    race = finish_race([alice, bob, charlie], moves=[8, 6, 5])
    first, second, third = ranking(race)
    ratings = {r.player_id: r for r in Rating.objects.filter(variant="sultan")}
    assert ratings[first].mu > MU > ratings[third].mu
    assert ratings[first].rating > ratings[second].rating > ratings[third].rating
    assert all(r.races == 1 for r in ratings.values())
    changes = RatingChange.objects.filter(race=race).order_by("rank")
    assert [c.player_id for c in changes] == [first, second, third]
    assert changes[0].delta > 0 > changes[2].delta


def test_an_unrated_race_moves_no_rating(alice, bob):
    finish_race([alice, bob], rated=False, moves=[4, 1])
    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_guests_are_unrated_and_the_accounts_are_ranked_among_themselves(alice, bob):
    guest = player_create_guest(nickname="dave")
    race = finish_race([guest, alice, bob], moves=[8, 4, 1])
    assert not Rating.objects.filter(player=guest).exists()
    rated = RatingChange.objects.filter(race=race).order_by("rank")
    accounts_in_order = [p for p in ranking(race) if p != guest.pk]
    assert [c.player_id for c in rated] == accounts_in_order
    assert [c.rank for c in rated] == [1, 2]


def test_a_race_with_one_account_moves_no_rating(alice):
    guests = [player_create_guest(nickname=n) for n in ("dave", "erin")]
    finish_race([alice, *guests], moves=[3, 2, 1])
    assert not Rating.objects.exists()


def test_rebuilding_gives_the_ratings_the_races_gave_as_they_finished(alice, bob, charlie):
    finish_race([alice, bob, charlie], moves=[6, 3, 1])
    finish_race([bob, charlie], moves=[5, 2])
    finish_race([charlie, alice], variant="sultan-8", moves=[4, 2])
    finish_race([alice, bob], moves=[1, 6])
    incremental = projection()
    assert len(incremental[1]) == 9
    call_command("rebuild_ratings")
    assert projection() == incremental


def test_rebuilding_from_the_logs_ranks_every_race_as_it_was_kept(alice, bob, charlie):
    finish_race([alice, bob, charlie], moves=[6, 3, 1])
    finish_race([bob, alice], moves=[5, 2])
    incremental = projection()
    report = ratings_rebuild(rerank=True)
    assert report.reranked == 2
    assert report.rated["sultan"] == 2
    assert projection() == incremental


def test_a_race_committed_after_a_later_one_is_rated_in_finishing_order(alice, bob, charlie):
    first = finish_race([alice, bob], moves=[5, 1])
    second = finish_race([bob, charlie, alice], moves=[6, 2, 1])
    # As if `second`'s end had been rated before `first`'s: only `second` in the projection.
    ratings_replay(variant="sultan", since=None)
    RatingChange.objects.filter(race=first).delete()
    ratings_replay(variant="sultan", since=second)
    assert not RatingChange.objects.filter(race=first).exists()
    # Then `first`'s end is heard: it and everything after it are rated again.
    ratings_replay(variant="sultan", since=first)
    replayed = projection()
    ratings_rebuild()
    assert projection() == replayed


def test_a_void_leaves_the_game_out_and_a_reinstatement_brings_it_back(
    alice, bob, charlie, moderator
):
    race = finish_race([alice, bob, charlie], moves=[6, 3, 1])
    finish_race([alice, bob], moves=[4, 2])
    before = projection()
    game = Game.objects.get(race=race, player=alice)
    game_void(game=game, moderator=moderator, reason="played by a script")
    assert not RatingChange.objects.filter(game=game).exists()
    assert RatingChange.objects.filter(race=race).count() == 2
    voided = projection()
    assert voided != before
    ratings_rebuild()
    assert projection() == voided  # the same as a rebuild: recomputed, not patched
    game_reinstate(game=game, moderator=moderator, reason="the script was a fast hand")
    assert projection() == before


def test_a_flag_holds_a_game_out_until_a_moderator_clears_it(alice, bob, charlie, moderator):
    race = finish_race([alice, bob, charlie], moves=[6, 3, 1])
    before = projection()
    game = Game.objects.get(race=race, player=bob)
    game_flag(game=game, moderator=moderator, reason="anticheat: too regular")
    assert not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.filter(player=bob).exists()  # that race was bob's only one
    game_clear_flag(game=game, moderator=moderator, reason="looked at it: a person")
    assert projection() == before


def test_a_void_that_leaves_one_racer_undoes_the_race(alice, bob, moderator):
    race = finish_race([alice, bob], moves=[6, 3])
    game_void(game=Game.objects.get(race=race, player=bob), moderator=moderator, reason="x")
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_a_guest_who_signs_up_is_rated_for_their_past_races(alice, bob, django_user_model):
    guest = player_create_guest(nickname="dave")
    finish_race([guest, alice, bob], moves=[8, 4, 1])
    assert not Rating.objects.filter(player=guest).exists()
    user = django_user_model.objects.create_user(username="dave")
    player_claim_for_user(player=guest, user=user)
    assert Rating.objects.get(player=guest).races == 1
    claimed = projection()
    ratings_rebuild()
    assert projection() == claimed


def test_a_rated_race_refuses_an_open_deal(alice):
    with pytest.raises(RaceRefused) as refused:
        race_create(host=alice, deal=42, rated=True)
    assert refused.value.code == "bad_request"
    assert not Race.objects.exists()


def test_the_database_refuses_a_rated_open_deal_and_an_unrated_public_race(alice: Player):
    from django.db import IntegrityError

    for fields in ({"rated": True, "open_deal": True}, {"public": True, "rated": False}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Race.objects.create(host=alice, variant="sultan", seed=1, **fields)


def test_a_listener_failing_after_a_race_ends_leaves_the_end_standing(alice, bob, caplog):
    from games.races.signals import race_finished

    def broken(**_):
        raise RuntimeError("the ratings store is away")

    race_finished.connect(broken, dispatch_uid="test_broken_listener")
    try:
        race = finish_race([alice, bob], moves=[3, 1])
    finally:
        race_finished.disconnect(dispatch_uid="test_broken_listener")
    assert race.status == "finished"
    assert RatingChange.objects.filter(race=race).count() == 2  # the other listener ran
    assert f"race {race.pk}'s end: " in caplog.text
    assert "failed" in caplog.text


def test_a_race_end_is_announced_only_once_its_ratings_are_written(alice, bob):
    """A racer who sees the results and opens a profile finds the new rating there
    (a browser test read a profile before the rating and found none)."""
    from games.models import RaceEvent
    from games.races.signals import race_finished

    seen: list[tuple[bool, bool]] = []

    def look(*, race_id: int, **_: object) -> None:
        end = RaceEvent.objects.get(race_id=race_id, kind="end")
        rated = RatingChange.objects.filter(race_id=race_id).count() == 2
        seen.append((end.published_at is not None, rated))

    race_finished.connect(look, dispatch_uid="test_end_order")
    try:
        race = finish_race([alice, bob], moves=[3, 1])
    finally:
        race_finished.disconnect(dispatch_uid="test_end_order")
    assert seen == [(False, True)]  # rated, and the end not yet out
    assert RaceEvent.objects.get(race=race, kind="end").published_at is not None


def test_racers_the_ranking_rule_cannot_part_draw(alice, bob, charlie):
    race = finish_race([alice, bob, charlie], moves=[0, 0, 6])
    places = dict(RaceStanding.objects.filter(race=race).values_list("game__player", "place"))
    assert places[charlie.pk] == 1
    assert places[alice.pk] == places[bob.pk] == 2  # both resigned before any card
    ratings = {r.player_id: r for r in Rating.objects.all()}
    assert ratings[alice.pk].mu == ratings[bob.pk].mu
    # Neither resigned racer is placed: each loses to charlie, charlie gains nothing.
    assert ratings[charlie.pk].mu == MU > ratings[alice.pk].mu


def test_the_deals_these_tests_race_rank_racers_by_their_moves(alice, bob, charlie):
    race = finish_race([alice, bob, charlie], variant="sultan-8", moves=[1, 8, 4])
    assert ranking(race) == [bob.pk, charlie.pk, alice.pk]
    cards = dict(Game.objects.filter(race=race).values_list("player", "cards_played"))
    assert cards == {alice.pk: 1, bob.pk: 8, charlie.pk: 4}

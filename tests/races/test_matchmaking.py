"""Race now: strangers seated in public races, one race for two clicks at once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.utils import timezone

from games.accounts.services import player_create_guest
from games.models import Game, Race, RaceEntry, RaceStatus
from games.races.matchmaking import public_races_live, race_now
from games.races.services import (
    PUBLIC_ABSENT_S,
    RaceRefused,
    race_leave,
    race_start,
)


@pytest.fixture
def countdown(settings):
    settings.RACE_PUBLIC_COUNTDOWN_S = 15
    return 15


def _guests(*names: str):
    return [player_create_guest(nickname=name) for name in names]


@pytest.mark.django_db
def test_the_first_racer_opens_a_rated_public_lobby(countdown):
    (alice,) = _guests("alice")
    seat = race_now(player=alice, variant="sultan", minutes=5)
    race = seat.race
    assert (race.public, race.rated, race.status) == (True, True, RaceStatus.LOBBY)
    assert race.time_limit_s == 300
    assert race.seat_limit == 8
    assert seat.new
    assert not seat.running
    assert RaceEntry.objects.filter(race=race, player=alice, left_at__isnull=True).exists()


@pytest.mark.django_db
def test_a_second_racer_lands_in_the_same_race_and_starts_its_countdown(countdown):
    alice, bob = _guests("alice", "bob")
    first = race_now(player=alice, variant="sultan", minutes=5).race
    seat = race_now(player=bob, variant="sultan", minutes=5)
    assert seat.race.pk == first.pk
    assert seat.running
    race = Race.objects.get(pk=first.pk)
    assert race.status == RaceStatus.RUNNING
    assert race.starts_at is not None
    left = (race.starts_at - timezone.now()).total_seconds()
    assert countdown - 2 < left <= countdown
    assert set(Game.objects.filter(race=race).values_list("player", flat=True)) == {
        alice.pk,
        bob.pk,
    }


@pytest.mark.django_db
def test_racers_arriving_during_the_countdown_are_dealt_in_up_to_eight(countdown):
    racers = _guests(*(f"racer{i}" for i in range(9)))
    seats = [race_now(player=p, variant="sultan", minutes=5) for p in racers]
    first = seats[0].race.pk
    assert [s.race.pk for s in seats[:8]] == [first] * 8
    assert Game.objects.filter(race_id=first).count() == 8
    assert seats[8].race.pk != first  # the ninth opens the next race
    assert seats[8].race.status == RaceStatus.LOBBY


@pytest.mark.django_db
def test_no_one_is_seated_in_the_last_moments_before_the_start(countdown):
    alice, bob, charlie = _guests("alice", "bob", "charlie")
    first = race_now(player=alice, variant="sultan", minutes=5).race
    race_now(player=bob, variant="sultan", minutes=5)
    Race.objects.filter(pk=first.pk).update(starts_at=timezone.now() + timedelta(seconds=1))
    seat = race_now(player=charlie, variant="sultan", minutes=5)
    assert seat.race.pk != first.pk
    assert not Game.objects.filter(race=first, player=charlie).exists()


@pytest.mark.django_db
def test_each_variant_and_time_limit_has_races_of_its_own(countdown):
    alice, bob, charlie = _guests("alice", "bob", "charlie")
    a = race_now(player=alice, variant="sultan", minutes=5).race
    b = race_now(player=bob, variant="sultan", minutes=10).race
    c = race_now(player=charlie, variant="sultan-8", minutes=5).race
    assert len({a.pk, b.pk, c.pk}) == 3


@pytest.mark.django_db
def test_clicking_again_keeps_the_same_seat(countdown):
    (alice,) = _guests("alice")
    first = race_now(player=alice, variant="sultan", minutes=5)
    again = race_now(player=alice, variant="sultan", minutes=5)
    assert again.race.pk == first.race.pk
    assert not again.new
    assert RaceEntry.objects.filter(race=first.race).count() == 1


@pytest.mark.django_db
def test_a_lone_racer_long_gone_is_unseated_when_a_second_comes(countdown):
    alice, bob = _guests("alice", "bob")
    race = race_now(player=alice, variant="sultan", minutes=5).race
    long_ago = timezone.now() - timedelta(seconds=PUBLIC_ABSENT_S + 5)
    RaceEntry.objects.filter(race=race, player=alice).update(joined_at=long_ago)
    seat = race_now(player=bob, variant="sultan", minutes=5)
    assert seat.race.pk == race.pk
    assert not seat.running  # bob is alone: no countdown for a race of one
    assert not RaceEntry.objects.get(race=race, player=alice).seated


@pytest.mark.django_db
def test_a_racer_whose_page_is_open_stays_seated(countdown):
    alice, bob = _guests("alice", "bob")
    race = race_now(player=alice, variant="sultan", minutes=5).race
    long_ago = timezone.now() - timedelta(seconds=PUBLIC_ABSENT_S + 5)
    RaceEntry.objects.filter(race=race, player=alice).update(joined_at=long_ago, connections=1)
    assert race_now(player=bob, variant="sultan", minutes=5).running


@pytest.mark.django_db
def test_a_public_race_has_no_host_start_and_its_first_racer_may_leave(countdown):
    alice, bob = _guests("alice", "bob")
    race = race_now(player=alice, variant="sultan", minutes=5).race
    with pytest.raises(RaceRefused) as refused:
        race_start(race=race, player=alice)
    assert refused.value.code == "not_host"
    race_leave(race=race, player=alice)
    assert not RaceEntry.objects.get(race=race, player=alice).seated
    # The empty lobby is still the kind's one lobby: the next click gets it.
    assert race_now(player=bob, variant="sultan", minutes=5).race.pk == race.pk


@pytest.mark.django_db
@pytest.mark.parametrize(("variant", "minutes"), [("klondike", 5), ("sultan", 7), ("sultan", 0)])
def test_bad_choices_are_refused_and_nothing_is_written(variant, minutes):
    (alice,) = _guests("alice")
    with pytest.raises(RaceRefused) as refused:
        race_now(player=alice, variant=variant, minutes=minutes)
    assert refused.value.code == "bad_request"
    assert not Race.objects.exists()


@pytest.mark.django_db
def test_the_database_holds_one_public_lobby_per_kind(countdown):
    (alice,) = _guests("alice")
    race_now(player=alice, variant="sultan", minutes=5)
    with pytest.raises(IntegrityError), transaction.atomic():
        Race.objects.create(
            host=alice, variant="sultan", seed=1, time_limit_s=300, public=True, rated=True
        )


@pytest.mark.django_db(transaction=True)
def test_two_clicks_at_once_land_in_the_same_race(countdown):
    racers = _guests("alice", "bob")
    barrier = threading.Barrier(2)
    seats, errors = {}, []

    def click(player):
        try:
            barrier.wait()
            seats[player.pk] = race_now(player=player, variant="sultan", minutes=3).race.pk
        except Exception as failure:  # reported below, with the thread's own error
            errors.append(failure)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=click, args=(p,)) for p in racers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert len(set(seats.values())) == 1
    race = Race.objects.get()
    assert race.status == RaceStatus.RUNNING  # the second seat started the countdown
    assert Game.objects.filter(race=race).count() == 2
    assert connection.vendor in ("sqlite", "postgresql")


@pytest.mark.django_db
def test_the_list_shows_waiting_and_running_public_races_only(countdown, alice, bob):
    (dave,) = _guests("dave")
    waiting = race_now(player=dave, variant="sultan", minutes=10).race
    race_now(player=alice, variant="sultan", minutes=5)
    starting = race_now(player=bob, variant="sultan", minutes=5).race
    rows = {row.race.pk: row for row in public_races_live()}
    assert rows[waiting.pk].state == "waiting"
    assert rows[waiting.pk].racers == 1
    assert rows[starting.pk].state == "starting"
    assert rows[starting.pk].racers == 2
    Race.objects.filter(pk=starting.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    assert {row.race.pk: row.state for row in public_races_live()}[starting.pk] == "running"
    Race.objects.filter(pk=starting.pk).update(
        status=RaceStatus.FINISHED, finished_at=timezone.now()
    )
    assert starting.pk not in {row.race.pk for row in public_races_live()}


@pytest.mark.django_db
def test_a_racer_seated_in_another_kinds_lobby_leaves_it_for_the_new_one(countdown):
    (alice,) = _guests("alice")
    first = race_now(player=alice, variant="sultan", minutes=5)
    second = race_now(player=alice, variant="sultan", minutes=10)
    assert second.race.pk != first.race.pk
    assert second.left == (first.race.pk,)
    assert not RaceEntry.objects.get(race=first.race, player=alice).seated
    assert RaceEntry.objects.get(race=second.race, player=alice).seated


@pytest.mark.django_db
def test_a_seat_in_a_public_race_counting_down_is_kept(countdown):
    alice, bob = _guests("alice", "bob")
    started = race_now(player=alice, variant="sultan", minutes=5).race
    race_now(player=bob, variant="sultan", minutes=5)
    elsewhere = race_now(player=alice, variant="sultan", minutes=10)
    assert elsewhere.left == ()
    assert Game.objects.filter(race=started, player=alice).exists()

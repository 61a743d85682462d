"""Joining, pairing, scoring and voiding, through the room's services on a real database."""

from __future__ import annotations

from datetime import timedelta

import psycopg
import pytest
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from games.models import Player, Race, RaceStatus
from games.races.services import race_create, race_join
from games.tournaments.models import Tournament, TournamentRace, TournamentResult
from games.tournaments.pairing import ADVISORY_SPACE, pairing_groups, pairing_tick
from games.tournaments.selectors import tournament_player_races, tournament_standings
from games.tournaments.services import (
    TournamentRefused,
    tournament_create,
    tournament_join,
    tournament_pause,
    tournament_race_void,
)
from tests.tournaments.helpers import after_rest, cards_up, race_go, resign

pytestmark = pytest.mark.django_db


def arena(creator: Player, seats: int = 3) -> Tournament:
    return tournament_create(
        creator=creator,
        name="Friday arena",
        variant="sultan",
        minutes=30,
        seat_limit=seats,
        automatic_moves=False,
        public=True,
    )


def only_race(tournament: Tournament) -> Race:
    links = TournamentRace.objects.filter(tournament=tournament, scored_at__isnull=True)
    (link,) = links.select_related("race")
    return link.race


def arena_race_running(*players: Player) -> tuple[Tournament, Race]:
    """An arena of the first player's, all of them joined, seated by a tick, and racing."""
    tournament = arena(players[0])
    for player in players:
        tournament_join(tournament=tournament, player=player)
    pairing_tick()
    race = only_race(tournament)
    race_go(race)
    return tournament, race


def test_three_who_wait_are_seated_together_on_a_secret_rated_deal(alice, bob, charlie) -> None:
    tournament = arena(alice)
    for player in (alice, bob, charlie):
        tournament_join(tournament=tournament, player=player)
    assert pairing_tick().races == 1
    race = only_race(tournament)
    assert race.status == RaceStatus.RUNNING
    assert race.rated
    assert not race.open_deal
    assert set(race.games.values_list("player_id", flat=True)) == {alice.pk, bob.pk, charlie.pk}
    assert pairing_tick().races == 0  # nobody is seated twice


def test_a_lone_racer_never_starts_a_race(alice) -> None:
    tournament = arena(alice)
    tournament_join(tournament=tournament, player=alice)
    later = timezone.now() + timedelta(minutes=5)
    assert pairing_tick(now=later).races == 0


def test_a_short_race_waits_for_more_a_few_seconds_then_starts(alice, bob) -> None:
    tournament = arena(alice, seats=4)
    tournament_join(tournament=tournament, player=alice)
    tournament_join(tournament=tournament, player=bob)
    assert pairing_tick().races == 0
    assert pairing_tick(now=timezone.now() + timedelta(seconds=4)).races == 1


def test_a_race_scores_at_its_end_and_its_racers_are_paired_again(alice, bob, charlie) -> None:
    tournament, race = arena_race_running(alice, bob, charlie)
    # Each placed (five moves of their own or more: games.fairness.worth), by cards up.
    assert cards_up(alice, race, 9) == 9
    assert cards_up(bob, race, 7) == 7
    assert cards_up(charlie, race, 5) == 5
    resign(alice, race)
    resign(bob, race)
    resign(charlie, race)
    tick = pairing_tick()  # the sweep scores it (tests' transactions never commit)
    assert tick.scored == 1
    assert tick.races == 0  # their rest: time for the results, and a Pause
    assert pairing_tick(now=after_rest()).races == 1
    rows = {row["nickname"]: row for row in tournament_standings(tournament=tournament)}
    assert rows["alice"]["points"] == 3
    assert rows["alice"]["rank"] == 1
    assert rows["bob"]["points"] == 2
    assert rows["charlie"]["points"] == 1
    assert TournamentRace.objects.filter(tournament=tournament).count() == 2


def test_racers_of_a_race_over_but_not_yet_scored_are_not_seated_again(alice, bob, charlie) -> None:
    """Its scoring gives the racers their rest: until then they are not free. A tick that
    read the race as running before its last racer resigned paired them at once (the
    browser suite, PostgreSQL under load: carried on with no rest, no Pause)."""
    tournament, race = arena_race_running(alice, bob, charlie)
    for player in (alice, bob, charlie):
        resign(player, race)
    # Over, and unscored: what a tick meets after reading the races it scores (the race's
    # own scoring runs on commit, which a test's transaction never reaches).
    assert Race.objects.get(pk=race.pk).status == RaceStatus.FINISHED
    assert TournamentRace.objects.get(race=race).scored_at is None
    assert pairing_groups(tournament=tournament, now=timezone.now()) == []
    tick = pairing_tick()
    assert (tick.scored, tick.races) == (1, 0)  # scored, and resting
    assert pairing_tick(now=after_rest()).races == 1


def test_no_race_starts_after_the_end_and_a_running_one_still_counts(alice, bob) -> None:
    tournament = arena(alice, seats=2)
    tournament_join(tournament=tournament, player=alice)
    tournament_join(tournament=tournament, player=bob)
    pairing_tick()
    race = only_race(tournament)
    race_go(race)
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(minutes=31), ends_at=timezone.now()
    )
    assert cards_up(bob, race, 7) == 7
    assert cards_up(alice, race, 5) == 5
    resign(bob, race)
    resign(alice, race)
    tick = pairing_tick()
    assert tick.races == 0
    assert tick.finished == 1
    tournament.refresh_from_db()
    assert tournament.finished_at is not None
    assert tournament_standings(tournament=tournament)[0]["nickname"] == "bob"


def test_a_paused_entrant_is_not_seated_until_they_come_back(alice, bob) -> None:
    tournament = arena(alice, seats=2)
    tournament_join(tournament=tournament, player=alice)
    tournament_join(tournament=tournament, player=bob)
    tournament_pause(tournament=tournament, player=bob)
    assert pairing_tick().races == 0
    tournament_join(tournament=tournament, player=bob)
    assert pairing_tick().races == 1


def test_an_entrant_cannot_take_a_seat_elsewhere(alice, bob, charlie) -> None:
    tournament = arena(alice)
    tournament_join(tournament=tournament, player=alice)
    with pytest.raises(TournamentRefused, match="pause it to race elsewhere"):
        race_create(host=alice)
    lobby = race_create(host=bob)
    with pytest.raises(TournamentRefused) as refused:
        race_join(race=lobby, player=alice)
    assert refused.value.code == "in_tournament"
    tournament_pause(tournament=tournament, player=alice)
    race_join(race=lobby, player=alice)  # paused: free to race elsewhere


def test_a_racer_in_another_race_cannot_join_a_tournament(alice, bob) -> None:
    tournament = arena(alice)
    race_create(host=bob)
    with pytest.raises(TournamentRefused) as refused:
        tournament_join(tournament=tournament, player=bob)
    assert refused.value.code == "racing"


def test_a_racer_in_a_tournament_race_cannot_join_another_race(alice, bob, charlie) -> None:
    tournament = arena(alice, seats=2)
    tournament_join(tournament=tournament, player=alice)
    tournament_join(tournament=tournament, player=bob)
    pairing_tick()
    tournament_pause(tournament=tournament, player=alice)  # paused, but still racing
    lobby = race_create(host=charlie)
    with pytest.raises(TournamentRefused) as refused:
        race_join(race=lobby, player=alice)
    assert refused.value.code == "in_tournament"


def test_only_account_players_create_and_durations_are_bounded(alice) -> None:
    guest = Player.objects.create(nickname="guest")
    with pytest.raises(TournamentRefused) as refused:
        arena(guest)
    assert refused.value.code == "not_account"
    with pytest.raises(TournamentRefused, match="10 to 120 minutes"):
        tournament_create(
            creator=alice,
            name="x",
            variant="sultan",
            minutes=5,
            seat_limit=4,
            automatic_moves=False,
            public=True,
        )
    assert not Tournament.objects.exists()


def test_a_voided_race_counts_for_nobody_and_history_stays(alice, bob, charlie) -> None:
    tournament = arena(alice, seats=2)
    tournament_join(tournament=tournament, player=alice)
    tournament_join(tournament=tournament, player=bob)
    pairing_tick()
    race = only_race(tournament)
    race_go(race)
    assert cards_up(alice, race, 7) == 7
    assert cards_up(bob, race, 5) == 5
    resign(alice, race)
    resign(bob, race)
    pairing_tick()
    assert tournament_standings(tournament=tournament)[0]["points"] == 2
    link = TournamentRace.objects.get(race=race)
    tournament_race_void(tournament_race=link, moderator_name="moderator", reason="bot")
    rows = tournament_standings(tournament=tournament)
    assert [row["points"] for row in rows] == [0, 0]
    assert TournamentResult.objects.filter(tournament_race=link).count() == 2
    (played,) = tournament_player_races(tournament=tournament, player=alice)
    assert played.points is None
    assert played.place == 1
    with pytest.raises(TournamentRefused):
        tournament_race_void(tournament_race=link, moderator_name="moderator", reason="again")


def test_results_are_append_only_in_sql(alice, bob) -> None:
    tournament = arena(alice, seats=2)
    tournament_join(tournament=tournament, player=alice)
    tournament_join(tournament=tournament, player=bob)
    pairing_tick()
    race = only_race(tournament)
    race_go(race)
    cards_up(alice, race, 1)  # a race somebody played has results (nobody's has none)
    resign(alice, race)
    resign(bob, race)
    pairing_tick()
    assert TournamentResult.objects.exists()
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE games_tournamentresult SET place = 1")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite has one writer: no leader")
@pytest.mark.django_db(transaction=True)
def test_a_tournament_another_process_is_pairing_is_passed_by(alice, bob) -> None:
    tournament = arena(alice, seats=2)
    tournament_join(tournament=tournament, player=alice)
    tournament_join(tournament=tournament, player=bob)
    db = settings.DATABASES["default"]
    other = psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], autocommit=False
    )
    try:
        other.execute("SELECT pg_advisory_xact_lock(%s, %s)", [ADVISORY_SPACE, tournament.pk])
        assert pairing_tick().races == 0  # the other process is its pairer this tick
    finally:
        other.rollback()
        other.close()
    assert pairing_tick().races == 1

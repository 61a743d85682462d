"""Absent racers (docs/tournaments.md, "Absent racers"): a racer with no move of their
own in the time allowed is withdrawn, and a race nobody plays ends early and counts for
no one; a race's racers rest before the next; Pause answers the race page in JSON."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from games.engine.positions import TIMEOUT
from games.models import Game, GameStatus, Move, Player, Race, RaceEvent, RaceStatus
from games.tournaments.models import Tournament, TournamentEntry, TournamentRace, TournamentResult
from games.tournaments.pairing import pairing_tick
from games.tournaments.selectors import tournament_player_races, tournament_standings
from games.tournaments.services import tournament_join
from tests.tournaments.helpers import after_rest, arena_paired, cards_up, race_go, resign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _arena_times(settings) -> None:
    """The defaults, named here: the test reads as the rule (and runs on code without them)."""
    settings.TOURNAMENT_IDLE_S = 60
    settings.TOURNAMENT_REST_S = 10


def seated(players: list[Player]) -> tuple[Tournament, Race]:
    tournament = arena_paired(players, name="Absent arena")
    assert TournamentRace.objects.filter(tournament=tournament).count() == 1
    race = TournamentRace.objects.get(tournament=tournament).race
    race_go(race)
    return tournament, race


def idle_over() -> None:
    """The race started longer ago than a racer may go without a move."""
    ago = timezone.now() - timedelta(seconds=settings.TOURNAMENT_IDLE_S + 1)
    Race.objects.update(starts_at=ago)


def paused(tournament: Tournament) -> set[str]:
    entries = TournamentEntry.objects.filter(tournament=tournament, paused=True)
    return set(entries.values_list("player__nickname", flat=True))


def test_it_withdraws_a_racer_who_makes_no_move_in_the_time_allowed(alice, bob, charlie) -> None:
    tournament, race = seated([alice, bob, charlie])
    assert cards_up(alice, race, 5) == 5
    assert cards_up(bob, race, 5) == 5
    pairing_tick()
    assert paused(tournament) == set()  # within the time allowed: nobody is touched
    idle_over()
    pairing_tick()
    absent = Game.objects.get(race=race, player=charlie)
    assert absent.status == GameStatus.TIMEOUT
    # A new event in the log, never an edit: the server's timeout after nothing of theirs.
    assert list(Move.objects.filter(game=absent).values_list("token", "automatic")) == [
        (TIMEOUT, True)
    ]
    # The others hear of it as progress, and race on.
    assert RaceEvent.objects.filter(
        race=race, kind="progress", payload__contains=f'"player":{charlie.pk},'
    ).exists()
    race.refresh_from_db()
    assert race.status == RaceStatus.RUNNING
    assert paused(tournament) == {"charlie"}
    rows = {row["nickname"]: row for row in tournament_standings(tournament=tournament)}
    assert rows["charlie"]["paused"] is True
    assert rows["alice"]["paused"] is False
    # Come back: seated again like anyone.
    tournament_join(tournament=tournament, player=charlie)
    assert paused(tournament) == set()


def test_it_ends_a_race_nobody_plays_early_and_counts_it_for_no_one(alice, bob, charlie) -> None:
    tournament, race = seated([alice, bob, charlie])
    idle_over()
    tick = pairing_tick()
    race.refresh_from_db()
    assert race.status == RaceStatus.FINISHED  # long before its time limit
    assert race.ends_at is not None
    assert race.ends_at > timezone.now()
    assert tick.scored == 1
    assert paused(tournament) == {"alice", "bob", "charlie"}
    # No "1 of 3 · 0 points" for anyone: no result, no race in anyone's list.
    assert not TournamentResult.objects.filter(tournament_race__race=race).exists()
    for row in tournament_standings(tournament=tournament):
        assert (row["races"], row["points"], row["race"]) == (0, 0, None)
    assert tournament_player_races(tournament=tournament, player=alice) == []
    assert pairing_tick(now=after_rest()).races == 0  # all withdrawn: no dead race again


def test_a_race_with_a_resign_before_any_move_is_still_nobody_s(alice, bob) -> None:
    tournament, race = seated([alice, bob])
    resign(alice, race)  # present, but plays nothing
    idle_over()
    pairing_tick()
    race.refresh_from_db()
    assert race.status == RaceStatus.FINISHED
    assert not TournamentResult.objects.filter(tournament_race__race=race).exists()
    assert paused(tournament) == {"bob"}  # resigning is a choice, not an absence


def test_a_short_race_s_silent_racer_is_withdrawn_when_it_is_scored(alice, bob) -> None:
    tournament, race = seated([alice, bob])
    assert cards_up(alice, race, 5) == 5
    resign(alice, race)
    Race.objects.filter(pk=race.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    pairing_tick()  # the race's time is up before bob's time for a first move
    assert Game.objects.get(race=race, player=bob).status == GameStatus.TIMEOUT
    assert paused(tournament) == {"bob"}
    assert TournamentResult.objects.filter(tournament_race__race=race).count() == 2


def test_racers_rest_after_a_race_before_the_next(alice, bob) -> None:
    tournament, race = seated([alice, bob])
    assert cards_up(alice, race, 5) == 5
    assert cards_up(bob, race, 5) == 5
    resign(alice, race)
    resign(bob, race)
    tick = pairing_tick()
    assert (tick.scored, tick.races) == (1, 0)
    entry = TournamentEntry.objects.get(tournament=tournament, player=alice)
    rest = (entry.waiting_since - timezone.now()).total_seconds()
    assert settings.TOURNAMENT_REST_S - 5 < rest <= settings.TOURNAMENT_REST_S
    assert pairing_tick(now=after_rest()).races == 1


def test_pause_and_come_back_answer_the_race_page_in_json(client: Client, alice, bob) -> None:
    tournament, _race = seated([alice, bob])
    client.force_login(alice.user)
    json = {"Accept": "application/json"}
    paused_now = client.post(f"/t/{tournament.code}/pause", headers=json)
    assert paused_now.status_code == 200
    assert paused_now.json() == {"paused": True}
    back = client.post(f"/t/{tournament.code}/join", headers=json)
    assert back.json() == {"paused": False}
    stranger = Client()
    refused = stranger.post(f"/t/{tournament.code}/pause", headers=json)
    assert refused.status_code == 400
    assert refused.json()["code"] == "not_entrant"
    assert stranger.post("/t/nosuchcode/pause", headers=json).status_code == 404

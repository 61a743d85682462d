"""A finished tournament's page names every race's racers, places, points and replays."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game, Player
from games.tournaments.models import Tournament, TournamentRace
from games.tournaments.pairing import pairing_tick
from games.tournaments.selectors import tournament_races_played
from tests.tournaments.helpers import arena_paired, cards_up, race_go, resign

pytestmark = pytest.mark.django_db


def finished_arena(players: list[Player], cards: list[int]) -> Tournament:
    """One race of them all, each putting `cards` up, then the tournament's end."""
    tournament = arena_paired(players, name="Named")
    race = TournamentRace.objects.get(tournament=tournament).race
    race_go(race)
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(minutes=31), ends_at=timezone.now()
    )
    for player, up in zip(players, cards, strict=True):
        assert cards_up(player, race, up) == up
    for player in players:
        resign(player, race)
    assert pairing_tick().finished == 1
    tournament.refresh_from_db()
    return tournament


def _section(page: str, heading: str) -> str:
    """The races listed under one player's heading on the finished page."""
    start = page.index(heading)
    end = page.find('<h3 class="played-name">', start + len(heading))
    return page[start : end if end != -1 else None]


def test_a_finished_tournament_names_each_races_racers_places_points_and_replays(
    client: Client, alice, bob, charlie
) -> None:
    tournament = finished_arena([alice, bob, charlie], [9, 7, 5])
    page = client.get(f"/t/{tournament.code}/").content.decode()
    raced = Game.objects.filter(race__tournament_race__tournament=tournament)
    games = {game.player_id: game.pk for game in raced}
    mine = _section(page, "1. alice")
    # alice's one race names bob and charlie beside her, each with a replay link,
    # a place and the points their result earned.
    for player in (alice, bob, charlie):
        assert f'href="/games/{games[player.pk]}/replay/"' in mine
        assert player.nickname in mine
    field = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", mine))
    assert re.search(r"1 alice 3 points 2 bob 2 points 3 charlie 1 point\b", field), field
    charlies = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", _section(page, "3. charlie")))
    assert "1 alice 3 points" in charlies


def test_the_finished_page_reads_every_players_races_in_a_constant_number_of_queries(
    client: Client, django_assert_max_num_queries, alice, bob, charlie
) -> None:
    tournament = finished_arena([alice, bob, charlie], [9, 7, 5])
    with django_assert_max_num_queries(2):
        played = tournament_races_played(tournament=tournament)
    assert [r.nickname for r in played[charlie.pk][0].seated] == ["alice", "bob", "charlie"]
    # The page: the same count for three players as it would be for three hundred
    # (it once read each player's races, and folded the standings again, a row at a time).
    with django_assert_max_num_queries(8):
        assert client.get(f"/t/{tournament.code}/").status_code == 200


def test_each_players_race_names_every_racer_with_place_points_and_game(
    alice, bob, charlie
) -> None:
    tournament = finished_arena([alice, bob, charlie], [9, 7, 5])
    played = tournament_races_played(tournament=tournament)
    games = {
        g.player_id: g.pk for g in Game.objects.filter(race__tournament_race__tournament=tournament)
    }
    expected = [
        (alice.pk, "alice", games[alice.pk], 1, 3),
        (bob.pk, "bob", games[bob.pk], 2, 2),
        (charlie.pk, "charlie", games[charlie.pk], 3, 1),
    ]
    for player in (alice, bob, charlie):
        (race,) = played[player.pk]  # one race each: "1 of 3" once named nobody else
        assert [(r.player, r.nickname, r.game, r.place, r.points) for r in race.seated] == expected
        assert race.game == games[player.pk]

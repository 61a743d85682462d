"""What the race page and the tournament page give the browser to carry a racer into the
next race (docs/tournaments.md, "Carried into the next race"): the banner for a racer of
the tournament's latest race only, and the race the visitor is in on /t/<code>/ linked."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from games.models import Race
from games.tournaments.models import Tournament, TournamentRace
from games.tournaments.pairing import pairing_tick
from games.tournaments.services import tournament_pause
from games.tournaments.views import JUST_SEATED_S
from tests.tournaments.helpers import after_rest, arena_paired, cards_up, race_go, resign

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _arena_times(settings) -> None:
    """The defaults, named here: the test reads as the rule (and runs on code without them)."""
    settings.TOURNAMENT_IDLE_S = 60
    settings.TOURNAMENT_REST_S = 10


def banner(page: str) -> dict[str, str] | None:
    found = re.search(r'<section class="r-card tournament-next"[^>]*>', page)
    if found is None:
        return None
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', found.group(0)))


def play_out(tournament: Tournament, alice, bob) -> str:
    link = TournamentRace.objects.get(tournament=tournament, scored_at__isnull=True)
    race_go(link.race)
    for player in (alice, bob):
        cards_up(player, link.race, 5)
        resign(player, link.race)
    pairing_tick()
    return link.race.code


def test_a_racer_of_the_latest_race_gets_the_banner_and_no_one_else(alice, bob, charlie) -> None:
    tournament = arena_paired([alice, bob], name="Carried")
    race = TournamentRace.objects.get(tournament=tournament).race
    client = Client()
    client.force_login(alice.user)
    mine = banner(client.get(f"/r/{race.code}/").content.decode())
    assert mine is not None
    assert mine["tournament"] == tournament.code
    assert mine["race"] == race.code
    assert mine["paused"] == "false"
    assert mine["over"] == "false"
    # Not over yet: the whole rest, counted from the end the page will see.
    assert int(mine["free-in-ms"]) == settings.TOURNAMENT_REST_S * 1000
    watcher = Client()
    watcher.force_login(charlie.user)
    assert banner(watcher.get(f"/r/{race.code}/").content.decode()) is None
    assert banner(Client().get(f"/r/{race.code}/").content.decode()) is None


def test_after_the_end_the_banner_counts_what_is_left_of_the_rest(alice, bob) -> None:
    tournament = arena_paired([alice, bob], name="Carried")
    code = play_out(tournament, alice, bob)
    client = Client()
    client.force_login(bob.user)
    mine = banner(client.get(f"/r/{code}/").content.decode())
    assert mine is not None
    assert 0 < int(mine["free-in-ms"]) <= settings.TOURNAMENT_REST_S * 1000
    tournament_pause(tournament=tournament, player=bob)
    paused = banner(client.get(f"/r/{code}/").content.decode())
    assert paused is not None
    assert paused["paused"] == "true"


def test_an_earlier_race_s_page_carries_nobody(alice, bob) -> None:
    tournament = arena_paired([alice, bob], name="Carried")
    first = play_out(tournament, alice, bob)
    assert pairing_tick(now=after_rest()).races == 1
    client = Client()
    client.force_login(alice.user)
    assert banner(client.get(f"/r/{first}/").content.decode()) is None


def test_the_tournament_page_links_the_race_its_visitor_is_in_and_is_told_it(alice, bob) -> None:
    tournament = arena_paired([alice, bob], name="Carried")
    race = TournamentRace.objects.get(tournament=tournament).race
    client = Client()
    client.force_login(alice.user)
    page = client.get(f"/t/{tournament.code}/").content.decode()
    # Just seated (counting down, or barely started): the page's script takes them there.
    assert 'data-under-way=""' in page
    race_go(race)
    assert 'data-under-way=""' in client.get(f"/t/{tournament.code}/").content.decode()
    started = timezone.now() - timedelta(seconds=JUST_SEATED_S + 1)
    Race.objects.filter(pk=race.pk).update(starts_at=started)
    page = client.get(f"/t/{tournament.code}/").content.decode()
    # Under way: the script takes its visitor only to a race other than this one; they
    # came to see the table or to pause (frontend/static/js/pages/tournament.js).
    assert f'data-under-way="{race.code}"' in page
    assert re.search(
        rf'<p class="tournament-race-link" id="your-race"><a [^>]*href="/r/{race.code}/"', page
    )
    assert "Pause (leave the queue)" in page

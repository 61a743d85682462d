"""The tournament pages over HTTP, and the race page's link back to its tournament."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.admin import helpers
from django.test import Client

from games.engine import VARIANTS
from games.tournaments.models import Tournament, TournamentEntry
from games.tournaments.services import tournaments_schedule_daily
from tests.tournaments.helpers import arena, arena_paired

pytestmark = pytest.mark.django_db


def test_the_list_answers_and_makes_the_site_daily_arenas(client: Client) -> None:
    response = client.get("/tournaments/")
    assert response.status_code == 200
    assert Tournament.objects.filter(created_by__isnull=True).exists()
    assert "Daily arena" in response.content.decode()
    made = Tournament.objects.count()
    client.get("/tournaments/")  # idempotent: the arenas are made once
    assert Tournament.objects.count() == made


def test_the_daily_arena_of_each_variant_is_made_once_at_the_configured_hour(db, settings) -> None:
    settings.TOURNAMENT_DAILY_HOUR_UTC = 9
    morning = datetime(2026, 12, 3, 8, tzinfo=UTC)
    made = tournaments_schedule_daily(now=morning)
    assert made == len(VARIANTS)
    starts = set(Tournament.objects.values_list("starts_at", flat=True))
    assert starts == {datetime(2026, 12, 3, 9, tzinfo=UTC)}
    assert tournaments_schedule_daily(now=morning) == 0
    # Once today's has started, tomorrow's is made too.
    assert tournaments_schedule_daily(now=morning + timedelta(hours=2)) == len(VARIANTS)


def test_an_account_player_creates_one_and_a_guest_is_told_to_log_in(client, alice) -> None:
    form = {"name": "Friday", "variant": "sultan", "minutes": "30", "seats": "3"}
    form |= {"starts_in": "0", "public": "on"}
    refused = client.post("/tournaments/new", form)
    assert refused.status_code == 400
    assert "log in" in refused.content.decode()
    client.force_login(alice.user)
    made = client.post("/tournaments/new", form)
    tournament = Tournament.objects.get(name="Friday")
    assert made.status_code == 302
    assert made["Location"] == f"/t/{tournament.code}/"
    bad = client.post("/tournaments/new", form | {"minutes": "abc"})
    assert bad.status_code == 400
    assert Tournament.objects.filter(name="Friday").count() == 1


def test_a_guest_joins_by_nickname_and_pauses(client, alice) -> None:
    tournament = arena(alice, name="Open", public=False)
    page = client.get(f"/t/{tournament.code}/")
    assert page.status_code == 200
    assert "Join the tournament" in page.content.decode()
    joined = client.post(f"/t/{tournament.code}/join", {"nickname": "bob"})
    assert joined.status_code == 302
    entry = TournamentEntry.objects.get(tournament=tournament)
    assert entry.player.nickname == "bob"
    assert not entry.paused
    client.post(f"/t/{tournament.code}/pause")
    entry.refresh_from_db()
    assert entry.paused
    assert "Come back" in client.get(f"/t/{tournament.code}/").content.decode()


def test_an_unknown_tournament_is_the_sites_404(client) -> None:
    assert client.get("/t/nosuchcode/").status_code == 404


def test_a_tournament_race_links_back_to_its_tournament(client, alice, bob) -> None:
    tournament = arena_paired([alice, bob], name="Linked")
    race = tournament.races.get().race
    page = client.get(f"/r/{race.code}/").content.decode()
    assert f'href="/t/{tournament.code}/"' in page
    standings = client.get(f"/t/{tournament.code}/").content.decode()
    assert f'href="/r/{race.code}/"' in standings  # spectators open any running race


def test_a_moderator_lists_tournaments_and_voids_a_race_with_a_reason(
    client, moderator, alice, bob
) -> None:
    tournament = arena_paired([alice, bob], name="Moderated")
    link = tournament.races.get()
    client.force_login(moderator)
    assert "Moderated" in client.get("/admin/games/tournament/").content.decode()
    url = "/admin/games/tournamentrace/"
    selected = {"action": "void", helpers.ACTION_CHECKBOX_NAME: [str(link.pk)]}
    asked = client.post(url, selected)
    assert asked.status_code == 200
    assert "Reason" in asked.content.decode()
    assert not hasattr(type(link).objects.get(pk=link.pk), "void")
    client.post(url, {**selected, "apply": "1", "reason": "a bot farm"})
    assert type(link).objects.get(pk=link.pk).void.reason == "a bot farm"

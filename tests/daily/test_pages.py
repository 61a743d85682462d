"""The daily pages over HTTP: playing, resuming, past days, bad addresses."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from games.daily.models import DailyAttempt
from games.daily.rules import daily_today
from games.models import Player

pytestmark = pytest.mark.django_db


def test_a_guest_plays_todays_deal_and_reloading_resumes_it():
    client = Client()
    page = client.get("/daily/")
    assert page.status_code == 200
    assert b'name="nickname"' in page.content
    first = client.post("/daily/play", {"variant": "sultan", "nickname": "alice"})
    assert first.status_code == 302
    assert first["Location"].startswith("/r/")
    again = client.post("/daily/play", {"variant": "sultan"})
    assert again["Location"] == first["Location"]
    assert DailyAttempt.objects.count() == 1
    page = client.get("/daily/")
    assert first["Location"].encode() in page.content  # "Resume your attempt"


def test_playing_without_a_nickname_is_refused_and_writes_nothing():
    answer = Client().post("/daily/play", {"variant": "sultan"})
    assert answer.status_code == 400
    assert b"Pick a nickname" in answer.content
    assert not DailyAttempt.objects.exists()
    assert not Player.objects.exists()


def test_an_unknown_variant_is_not_found():
    assert Client().get("/daily/?variant=klondike").status_code == 404
    assert Client().post("/daily/play", {"variant": "klondike", "nickname": "x"}).status_code == 404


def test_days_to_come_and_bad_dates_have_no_page():
    client = Client()
    tomorrow = daily_today() + timedelta(days=1)
    assert client.get(f"/daily/{tomorrow.isoformat()}/").status_code == 404
    for bad in ("2026-13-01", "yesterday", "2026-1-1"):
        assert client.get(f"/daily/{bad}/").status_code == 404, bad
    today = client.get(f"/daily/{daily_today().isoformat()}/?variant=sultan-8")
    assert today.status_code == 302
    assert today["Location"] == "/daily/?variant=sultan-8"


def test_the_home_page_links_the_daily_deal():
    assert b'href="/daily/"' in Client().get("/").content


def test_an_abandoned_attempt_is_closed_on_time_when_the_page_is_read():
    from django.utils import timezone

    from games.accounts.services import player_create_guest
    from games.models import Game, Race
    from tests.daily.helpers import attempt, play_some

    taken = attempt(player_create_guest(nickname="alice"))
    play_some(taken.game, 2)
    Client().get("/daily/")
    assert Game.objects.get(pk=taken.game_id).status == "playing"  # its time is not up
    Race.objects.filter(pk=taken.race_id).update(ends_at=timezone.now())
    page = Client().get("/daily/")
    game = Game.objects.get(pk=taken.game_id)
    assert game.status == "timeout"
    assert Race.objects.get(pk=taken.race_id).status == "finished"
    assert b"Time ran out" in page.content

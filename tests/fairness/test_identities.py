"""One person, one first sight: a guest's rehearsal, a log-in, a log-out, an account
deleted and made again, a challenge on a deal already played (docs/anticheat.md)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.challenges.services import challenge_attempt_start, challenge_create
from games.daily.rules import daily_today
from games.daily.selectors import daily_leaderboard
from games.fairness.models import IdentityLink, UnrankedGame, UnrankedReason
from games.fairness.rules import ranking_for
from games.models import Player
from games.store.services import game_create, game_resign
from tests.daily.helpers import play_some, resign
from tests.fairness.conftest import (
    PASSWORD,
    account_with_password,
    daily_by_browser,
    is_unranked,
    log_in,
)
from tests.pages.helpers import client_for

pytestmark = pytest.mark.django_db


def _board() -> list[str]:
    return [s.nickname for s in daily_leaderboard(day=daily_today(), variant="sultan")]


def test_a_second_guests_rehearsal_does_not_become_an_accounts_result():
    """Defect 2: a guest's attempt became the account's ranked result on logging in."""
    account_with_password("erin")
    first, second = Client(), Client()
    resign(play_some(daily_by_browser(first, "erin-1").game, 5))
    rehearsal = daily_by_browser(second, "erin-2")
    resign(play_some(rehearsal.game, 8))
    erin = log_in(second, "erin")
    rehearsal.refresh_from_db()
    assert rehearsal.player == erin  # her history keeps it ...
    assert is_unranked(rehearsal)  # ... out of every ranking
    assert UnrankedGame.objects.get(game=rehearsal.game).reason == UnrankedReason.CARRIED
    assert "erin" not in _board()
    # And the account's attempt of the day is that one: no fresh, ranked try.
    again = daily_by_browser(second)
    assert again.pk == rehearsal.pk
    page = second.get("/daily/").content.decode()
    assert "not ranked" in page


def test_the_account_is_told_before_it_starts_that_a_guest_saw_the_deal(alice: Player):
    """A guest who played the day before logging in, into an account that has an attempt
    of its own: the guest's stays the guest's, the second of the two is unranked."""
    browser = Client()
    mine = daily_by_browser(client_for(alice))
    resign(play_some(mine.game, 2))
    guests = daily_by_browser(browser, "not-alice")
    resign(guests.game)
    assert alice.user is not None
    browser.force_login(alice.user)  # the user_logged_in receiver runs as for a form log-in
    guests.refresh_from_db()
    assert guests.player.is_guest  # one attempt a day: it stays with the guest ...
    assert is_unranked(guests)  # ... and was her second sight of the deal
    assert not is_unranked(mine)
    assert IdentityLink.objects.filter(earlier=guests.player, later=alice).exists()


def test_a_guest_who_signs_up_keeps_their_ranked_result():
    browser = Client()
    taken = daily_by_browser(browser, "frank")
    resign(play_some(taken.game, 4))
    response = browser.post(
        "/accounts/signup/",
        {"username": "frank", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    taken.refresh_from_db()
    assert taken.player.user is not None
    assert not is_unranked(taken)
    assert _board() == ["frank"]


def test_a_guest_after_a_log_out_is_the_same_person(alice: Player):
    account_with_password("gina")
    browser = Client()
    log_in(browser, "gina")
    resign(play_some(daily_by_browser(browser).game, 3))
    assert browser.post("/accounts/logout/").status_code == 302
    second = daily_by_browser(browser, "definitely-not-gina")
    assert is_unranked(second)
    assert _board() == ["gina"]


def test_an_account_deleted_and_made_again_has_seen_what_it_saw():
    account_with_password("hana")
    browser = Client()
    log_in(browser, "hana")
    resign(play_some(daily_by_browser(browser).game, 3))
    deleted = browser.post("/accounts/delete/", {"password": PASSWORD})
    assert deleted.status_code == 200
    made = browser.post(
        "/accounts/signup/",
        {"username": "hana", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert made.status_code == 302
    again = daily_by_browser(browser)
    assert again.player.user is not None
    assert again.player.user.username == "hana"
    assert is_unranked(again)
    assert _board() == ["deleted player"]


def test_the_daily_page_says_so_before_the_attempt_in_both_languages():
    account_with_password("ines")
    browser = Client()
    log_in(browser, "ines")
    assert "Unranked." not in browser.get("/daily/").content.decode()
    resign(daily_by_browser(browser).game)
    browser.post("/accounts/logout/")
    # Nobody is signed in, no guest yet: the browser is still the one that played.
    assert "Unranked." in browser.get("/daily/").content.decode()
    russian = browser.get("/daily/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Без рейтинга." in russian
    assert "Вы уже видели этот расклад" in russian
    assert is_unranked(daily_by_browser(browser, "ines-again"))
    assert Client().get("/daily/").content.decode().count("Unranked.") == 0


def test_a_challenge_on_a_deal_already_played_is_unranked_and_said_so(alice: Player, bob: Player):
    practice = game_create(player=alice, variant="sultan", seed=4242)
    game_resign(game_id=practice.pk, player=alice, client_move_id="r", expected_seq=0)
    practice.refresh_from_db()
    challenge = challenge_create(player=alice, game=practice)
    # bob practised the same deal first (its number told to him, or a guess).
    seen = game_create(player=bob, variant="sultan-8", seed=4242)
    page = client_for(bob).get(f"/c/{challenge.code}/").content.decode()
    assert "You have already seen this deal" in page
    taken = challenge_attempt_start(challenge=challenge, player=bob).attempt
    assert UnrankedGame.objects.get(game=taken.game).seen_in_id == seen.pk
    # Her own challenge: the original is her first sight, the attempt her second.
    own = challenge_attempt_start(challenge=challenge, player=alice).attempt
    assert UnrankedGame.objects.filter(game=own.game).exists()


def test_the_rule_is_one_function_for_every_identity(alice: Player, bob: Player):
    game_create(player=bob, variant="sultan", seed=99)
    assert ranking_for(player=alice, seed=99).ranked
    IdentityLink.objects.create(earlier=bob, later=alice, kind="login")
    verdict = ranking_for(player=alice, seed=99)
    assert not verdict.ranked
    assert verdict.reason == UnrankedReason.SEEN

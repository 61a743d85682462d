"""Carried into the next race (docs/tournaments.md): three racers finish a race and land
in the next one without a click, a fourth page sees the table change live; the
tournament page opened during a race stays on its standings; Pause from a race's end
stops the carry while the others are carried on."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.racing import WAIT, board, no_js_errors, placed, resign
from tests.browser.test_social import _play_a_card, _sign_up
from tests.browser.test_tournament import _points, _race_code, _row, _stored
from tests.servers import LiveServer, daphne, database_env, live_sql

# Three-seat races paired every 300 ms; a short race gathers 2 s; a race's racers rest
# 30 s (the banner counts them down): time enough, on a loaded machine, for the page to
# see the end and click Pause before the rest is over. At 6 s, and once at 15 s (in a
# preflight's PostgreSQL phase), alice was carried into the next race before her click:
# her page met the end only once the tournament had seated her again. Nobody is
# withdrawn for idling here.
CARRY_ENV = {
    "SULTAN_TOURNAMENT_MIN_MINUTES": "3",
    "SULTAN_TOURNAMENT_TICK_MS": "300",
    "SULTAN_TOURNAMENT_GATHER_S": "2",
    "SULTAN_TOURNAMENT_REST_S": "30",
    "SULTAN_TOURNAMENT_IDLE_S": "600",
    "SULTAN_TOURNAMENT_RACE_S": "120",
    "SULTAN_RACE_COUNTDOWN_S": "4",
}
# The rest, the gather and a tick, with room for a loaded machine.
CARRIED_WITHIN_MS = (30 + 2) * 1000 + WAIT * 3
PHONE = {"width": 390, "height": 844}
RUSSIAN = {"locale": "ru-RU", "extra_http_headers": {"Accept-Language": "ru-RU,ru"}}
SHOTS = "/tmp/h37-{}.png"


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with database_env("tournament_carry") as env, daphne({**env, **CARRY_ENV}) as server:
        yield server


def _shot(page: Any, name: str) -> None:
    page.screenshot(path=SHOTS.format(name), full_page=True)


def _racing(page: Any) -> None:
    """Past the countdown, whatever the page's language."""
    expect(page.locator("#race")).to_have_attribute("data-phase", "racing", timeout=WAIT * 2)
    expect(board(page)).not_to_have_class(re.compile(r"\bis-readonly\b"), timeout=WAIT)


def _resign_any_language(page: Any) -> None:
    page.locator("#race-resign").click()
    page.locator("#resign-confirm").click()
    over = board(page).locator(".sb-status")
    expect(over.or_(page.locator("#results-table")).first).to_be_visible(timeout=WAIT)


def _banner(page: Any) -> Any:
    return page.locator("#tournament-next")


def test_racers_are_carried_into_the_next_race_and_pause_stops_it(live, new_page) -> None:
    alice, charlie, dave = new_page(), new_page(**PHONE), new_page()
    bob = new_page(**PHONE, **RUSSIAN)  # a Russian phone: the banner in both shapes
    _sign_up(alice, "alice")
    alice.goto("/tournaments/")
    alice.fill("#t-name", "Carried arena")
    alice.select_option("#t-minutes", "10")
    alice.select_option("#t-seats", "3")
    alice.select_option("#t-starts", "5")  # joined before the start: one race of three
    alice.get_by_role("button", name="Create the tournament").click()
    alice.wait_for_url(re.compile(r".*/t/[^/]+/$"))
    url = alice.url
    code = url.rstrip("/").rsplit("/", 1)[1]
    alice.get_by_role("button", name="Join the tournament").click()
    for page, nickname in ((bob, "bob"), (charlie, "charlie")):
        page.goto(url)
        page.fill("#t-nickname", nickname)
        page.locator(".tournament-join button[type=submit]").click()
        expect(page.locator("#you-status")).to_be_visible()
    dave.goto(url)
    expect(_row(dave, "charlie")).to_be_visible(timeout=WAIT)
    now = datetime.now(UTC)
    live_sql(
        live, "UPDATE games_tournament SET starts_at = %s WHERE code = %s", _stored(live, now), code
    )

    # Race 1: the three are taken to it from the tournament's page.
    first = _race_code(alice)
    assert _race_code(bob) == first
    assert _race_code(charlie) == first
    expect(dave.locator("#tournament")).to_have_attribute("data-phase", "running", timeout=WAIT)
    expect(dave.locator("#tournament")).to_have_attribute("data-live", "true", timeout=WAIT)
    dave.evaluate("window.sameDocument = true")  # gone if the page reloaded
    for page in (alice, bob, charlie):
        _racing(page)
        expect(_banner(page)).to_be_hidden()  # only at the race's end
        placed(page)
    _play_a_card(alice)
    for page in (alice, charlie):
        resign(page)
    _resign_any_language(bob)

    # The end: each sees the next race counted down, with Pause; no Rematch offered.
    for page in (alice, bob, charlie):
        expect(_banner(page)).to_be_visible(timeout=WAIT)
        expect(page.locator("#results-rematch")).to_be_hidden()
    expect(_banner(alice)).to_contain_text(re.compile(r"Next race in \d+ seconds?"))
    expect(_banner(bob)).to_contain_text(re.compile(r"Следующий заезд через \d+"))
    expect(alice.locator("#tournament-pause")).to_be_visible()
    _shot(alice, "banner-en-desktop")
    _shot(charlie, "banner-en-phone")
    _shot(bob, "banner-ru-phone")
    expect(_points(dave, "alice")).to_have_text("3", timeout=WAIT)

    # Race 2, without a click: the rest is over and the tournament seats them again.
    second = _race_code(alice, other_than=first, timeout=CARRIED_WITHIN_MS)
    assert _race_code(bob, other_than=first) == second
    assert _race_code(charlie, other_than=first) == second
    for page in (alice, bob, charlie):
        _racing(page)
    expect(_row(dave, "alice").locator("td").nth(5)).to_contain_text("racing", timeout=WAIT)

    # The tournament's page opened during the race stays on its standings: the race is
    # linked, Pause is there, nothing sends them away.
    alice.goto(url)
    bob.goto(url)
    for page in (alice, bob):
        expect(page.locator("#tournament")).to_have_attribute("data-live", "true", timeout=WAIT)
        expect(page.locator("#your-race")).to_be_visible()
    for page in (alice, bob):  # the table drawn: a redirect, were there one, came with it
        expect(page.locator("#tournament")).to_have_attribute("data-version", re.compile(r"\d"))
    alice.wait_for_timeout(1000)  # and a navigation it started has committed
    assert alice.url == url
    assert bob.url == url
    expect(alice.get_by_role("button", name="Pause (leave the queue)")).to_be_visible()
    _shot(alice, "tournament-during-race-en-desktop")
    _shot(bob, "tournament-during-race-ru-phone")
    phone = new_page(**PHONE)
    phone.goto(url)
    expect(_row(phone, "alice")).to_be_visible()
    _shot(phone, "tournament-during-race-en-phone")
    for page in (alice, bob):
        page.locator("#your-race-link").click()
        page.wait_for_url(f"**/r/{second}/")
        _racing(page)

    for page in (alice, bob, charlie):
        placed(page)
    _play_a_card(charlie)
    _resign_any_language(bob)
    resign(charlie)
    resign(alice)  # the last: her page sees the end first

    # alice pauses from the banner: bob and charlie are carried on, she stays.
    expect(_banner(alice)).to_be_visible(timeout=WAIT)
    alice.locator("#tournament-pause").click()
    expect(_banner(alice)).to_contain_text("Paused", timeout=WAIT)
    expect(alice.locator("#tournament-resume")).to_be_visible()
    _shot(alice, "banner-paused-en-desktop")
    third = _race_code(bob, other_than=second, timeout=CARRIED_WITHIN_MS)
    assert _race_code(charlie, other_than=second) == third
    expect(_row(dave, "alice").locator("td").nth(5)).to_contain_text("paused", timeout=WAIT)
    assert alice.url.endswith(f"/r/{second}/")
    expect(_banner(alice)).to_have_attribute("data-state", "paused")
    expect(_points(dave, "charlie")).to_have_text("3")
    assert dave.evaluate("window.sameDocument") is True  # the table changed live
    no_js_errors(alice, bob, charlie, dave, phone)

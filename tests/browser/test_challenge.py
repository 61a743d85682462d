"""A challenge in Chromium: alice's finished practice game, raced by bob and
carol, each in a game of their own, with alice's recorded game moving in the
opponents' panel at the pace she played it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.racing import DEAL, WAIT, no_js_errors, panel, resign, wait_until_racing
from tests.servers import LiveServer, daphne, database_env

# alice's game starts with a draw (a deal only opened is not yet a game, so its
# clock starts at its first event); her first card goes up this long after, then
# she resigns.
FIRST_CARD_MS = 2500


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    """This module's own server. Its replays show alice's practice game only while no
    race elsewhere seals deal 33, and the session's server runs every other test's
    races: in the full suite one sealed it, and bob's replay showed no other racer."""
    with (
        database_env("challenge") as env,
        daphne({**env, "SULTAN_RACE_COUNTDOWN_S": "2"}) as server,
    ):
        yield server


def _recorded_game(new_page: Any) -> Any:
    alice = new_page()
    alice.goto(f"/practice/{DEAL}/")
    alice.wait_for_selector(".sultan-board .sb-table")
    alice.click(".sultan-board [data-action=stock]")
    expect(alice.locator(".sultan-board .sb-stock .sb-count")).to_have_text("88", timeout=WAIT)
    alice.wait_for_timeout(FIRST_CARD_MS)
    alice.click('[data-slot="a"] .sb-spot')  # the two of hearts, to foundation 2
    expect(alice.locator("#stat-cards")).to_have_text("1", timeout=WAIT)
    alice.wait_for_timeout(1000)
    alice.click("#resign")
    alice.click("dialog#resign-dialog button[value=resign]")
    expect(alice.locator("#result-replay")).to_be_visible(timeout=WAIT)
    alice.locator("#result-replay").click()
    return alice


def _take(page: Any, url: str, nickname: str) -> None:
    page.goto(url)
    page.get_by_label("Nickname").fill(nickname)
    page.get_by_role("button", name="Take the challenge").click()
    expect(page).to_have_url(re.compile(r"/r/[^/]+/$"), timeout=WAIT)


def test_a_challenge_taken_by_two_people_shows_the_recorded_game_moving(live, new_page, shot):
    alice = _recorded_game(new_page)
    # A guest is asked for the name the challenge will show (docs/pages.md).
    alice.get_by_label("Your nickname, shown on the challenge").fill("alice")
    alice.get_by_role("button", name="Challenge a friend").click()
    expect(alice).to_have_url(re.compile(r"/c/[^/]+/$"), timeout=WAIT)
    link = alice.locator("#challenge-link").input_value()
    shot(alice, "challenge-page")

    bob, carol = new_page(), new_page(390, 844)
    for page, name in ((bob, "bob"), (carol, "carol")):
        _take(page, link, name)
        ghost = panel(page, "alice")
        expect(ghost).to_be_visible(timeout=WAIT)
        expect(ghost.locator(".opp-recorded")).to_have_text("recorded")
        wait_until_racing(page)
        # Its cards never show: a race view, and at first no card played.
        expect(ghost.locator(".sb-mini-meta")).to_contain_text("0/95")
        expect(ghost.locator(".sc-card")).to_have_count(0)
        # Then it moves on the race's clock, as alice played it.
        expect(ghost.locator(".sb-mini-meta")).to_contain_text("1/95", timeout=WAIT)
        expect(ghost.locator(".sb-mini-cell").nth(1)).to_have_text("2")
        expect(ghost.locator(".sb-mini-status")).to_have_text("Resigned", timeout=WAIT)
        shot(page, f"challenge-racing-{name}")  # carol's is a phone
        resign(page)
        rows = page.locator("#results-table tbody tr")
        expect(rows).to_have_count(2, timeout=WAIT)
        expect(rows.nth(0)).to_contain_text("alice")  # one card beats none
        expect(rows.nth(0)).to_contain_text("recorded")
        expect(rows.nth(1)).to_contain_text(name)

    # The challenge's page ranks both takers with the original.
    alice.reload()
    ranking = alice.locator("#challenge-ranking tbody tr")
    expect(ranking).to_have_count(3)
    expect(ranking.nth(0)).to_contain_text("alice")
    expect(ranking.nth(0)).to_contain_text("recorded")
    shot(alice, "challenge-ranking")
    carol.goto(link)
    shot(carol, "challenge-phone")

    # bob's replay shows both games side by side.
    bob.goto(link)
    bob.get_by_role("link", name="Replay both side by side").click()
    expect(bob.locator("#racers .racer-card")).to_have_count(1, timeout=WAIT)
    expect(bob.locator("#racers")).to_contain_text("alice")
    shot(bob, "challenge-replay")
    no_js_errors(alice, bob, carol)

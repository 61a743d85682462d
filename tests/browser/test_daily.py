"""The daily deal in Chromium: from the home page's link to the first move, a
reload that resumes the attempt, the results, and the day's leaderboard."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.racing import (
    WAIT,
    board,
    no_js_errors,
    resign,
    settled,
    stock_count,
    wait_until_racing,
)
from tests.servers import LiveServer, daphne, database_env

CARD_IN_TEXT = re.compile(r"\b[A2-9TJQK][CDHS]\b")


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    """This module's own server: alice plays the day's first attempt, and the board it
    checks holds hers alone (on the session's server, another test's daily attempt of
    the same day came first in a random order)."""
    with database_env("daily") as env, daphne({**env, "SULTAN_RACE_COUNTDOWN_S": "2"}) as server:
        yield server


def test_a_daily_attempt_from_the_first_move_to_the_leaderboard(live, new_page, shot):
    alice = new_page()
    alice.goto("/")
    alice.get_by_role("navigation", name="Main").get_by_role("link", name="Daily").click()
    expect(alice.get_by_role("heading", level=1)).to_contain_text("Today’s deal")
    shot(alice, "daily-before")
    alice.get_by_label("Nickname").fill("alice")
    alice.get_by_role("button", name=re.compile("Play today’s Sultan deal")).click()
    expect(alice).to_have_url(re.compile(r"/r/[^/]+/$"), timeout=WAIT)
    race_url = alice.url
    expect(alice.locator(".race-origin")).to_contain_text("Daily deal of")
    wait_until_racing(alice)

    # The first move: a draw, accepted by the server.
    before = int(stock_count(alice).inner_text())
    board(alice).locator("[data-action=stock]").click()
    expect(stock_count(alice)).to_have_text(str(before - 1), timeout=WAIT)
    settled(alice)
    shot(alice, "daily-racing")

    # The attempt counts once started: the daily page resumes it, and so does a reload.
    alice.goto("/daily/")
    alice.get_by_role("link", name="Resume your attempt").click()
    expect(alice).to_have_url(race_url)
    wait_until_racing(alice)
    expect(stock_count(alice)).to_have_text(str(before - 1), timeout=WAIT)

    resign(alice)
    rows = alice.locator("#results-table tbody tr")
    expect(rows).to_have_count(1, timeout=WAIT)
    expect(rows.nth(0)).to_contain_text("alice")
    expect(alice.get_by_role("button", name="Rematch")).to_be_hidden()
    expect(alice.get_by_role("button", name="Challenge a friend")).to_be_visible()
    # The day is not over: the results never name the deal.
    expect(alice.locator("#results-deal")).to_have_text("")

    alice.locator(".race-origin a").click()
    board_rows = alice.locator("#daily-board tbody tr")
    expect(board_rows).to_have_count(1, timeout=WAIT)
    expect(board_rows.nth(0)).to_contain_text("alice")
    expect(board_rows.nth(0)).to_contain_text("Resigned")
    expect(alice.locator("[data-streak=played]")).to_have_text("1")
    share = alice.locator("#share-text").input_value()
    assert "Not won" in share
    # No card played yet: no time to the last one either.
    assert re.search(r"0/95 cards · —", share), share
    assert not CARD_IN_TEXT.findall(share), share
    expect(alice.locator(".daily-deal")).to_contain_text("Secret until the day is over")
    expect(alice.get_by_role("link", name=re.compile("^Replay"))).to_have_count(0)
    shot(alice, "daily-leaderboard")

    # Someone else sees alice ranked, and no way to her game yet.
    bob = new_page(390, 844)
    bob.goto("/daily/")
    expect(bob.locator("#daily-board tbody tr").nth(0)).to_contain_text("alice")
    expect(bob.get_by_role("button", name=re.compile("Play today’s"))).to_be_visible()
    shot(bob, "daily-phone")
    no_js_errors(alice, bob)

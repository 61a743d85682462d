"""The house bot in Chromium: the host adds `Sultan bot` to a private race's lobby, at
full strength on a winnable deal, and loses to it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.racing import WAIT, create_race, no_js_errors, panel, racer_row, resign
from tests.servers import LiveServer, daphne, database_env

# The bots' minimum gap, shortened so that a whole winning game takes seconds.
BOT_GAP_MS = "30"


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    with database_env("browser_bot") as env:
        fast = {**env, "SULTAN_RACE_COUNTDOWN_S": "2", "SULTAN_BOT_MIN_GAP_MS": BOT_GAP_MS}
        with daphne(fast) as server:
            yield server


def test_the_host_adds_the_house_bot_and_loses_to_it_at_full_strength(
    live: LiveServer, new_page: Any, shot: Any
):
    alice = new_page()
    create_race(alice, live.url, deal="", winnable="on", seats=2)
    expect(alice.locator("#race-deal-label")).to_have_text("Secret winnable deal")

    form = alice.locator("#lobby-bot")
    expect(form).to_be_visible(timeout=WAIT)
    form.get_by_label("Strength").select_option(label="Solver, full budget")
    form.get_by_label("Pace").select_option(label="Fast")
    shot(alice, "house-bot-lobby-form")
    form.get_by_role("button", name="Add Sultan bot").click()

    bot_row = racer_row(alice, "Sultan bot")
    expect(bot_row).to_be_visible(timeout=WAIT)
    expect(bot_row.locator(".r-tag.is-bot")).to_have_text("BOT")
    expect(bot_row.locator(".lobby-mark")).to_have_text("Ready", timeout=WAIT)
    expect(form).to_have_count(0)  # one house bot a race
    shot(alice, "house-bot-lobby")

    alice.get_by_role("button", name="Start the race").click()
    expect(alice.locator("#race-clock-label")).to_have_text("Time left", timeout=WAIT)
    expect(panel(alice, "Sultan bot").locator(".opp-recorded.is-bot")).to_have_text("BOT")
    # The bot is under way while alice watches, then she gives up.
    expect(panel(alice, "Sultan bot").locator(".sb-mini-meta b")).not_to_have_text(
        "0", timeout=WAIT * 3
    )
    shot(alice, "house-bot-racing")
    resign(alice)

    table = alice.locator("#results-table")
    expect(table).to_be_visible(timeout=120_000)
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("th")).to_contain_text("Sultan bot")
    expect(rows.nth(0).locator("th .r-tag.is-bot")).to_have_text("BOT")
    expect(rows.nth(0)).to_contain_text("Won")
    expect(rows.nth(0).locator("td").nth(2)).to_have_text("95/95")
    expect(rows.nth(1).locator("th")).to_contain_text("alice")
    expect(rows.nth(1)).to_contain_text("Resigned")
    shot(alice, "house-bot-results")
    no_js_errors(alice)

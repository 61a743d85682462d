"""The race page in real Chromium: separate browser contexts are separate people.

alice hosts, bob joins by the link, carol only watches. Races use an open deal
(deal 33, variant sultan) where slot a holds the two of hearts, which has
exactly one place to go, so a move that changes the race view is certain.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.racing import (
    DEAL,
    WAIT,
    board,
    create_race,
    join,
    no_js_errors,
    panel,
    racer_row,
    resign,
    settled,
    start_race,
    still,
    stock_count,
    tab_to,
    wait_until_racing,
)

# ——— the lobby ———


def test_racers_see_each_other_arrive_get_ready_and_the_host_may_start(live, new_page, shot):
    alice = new_page(permissions=["clipboard-read", "clipboard-write"])
    bob = new_page()
    code = create_race(alice, live.url)

    start = alice.get_by_role("button", name="Start the race")
    expect(racer_row(alice, "alice")).to_be_visible(timeout=WAIT)
    expect(start).to_be_disabled()
    expect(alice.locator("#lobby-hint")).to_contain_text("at least one more racer")
    expect(alice.locator("#share-link")).to_have_value(re.compile(rf"/r/{code}/$"))
    alice.get_by_role("button", name="Copy link").click()
    expect(alice.locator("#share-note")).to_contain_text("Link copied")
    assert alice.evaluate("navigator.clipboard.readText()") == f"{live.url}/r/{code}/"

    join(bob, code, "bob")
    expect(racer_row(alice, "bob")).to_be_visible(timeout=WAIT)
    expect(racer_row(alice, "bob")).to_have_attribute("data-here", "true")
    expect(racer_row(bob, "alice")).to_be_visible()
    expect(racer_row(alice, "bob").locator(".lobby-mark")).to_have_text("Not ready")
    expect(start).to_be_enabled()
    expect(alice.locator("#lobby-hint")).to_contain_text("bob isn’t ready yet")

    # From the keyboard: Tab reaches the ready toggle, its focus shows, Space presses it.
    tab_to(bob, "lobby-ready")
    outline = bob.evaluate("getComputedStyle(document.activeElement).outlineWidth")
    assert float(outline.removesuffix("px")) >= 2, outline
    bob.keyboard.press("Space")
    expect(racer_row(alice, "bob").locator(".lobby-mark")).to_have_text("Ready", timeout=WAIT)
    expect(bob.locator("#lobby-ready")).to_have_attribute("aria-pressed", "true")
    expect(alice.locator("#lobby-hint")).to_contain_text("Everyone’s ready")
    # The lobby's live dot pulses twice and rests: nothing moves for more than 5 s
    # (WCAG 2.2.2), and nothing keeps the device drawing frames while people wait.
    still(alice)
    shot(alice, "race-lobby-host")
    shot(bob, "race-lobby-joiner")
    no_js_errors(alice, bob)


def test_a_racer_who_leaves_frees_the_seat_and_may_join_again(live, new_page):
    alice, bob = new_page(), new_page()
    code = create_race(alice, live.url)
    join(bob, code, "bob")
    expect(racer_row(alice, "bob")).to_be_visible(timeout=WAIT)

    bob.get_by_role("button", name="Leave the race").click()
    expect(racer_row(alice, "bob")).to_have_count(0, timeout=WAIT)
    expect(alice.get_by_role("button", name="Start the race")).to_be_disabled()
    expect(racer_row(bob, "alice")).to_be_visible()
    expect(racer_row(bob, "bob")).to_have_count(0)
    # bob's guest session is his key: no nickname asked the second time.
    expect(bob.get_by_label("Your nickname")).to_have_count(0)
    bob.get_by_role("button", name="Join the race").click()
    expect(racer_row(alice, "bob")).to_have_attribute("data-here", "true", timeout=WAIT)
    expect(alice.get_by_role("button", name="Start the race")).to_be_enabled()
    no_js_errors(alice, bob)


def test_a_racer_who_left_and_rejoined_shows_as_away_once_their_page_closes(live, new_page):
    alice, bob = new_page(), new_page()
    code = create_race(alice, live.url)
    join(bob, code, "bob")
    bob.get_by_role("button", name="Leave the race").click()
    expect(racer_row(alice, "bob")).to_have_count(0, timeout=WAIT)
    bob.get_by_role("button", name="Join the race").click()
    expect(racer_row(alice, "bob")).to_have_attribute("data-here", "true", timeout=WAIT)
    bob.close()
    expect(racer_row(alice, "bob")).to_have_attribute("data-here", "false", timeout=WAIT)


# ——— the race ———


def test_a_race_runs_from_the_countdown_to_the_results_with_live_panels(live, new_page, shot):
    alice, bob = new_page(), new_page()
    start_race(live, alice, bob)

    for page in (alice, bob):
        expect(page.locator("#race-countdown")).to_be_visible(timeout=WAIT)
        expect(page.locator("#countdown-number")).to_have_text(re.compile(r"^[12]$"))
        expect(page.locator("#race-lobby")).to_be_hidden()
    shot(alice, "race-countdown")

    for page in (alice, bob):
        wait_until_racing(page)
        expect(page.locator("#race-clock-time")).to_have_text(re.compile(r"^1[45]:\d\d$"))
        expect(page.get_by_role("button", name="Resign")).to_be_visible()
    expect(panel(alice, "bob")).to_be_visible()
    expect(panel(bob, "alice").locator(".sb-mini-meta")).to_contain_text("0/95")

    # A draw: the board follows the server's answer.
    expect(stock_count(alice)).to_have_text("89")
    board(alice).locator("[data-action=stock]").click()
    expect(stock_count(alice)).to_have_text("88", timeout=WAIT)
    expect(board(alice).locator(".sb-waste .sb-spot .sc-card")).to_be_visible()
    # Slot a holds the two of hearts: one click plays it to foundation 2.
    board(alice).locator(".sb-spot[data-source=a]").click()
    expect(board(alice).locator(".sb-footer")).to_contain_text("1/95 played", timeout=WAIT)
    expect(panel(bob, "alice").locator(".sb-mini-meta")).to_contain_text("1/95", timeout=WAIT)
    expect(panel(bob, "alice").locator(".sb-mini-cell").nth(1)).to_have_text("2")
    expect(board(bob).locator(".sb-footer")).to_contain_text("0/95 played")
    settled(alice)
    shot(alice, "race-racing-desktop")

    # A spectator sees every racer's panel and the clock, never a board.
    carol = new_page()
    carol.goto(alice.url)
    expect(panel(carol, "alice").locator(".sb-mini-meta")).to_contain_text("1/95", timeout=WAIT)
    expect(panel(carol, "bob")).to_be_visible()
    expect(carol.locator("#others-title")).to_have_text("Racers")
    expect(carol.locator("#race-clock-time")).to_have_text(re.compile(r"^1[45]:\d\d$"))
    expect(carol.locator(".sultan-board")).to_have_count(0)
    expect(carol.get_by_role("button", name="Resign")).to_be_hidden()
    shot(carol, "race-spectator")

    resign(alice)
    expect(panel(bob, "alice").locator(".sb-mini-status")).to_have_text("Resigned", timeout=WAIT)
    resign(bob)

    for page in (alice, bob, carol):
        table = page.locator("#results-table")
        expect(table).to_be_visible(timeout=WAIT)
        rows = table.locator("tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.nth(0).locator("th")).to_contain_text("alice")
        expect(rows.nth(0)).to_contain_text("Resigned")
        expect(rows.nth(0).locator("td").nth(2)).to_have_text("1/95")
        expect(rows.nth(0).locator("td").nth(3)).to_have_text(re.compile(r"^0:\d\d\.\d$"))
        expect(rows.nth(1).locator("th")).to_contain_text("bob")
        expect(rows.nth(1).locator("td").nth(2)).to_have_text("0/95")
        for link in rows.get_by_role("link", name=re.compile("Replay")).all():
            expect(link).to_have_attribute("href", re.compile(r"^/games/\d+/replay/$"))
        expect(page.locator("#results-deal")).to_contain_text(f"#{DEAL}")
        expect(page.locator(".sultan-board")).to_have_count(0)
    expect(carol.get_by_role("button", name="Rematch")).to_be_hidden()
    shot(bob, "race-results")

    first_race = alice.url
    alice.get_by_role("button", name="Rematch").click()
    # One click each: the asker is taken to the rematch's lobby as its host...
    expect(alice).not_to_have_url(first_race, timeout=WAIT)
    expect(alice).to_have_url(re.compile(r"/r/[^/]+/$"))
    expect(alice.get_by_role("button", name="Start the race")).to_be_visible(timeout=WAIT)
    rematch_url = alice.url
    for page in (bob, carol):
        link = page.get_by_role("link", name="Rematch ready — join")
        expect(link).to_be_visible(timeout=WAIT)
        expect(link).to_have_attribute("href", re.compile(r"^/r/[^/]+/$"))
        assert rematch_url.endswith(link.get_attribute("href"))
    # ...another racer's click on the link seats them there...
    bob.get_by_role("link", name="Rematch ready — join").click()
    expect(bob).to_have_url(rematch_url, timeout=WAIT)
    expect(bob.get_by_role("button", name="I’m ready")).to_be_visible(timeout=WAIT)
    expect(racer_row(alice, "bob")).to_be_visible(timeout=WAIT)
    shot(alice, "race-rematch-lobby")
    # ...and a spectator, who was in no race, lands in the lobby to join as anyone does.
    carol.get_by_role("link", name="Rematch ready — join").click()
    expect(carol).to_have_url(rematch_url, timeout=WAIT)
    expect(carol.get_by_role("button", name="Join the race")).to_be_visible(timeout=WAIT)
    no_js_errors(alice, bob, carol)


def test_the_deal_stays_secret_until_the_results_reveal_it(live, new_page):
    alice, bob = new_page(), new_page()
    start_race(live, alice, bob, deal="")
    wait_until_racing(alice)
    expect(alice.locator("#race-deal-label")).to_have_text("Secret deal")
    resign(alice)
    wait_until_racing(bob)
    resign(bob)
    expect(alice.locator("#results-table")).to_be_visible(timeout=WAIT)
    # A secret deal's seed, as its short code (docs/rules.md).
    code = re.compile(r"^[0-9A-HJKMNP-TV-Z]{4,5}(-[0-9A-HJKMNP-TV-Z]{4})*$")
    expect(alice.locator("#results-deal .results-seed")).to_have_text(code)
    expect(alice.locator("#race-deal-label")).to_have_text(re.compile("^Deal #" + code.pattern[1:]))
    no_js_errors(alice, bob)


# ——— phones ———


def boxes_apart(page: Any, selectors: list[str]) -> None:
    """Each element is visible, inside the viewport's width, and overlaps none of the others."""
    width = page.viewport_size["width"]
    boxes = {}
    for selector in selectors:
        box = page.locator(selector).first.bounding_box()
        assert box is not None, f"{selector} is not rendered"
        assert box["x"] >= 0, (selector, box)
        assert box["x"] + box["width"] <= width + 0.5, (selector, box)
        boxes[selector] = box
    names = list(boxes)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert not _overlap(boxes[a], boxes[b]), f"{a} overlaps {b}: {boxes[a]} {boxes[b]}"
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"the page scrolls sideways: {scroll_width} > {width}"


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and a["y"] < b["y"] + b["height"] - 0.5
        and b["y"] < a["y"] + a["height"] - 0.5
    )


def test_on_a_phone_the_lobby_and_the_board_fit_without_overlapping(live, new_page, shot):
    alice, bob = new_page(390, 844, is_mobile=True, has_touch=True), new_page()
    code = create_race(alice, live.url)
    join(bob, code, "bob")
    expect(racer_row(alice, "bob")).to_be_visible(timeout=WAIT)
    boxes_apart(
        alice,
        [
            ".race-title",
            ".lobby-people",
            "#lobby-start",
            "#lobby-hint",
            "#share-link",
            "#share-copy",
        ],
    )
    shot(alice, "race-lobby-phone")

    bob.get_by_role("button", name="I’m ready").click()
    alice.get_by_role("button", name="Start the race").click()
    wait_until_racing(alice)
    board(alice).locator("[data-action=stock]").tap()
    expect(stock_count(alice)).to_have_text("88", timeout=WAIT)
    settled(alice)
    boxes_apart(
        alice,
        [
            ".race-title",
            "#race-clock",
            "#race-resign",
            "#race-board .sb-table",
            "#race-board .sb-footer",
            ".arena-others",
        ],
    )
    board_box = board(alice).bounding_box()
    assert board_box["width"] >= 360, board_box  # the cards use the phone's width
    shot(alice, "race-racing-phone")

    resign(alice)
    resign(bob)
    expect(alice.locator("#results-table")).to_be_visible(timeout=WAIT)
    boxes_apart(
        alice,
        [
            "#results-title",
            "#results-rematch",
            "#results-table",
            ".opp:nth-child(1)",
            ".opp:nth-child(2)",
        ],
    )
    expect(alice.locator("#results-table tbody tr").first.get_by_role("link")).to_be_in_viewport()
    shot(alice, "race-results-phone")
    no_js_errors(alice, bob)

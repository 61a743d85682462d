"""Racing strangers and ratings, in real Chromium: "Race now" from two browsers, the
public races list, a rating that moves after a rated race, the leaderboard and a profile."""

from __future__ import annotations

import re
import secrets
from typing import Any

from playwright.sync_api import expect

from tests.browser.racing import (
    WAIT,
    board,
    no_js_errors,
    placed,
    resign,
    settled,
    stock_count,
    wait_until_racing,
)

PHONE = (390, 844)


def _race_now_form(page: Any, nickname: str, variant: str, minutes: str) -> Any:
    page.goto("/")
    form = page.locator("#race-now")
    form.get_by_label("Your nickname").fill(nickname)
    form.get_by_label("Variant").select_option(variant)
    form.get_by_label("Time limit").select_option(minutes)
    return form.get_by_role("button", name="Race now")


def test_race_now_from_two_browsers_lands_both_in_one_public_race(new_page, shot):
    alice, bob, carol = new_page(), new_page(), new_page()
    alice_go = _race_now_form(alice, "alice", "pysolfc", "3")
    bob_go = _race_now_form(bob, "bob", "pysolfc", "3")
    shot(alice, "home-race-now")
    # Both clicks leave before either page has its answer.
    alice_go.click(no_wait_after=True)
    bob_go.click(no_wait_after=True)
    alice.wait_for_url(re.compile(r"/r/[^/]+/$"), timeout=WAIT)
    bob.wait_for_url(re.compile(r"/r/[^/]+/$"), timeout=WAIT)
    assert alice.url == bob.url
    code = alice.url.rstrip("/").rsplit("/", 1)[1]

    # The second racer started the countdown: both race, each sees the other.
    for page, other in ((alice, "bob"), (bob, "alice")):
        wait_until_racing(page)
        expect(page.locator(".opp .sb-mini-name", has_text=other)).to_be_visible(timeout=WAIT)
    settled(alice)
    shot(alice, "public-race-running")

    # Anyone may watch it from the home page's list.
    carol.goto("/")
    row = carol.locator(f'.public-race-list [data-race="{code}"]')
    expect(row).to_be_visible(timeout=WAIT)
    expect(row).to_contain_text("2 racers")
    shot(carol, "home-public-races")
    row.get_by_role("link", name=re.compile("Watch")).click()
    carol.wait_for_url(f"**/r/{code}/")
    expect(carol.locator(".opp .sb-mini-name", has_text="alice")).to_be_visible(timeout=WAIT)
    expect(carol.locator("#race-resign")).to_be_hidden()
    no_js_errors(alice, bob, carol)


def test_a_lone_racer_waits_in_a_public_lobby_without_a_start_button(new_page, shot):
    page = new_page()
    _race_now_form(page, "dave", "sultan-8", "15").click()
    page.wait_for_url(re.compile(r"/r/[^/]+/$"), timeout=WAIT)
    expect(page.locator("#lobby-hint")).to_contain_text("countdown starts", timeout=WAIT)
    expect(page.locator("#lobby-start")).to_be_hidden()
    expect(page.locator("#lobby-ready")).to_be_hidden()
    shot(page, "public-lobby")
    phone = new_page(*PHONE)
    phone.goto("/")
    shot(phone, "home-phone")
    assert phone.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    no_js_errors(page, phone)


def _sign_up(page: Any, username: str) -> None:
    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    password = secrets.token_urlsafe(12)
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.click("main button[type=submit]")  # not the header's language buttons
    page.wait_for_url(lambda url: "/accounts/" not in url)


def _play_a_card(page: Any) -> None:
    """Draw until a card can go home, then send it (a secret deal: whatever it holds)."""
    footer = board(page).locator(".sb-footer")
    for _ in range(120):
        playable = board(page).locator(".sb-spot.is-playable[data-source]")
        if playable.count():
            playable.first.click()
            target = board(page).locator(".sb-spot.is-target")
            if target.count():  # more than one place for it: pick one
                target.first.click()
            expect(footer).to_contain_text("1/95 played", timeout=WAIT)
            return
        before = stock_count(page).inner_text()
        board(page).locator("[data-action=stock]").click()
        expect(stock_count(page)).not_to_have_text(before, timeout=WAIT)
    raise AssertionError("no card could be played in 120 draws")


def _rating_on_profile(page: Any, username: str, variant_label: str) -> str | None:
    page.goto(f"/@/{username}/")
    card = page.locator(".rating-card", has=page.locator("h3", has_text=variant_label))
    if card.count() == 0:
        return None
    return str(card.locator(".rating-now strong").inner_text())


def test_a_rated_race_moves_both_racers_ratings(new_page, shot, live):
    alice, bob = new_page(), new_page()
    names = [f"sheherazade{secrets.token_hex(3)}", f"shahryar{secrets.token_hex(3)}"]
    _sign_up(alice, names[0])
    _sign_up(bob, names[1])
    assert _rating_on_profile(alice, names[0], "Sultan") is None

    alice.goto("/")
    form = alice.locator("#start-race")
    form.get_by_label("Variant").select_option("sultan")
    form.get_by_label("Rated").check()
    form.get_by_role("button", name="Create the race").click()
    alice.wait_for_url(re.compile(r"/r/[^/]+/$"))
    bob.goto(alice.url)
    bob.get_by_role("button", name="Join the race").click()
    expect(bob.locator("#lobby-controls")).to_be_visible(timeout=WAIT)
    alice.get_by_role("button", name="Start the race").click()
    wait_until_racing(alice)
    wait_until_racing(bob)
    # Both make the moves that place a racer; alice plays a card, bob none: she places
    # first (two racers with no card tie, and a tie leaves equal ratings where they were).
    placed(alice)
    placed(bob)
    _play_a_card(alice)
    resign(alice)
    resign(bob)
    expect(alice.locator("#race-results")).to_be_visible(timeout=WAIT)

    ratings = [_rating_on_profile(alice, name, "Sultan") for name in names]
    assert None not in ratings
    assert int(ratings[0] or 0) > 1500 > int(ratings[1] or 0)  # alice first, bob second
    expect(alice.locator(".rating-chart")).to_be_visible()
    shot(alice, "profile")
    phone = new_page(*PHONE)
    phone.goto(f"/@/{names[1]}/")
    shot(phone, "profile-phone")
    assert phone.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    phone.goto("/leaderboard/")
    shot(phone, "leaderboard-phone")
    alice.goto("/leaderboard/")
    shot(alice, "leaderboard")
    no_js_errors(alice, bob, phone)

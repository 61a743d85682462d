"""Driving races in Chromium as people would: separate browser contexts are separate people."""

from __future__ import annotations

import re
import secrets
from typing import Any

from playwright.sync_api import expect

DEAL = 33  # sultan: slot a is 2H, playable at once on foundation 2 and only there
WAIT = 10_000  # ms; a lobby broadcast or a move takes milliseconds, a start two seconds


def create_race(page: Any, base_url: str, nickname: str = "alice", **fields: Any) -> str:
    """Create a race by POSTing the creation form as a browser would; returns its code.

    Django's CSRF check is a double submit: the cookie and the field must agree,
    so a fresh random token in both is what any form on the site would send.
    This keeps the tests independent of the home page's layout.
    """
    token = secrets.token_hex(16)
    page.context.add_cookies([{"name": "csrftoken", "value": token, "url": base_url}])
    form = {"nickname": nickname, "variant": "sultan", "time_limit": 15, "seats": 4, "deal": DEAL}
    form.update(fields)
    response = page.request.post(
        "/races/new", form={**form, "csrfmiddlewaretoken": token}, max_redirects=0
    )
    assert response.status == 302, response.text()
    location = response.headers["location"]
    match = re.fullmatch(r"/r/([^/]+)/", location)
    assert match, location
    page.goto(location)
    return match.group(1)


def join(page: Any, code: str, nickname: str) -> None:
    """Open the shared link and join with a nickname, as a guest."""
    page.goto(f"/r/{code}/")
    page.get_by_label("Your nickname").fill(nickname)
    page.get_by_role("button", name="Join the race").click()
    expect(page.locator("#lobby-controls")).to_be_visible(timeout=WAIT)


def no_js_errors(*pages: Any) -> None:
    for page in pages:
        assert page.js_errors == [], page.js_errors


def tab_to(page: Any, element_id: str, presses: int = 30) -> None:
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.id") == element_id:
            return
    raise AssertionError(f"Tab never reached #{element_id}")


def racer_row(page: Any, nickname: str) -> Any:
    return page.locator(".lobby-racer", has=page.locator(".lobby-name", has_text=nickname))


def panel(page: Any, nickname: str) -> Any:
    return page.locator(".opp", has=page.locator(".sb-mini-name", has_text=nickname))


def start_race(live: Any, alice: Any, bob: Any, **fields: Any) -> str:
    """alice hosts, bob joins and gets ready, alice starts; returns the code once both race."""
    code = create_race(alice, live.url, **fields)
    join(bob, code, "bob")
    bob.get_by_role("button", name="I’m ready").click()
    expect(racer_row(alice, "bob").locator(".lobby-mark")).to_have_text("Ready", timeout=WAIT)
    alice.get_by_role("button", name="Start the race").click()
    return code


def board(page: Any) -> Any:
    return page.locator("#race-board .sultan-board")


def wait_until_racing(page: Any) -> None:
    expect(page.locator("#race-clock-label")).to_have_text("Time left", timeout=WAIT)
    expect(board(page)).not_to_have_class(re.compile(r"\bis-readonly\b"), timeout=WAIT)


def settled(page: Any) -> None:
    """Cards at rest (no flight under way), for a screenshot worth looking at."""
    expect(page.locator(".is-flying")).to_have_count(0, timeout=WAIT)
    page.wait_for_timeout(150)


# Nothing on the page moves: every animation has ended (or never began).
STILL = "() => document.getAnimations().every((a) => a.playState !== 'running')"
# At rest for a screenshot: the deals and fades are over; a highlight that beats a few
# times (a hint's outline, the lobby's live dot) may still be beating.
AT_REST = """() => document.getAnimations().every(
  (a) => a.playState !== "running" || a.effect.getTiming().iterations > 1)"""


def still(page: Any) -> None:
    """Wait until nothing on the page moves: highlights stop by themselves (WCAG 2.2.2)."""
    page.wait_for_function(STILL, polling=100, timeout=WAIT)


def at_rest(page: Any) -> None:
    """Wait until the page's deals and fades are over, for a screenshot worth looking at."""
    page.wait_for_function(AT_REST, polling=100, timeout=WAIT)


def stock_count(page: Any) -> Any:
    return board(page).locator(".sb-stock .sb-count")


def placed(page: Any, moves: int = 5) -> None:
    """Draw `moves` cards, each waited for: a racer with fewer moves of their own is
    nobody's opponent, in ratings and tournament points (games/fairness/worth.py)."""
    for _ in range(moves):
        before = stock_count(page).inner_text()
        board(page).locator("[data-action=stock]").click()
        expect(stock_count(page)).not_to_have_text(before, timeout=WAIT)


def resign(page: Any) -> None:
    page.get_by_role("button", name="Resign").click()
    dialog = page.get_by_role("dialog", name="Resign this race?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Resign").click()
    expect(dialog).to_be_hidden()
    # The server's acknowledgement, not the closed dialog, says the game is over:
    # the board says so, or (when that ended the race) the results replace it.
    over = board(page).locator(".sb-status", has_text="Resigned")
    expect(over.or_(page.locator("#results-table")).first).to_be_visible(timeout=WAIT)

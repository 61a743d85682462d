"""Every page in Chromium, at desktop and phone sizes: screenshots, layout, no errors."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.plans import foundation_plan, play_and_resign, wait_seq
from tests.browser.racing import at_rest

PHONE = (390, 844)

# Elements that must each stand on their own on a phone: none overlaps another.
KEY_ELEMENTS = {
    "home": [".topbar", ".hero-text", ".hero-art", "#start-race", "#practise", "#join"],
    "practice": [".topbar", ".game-bar", "#practice-board .sb-table", "#practice-board .sb-footer"],
    "replay": [".topbar", ".game-bar", "#replay-board .sb-table", "#transport", ".replay-side"],
}


def _boxes(page: Any, selectors: list[str]) -> dict[str, dict[str, float]]:
    boxes = {}
    for selector in selectors:
        box = page.locator(selector).first.bounding_box()
        assert box is not None, f"{selector} is not shown"
        boxes[selector] = box
    return boxes


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"] - 0.5
        and b["x"] < a["x"] + a["width"] - 0.5
        and a["y"] < b["y"] + b["height"] - 0.5
        and b["y"] < a["y"] + a["height"] - 0.5
    )


def _assert_fits_a_phone(page: Any, selectors: list[str]) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
    boxes = _boxes(page, selectors)
    for selector, box in boxes.items():
        assert box["x"] >= -0.5, selector
        assert box["x"] + box["width"] <= PHONE[0] + 0.5, selector
    names = list(boxes)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            assert not _overlap(boxes[first], boxes[second]), f"{first} overlaps {second}"


def test_home_at_desktop_and_phone_sizes(new_page, shot):
    desktop = new_page()
    desktop.goto("/")
    desktop.wait_for_selector("#hero-art .sc-card")
    at_rest(desktop)  # the hero's cards finish dealing
    shot(desktop, "home")
    phone = new_page(*PHONE)
    phone.goto("/")
    phone.wait_for_selector("#hero-art .sc-card")
    at_rest(phone)
    _assert_fits_a_phone(phone, KEY_ELEMENTS["home"])
    shot(phone, "home-phone")
    assert desktop.js_errors == []
    assert phone.js_errors == []


def test_practice_fits_a_phone(new_page, shot):
    page = new_page(*PHONE)
    page.goto(f"/practice/{foundation_plan().seed}/")
    page.wait_for_selector(".sultan-board .sb-table")
    page.keyboard.press("Space")
    page.wait_for_function("() => document.getElementById('stat-moves').textContent === '1'")
    _assert_fits_a_phone(page, KEY_ELEMENTS["practice"])
    # Every card of the table is on screen without scrolling sideways.
    for spot in page.locator(".sb-table .sb-spot").all():
        box = spot.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= PHONE[0]
    shot(page, "practice-phone")
    assert page.js_errors == []


def test_replay_fits_a_phone(new_page, shot):
    page = new_page(*PHONE)
    game_id = play_and_resign(page, 8080, ["draw", "draw", "draw"])
    page.goto(f"/games/{game_id}/replay/#move=2")
    page.wait_for_selector(".move-list .mv")
    _assert_fits_a_phone(page, KEY_ELEMENTS["replay"])
    shot(page, "replay-phone")
    assert page.js_errors == []


def test_history_lists_the_games_played_in_this_browser(new_page, shot):
    page = new_page()
    game_id = play_and_resign(page, 9090, ["draw", "draw"])
    page.goto("/practice/9191/")
    page.wait_for_selector(".sultan-board .sb-table")
    page.keyboard.press("Space")
    wait_seq(page, 1)
    # A deal only opened, never played, is no game: nothing to continue.
    page.goto("/practice/9292/")
    page.wait_for_selector(".sultan-board .sb-table")
    page.goto("/history/")
    assert page.locator(f'a[href="/games/{game_id}/replay/"]').count() == 1
    assert page.locator('a[href="/practice/9191/?variant=sultan"]').count() == 1
    assert page.locator('a[href^="/practice/9292/"]').count() == 0
    assert "Sultan" in page.inner_text(".stats-grid")
    shot(page, "history")
    page.goto("/")
    assert "9292" not in page.inner_text("main")
    phone = new_page(*PHONE)
    phone.goto("/history/")
    assert phone.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    assert page.js_errors == []


@pytest.mark.parametrize("name", ["login", "signup"])
def test_the_account_pages(new_page, shot, name):
    page = new_page()
    page.goto(f"/accounts/{name}/")
    assert page.locator("input[type=password]").count() >= 1
    shot(page, name)
    assert page.js_errors == []


def test_a_guest_signs_up_and_keeps_the_game(new_page, shot):
    page = new_page()
    game_id = play_and_resign(page, 7070, ["draw"])
    page.goto("/accounts/signup/")
    page.fill("#id_username", "nasreddin")
    page.fill("#id_password1", "donkey-backwards-42")
    page.fill("#id_password2", "donkey-backwards-42")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert "nasreddin" in page.inner_text(".account")
    assert "Welcome to Sultan, nasreddin!" in page.inner_text(".site-messages")
    shot(page, "signed-up-welcome")
    page.goto("/history/")
    assert page.locator(f'a[href="/games/{game_id}/replay/"]').count() == 1


def test_a_refusal_is_a_page_that_says_what_to_do(new_page, shot):
    page = new_page()
    response = page.goto("/practice/not-a-number/")
    assert response.status == 404
    assert page.inner_text("h1") == "No such deal"
    shot(page, "notice")
    page.click("text=Play a random deal")
    page.wait_for_selector(".sultan-board .sb-table")

"""On a 390×844 phone a game's board is on the first screen, the menu folded."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.plans import open_board

PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_on_a_phone_the_practice_board_is_on_the_first_screen(new_page, shot, language):
    page = open_board(new_page, "/practice/2024/", PHONE["width"], PHONE["height"], locale=language)
    nav = page.locator("#mainnav")
    expect(nav).to_be_hidden()  # folded behind the menu button
    table = page.locator(".sultan-board .sb-table").bounding_box()
    assert table is not None
    assert table["y"] >= 0
    assert table["y"] + table["height"] <= PHONE["height"], table
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, f"practice-phone-{language}")

    toggle = page.locator("#menu-toggle")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(nav.get_by_role("link")).to_have_count(6)  # Home, Daily, Practice, Tournaments…
    for link in nav.get_by_role("link").all():
        expect(link).to_be_visible()
    shot(page, f"practice-phone-menu-{language}")
    page.keyboard.press("Escape")
    expect(nav).to_be_hidden()
    expect(toggle).to_be_focused()
    assert page.js_errors == []


def test_on_a_desktop_the_menu_is_never_folded(new_page):
    page = open_board(new_page, "/practice/2024/")
    expect(page.locator("#mainnav").get_by_role("link", name="Practice")).to_be_visible()
    expect(page.locator("#menu-toggle")).to_be_hidden()

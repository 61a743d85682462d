"""/t/<code>/ on a 390×844 phone, in English and Russian: the standings start on the
first screen, no cell of the table is cut, and the streak mark is a drawing, not an
emoji (a font without it shows a blank box)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.racing import WAIT, no_js_errors
from tests.browser.test_social import _sign_up
from tests.browser.test_tournament import ARENA_ENV, _race_code, _row
from tests.servers import LiveServer, daphne, database_env

PHONE = (390, 844)
EMOJI = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf]")
RUSSIAN = {"locale": "ru-RU", "extra_http_headers": {"Accept-Language": "ru-RU,ru"}}

# Where the table stands on the screen, and every shown cell whose text overflows it.
MEASURE = """() => {
  const table = document.getElementById("standings");
  const first = document.querySelector("#standings-body tr");
  const shown = [...table.querySelectorAll("th, td")].filter((c) => c.getClientRects().length);
  return {
    top: first.getBoundingClientRect().top,
    cut: shown.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent.trim()),
    tableOver: table.parentElement.scrollWidth - table.parentElement.clientWidth,
    pageOver: document.documentElement.scrollWidth - window.innerWidth,
    mark: document.getElementById("fire-mark").innerHTML,
    markDrawn: !!document.getElementById("fire-mark").content.querySelector(".fire svg"),
    markNamed: document.getElementById("fire-mark").content.querySelector(".fire")
      .getAttribute("aria-label"),
  };
}"""


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    """This module's own server, with the arena settings of test_tournament.py."""
    with database_env("tournament_phone") as env, daphne({**env, **ARENA_ENV}) as server:
        yield server


def _first_screen(page: Any, name: str, shot: Any) -> None:
    expect(page.locator("#tournament")).to_have_attribute("data-live", "true", timeout=WAIT)
    seen = page.evaluate(MEASURE)
    assert 0 <= seen["top"] < PHONE[1], f"{name}: the standings start at {seen['top']} px"
    assert seen["cut"] == [], f"{name}: cells cut: {seen['cut']}"
    assert seen["tableOver"] <= 0, f"{name}: the table is wider than its panel"
    assert seen["pageOver"] <= 0, f"{name}: the page scrolls sideways"
    assert not EMOJI.search(page.locator("#standings").inner_text())
    assert not EMOJI.search(seen["mark"]), "the streak mark is an emoji"
    assert seen["markDrawn"]
    assert seen["markNamed"]  # its words for a screen reader
    shot(page, name)
    no_js_errors(page)


def test_on_a_phone_the_standings_are_on_the_first_screen_and_nothing_is_cut(
    live, new_page, shot
) -> None:
    alice, bob, charlie = new_page(), new_page(), new_page()
    _sign_up(alice, "alice")
    alice.goto("/tournaments/")
    alice.fill("#t-name", "Phone arena")
    alice.select_option("#t-minutes", "3")
    alice.select_option("#t-seats", "3")
    alice.get_by_role("button", name="Create the tournament").click()
    alice.wait_for_url(re.compile(r".*/t/[^/]+/$"))
    url = alice.url
    alice.get_by_role("button", name="Join the tournament").click()
    # Long names: a name may not widen the table past the phone's width.
    for page, nickname in ((bob, "bob_with_a_rather_long_nickname"), (charlie, "charlie")):
        page.goto(url)
        page.fill("#t-nickname", nickname)
        page.get_by_role("button", name="Join the tournament").click()
    race = _race_code(alice)  # the three are seated: their NOW reads "racing: watch"
    assert _race_code(charlie) == race

    for lang, options in (("en", {}), ("ru", RUSSIAN)):
        # A visitor who has not joined: the join form sits above the table.
        guest = new_page(*PHONE, **options)
        guest.goto(url)
        expect(guest.locator("html")).to_have_attribute("lang", lang)
        expect(_row(guest, "charlie").locator("td.col-now a")).to_be_visible(timeout=WAIT)
        _first_screen(guest, f"tournament-phone-guest-{lang}", shot)
        # The same visitor in the queue (alone: the arena waits a minute for a full race).
        guest.fill("#t-nickname", f"dave_{lang}")
        guest.locator("form.tournament-join button[type=submit]").click()
        expect(guest.locator("#you-status")).to_be_visible(timeout=WAIT)
        expect(_row(guest, f"dave_{lang}")).to_be_visible(timeout=WAIT)
        _first_screen(guest, f"tournament-phone-queued-{lang}", shot)
    no_js_errors(alice, bob, charlie)

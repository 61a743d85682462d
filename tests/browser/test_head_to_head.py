"""Head-to-head beyond the profile, in Chromium: ben takes ann's challenge (her recorded
game ahead of his), then they race; each one's results show their record against the
other, live and after a reload, and the challenge's page shows it to both (games/friends,
games/challenges)."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.racing import (
    DEAL,
    WAIT,
    board,
    create_race,
    no_js_errors,
    racer_row,
    resign,
    wait_until_racing,
)
from tests.browser.test_friends import _sign_up
from tests.servers import LiveServer, daphne, database_env

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    """This module's own server: deal 33 is ann's practice deal, and in the full suite
    another test's race on the session's server could have it sealed."""
    with (
        database_env("head_to_head") as env,
        daphne({**env, "SULTAN_RACE_COUNTDOWN_S": "2"}) as server,
    ):
        yield server


def _challenge_of_a_card(ann: Any) -> str:
    """ann plays deal 33's two of hearts, resigns and offers the game: its link."""
    ann.goto(f"/practice/{DEAL}/")
    ann.wait_for_selector(".sultan-board .sb-table")
    ann.click(".sultan-board [data-action=stock]")
    expect(ann.locator(".sultan-board .sb-stock .sb-count")).to_have_text("88", timeout=WAIT)
    ann.click('[data-slot="a"] .sb-spot')  # the two of hearts, to foundation 2
    expect(ann.locator("#stat-cards")).to_have_text("1", timeout=WAIT)
    ann.click("#resign")
    ann.click("dialog#resign-dialog button[value=resign]")
    expect(ann.locator("#result-replay")).to_be_visible(timeout=WAIT)
    ann.locator("#result-replay").click()
    ann.get_by_role("button", name="Challenge a friend").click()
    expect(ann).to_have_url(re.compile(r"/c/[^/]+/$"), timeout=WAIT)
    return str(ann.url)


def _record(page: Any, nickname: str) -> Any:
    row = page.locator("#results-table tbody tr", has=page.get_by_text(nickname, exact=True))
    return row.locator(".results-h2h")


def _look(page: Any, shot: Any, name: str, size: dict[str, int], russian: bool) -> None:
    page.set_viewport_size(size)
    page.set_extra_http_headers({"Accept-Language": "ru-RU,ru" if russian else "en"})
    page.reload()
    if page.locator("#race-results").count():
        expect(page.locator("#results-table .results-h2h").first).to_be_visible(timeout=WAIT)
    shot(page, name)


def test_results_and_challenge_pages_show_the_record_between_two_players(
    live, new_page, shot
) -> None:
    suffix = secrets.token_hex(3)
    an, bn = f"ann{suffix}", f"ben{suffix}"
    ann, ben = new_page(), new_page()
    _sign_up(ann, an)
    _sign_up(ben, bn)

    link = _challenge_of_a_card(ann)
    ben.goto(link)
    ben.get_by_role("button", name="Take the challenge").click()
    expect(ben).to_have_url(re.compile(r"/r/[^/]+/$"), timeout=WAIT)
    wait_until_racing(ben)
    resign(ben)  # no card against her one
    ben.goto(link)
    versus = ben.locator("#challenge-h2h")
    expect(versus.locator(".h2h-challenges")).to_have_text(
        f"Challenges: you 0 – 1 {an} · 1 attempt"
    )
    expect(versus.locator(".h2h-races")).to_have_text(f"Races: you 0 – 0 {an} · 0 races")
    ann.goto(link)
    attempters = ann.locator("#challenge-attempters tbody tr")
    expect(attempters).to_have_count(1)
    expect(attempters.locator(".h2h-challenges")).to_have_text("you 1 – 0 · 1 attempt")

    code = create_race(ann, live.url)
    ben.goto(f"/r/{code}/")
    ben.get_by_role("button", name="Join the race").click()
    ben.get_by_role("button", name="I’m ready").click()
    expect(racer_row(ann, bn).locator(".lobby-mark")).to_have_text("Ready", timeout=WAIT)
    ann.get_by_role("button", name="Start the race").click()
    wait_until_racing(ann)
    wait_until_racing(ben)
    board(ann).locator(".sb-spot[data-source=a]").click()  # her card again
    expect(board(ann).locator(".sb-footer")).to_contain_text("1/95 played", timeout=WAIT)
    resign(ben)
    resign(ann)
    # Live, as the race ends: each sees the record against the other, this race counted.
    expect(_record(ann, bn)).to_have_text(f"You 1 – 0 {bn} · 1 race", timeout=WAIT)
    expect(_record(ben, an)).to_have_text(f"You 0 – 1 {an} · 1 race", timeout=WAIT)
    expect(_record(ann, bn)).to_have_attribute("href", f"/@/{bn}/#head-to-head")
    expect(ann.locator("#results-table .results-h2h")).to_have_count(1)  # not her own row

    ann.reload()  # and on the finished race's page
    expect(_record(ann, bn)).to_have_text(f"You 1 – 0 {bn} · 1 race", timeout=WAIT)
    shot(ann, "h38-results-en-desktop")
    _look(ann, shot, "h38-results-en-phone", PHONE, russian=False)
    _look(ben, shot, "h38-results-ru-desktop", DESKTOP, russian=True)
    expect(_record(ben, an)).to_have_text(f"Вы 0 – 1 {an} · 1 гонка", timeout=WAIT)
    _look(ben, shot, "h38-results-ru-phone", PHONE, russian=True)

    ben.goto(link)
    expect(versus.locator(".h2h-races")).to_have_text(f"Гонки: вы 0 – 1 {an} · 1 гонка")
    shot(ben, "h38-challenge-ru-phone")
    _look(ben, shot, "h38-challenge-en-desktop", DESKTOP, russian=False)
    ann.goto(link)
    expect(attempters.locator(".h2h-races")).to_have_text("you 1 – 0 · 1 race")
    shot(ann, "h38-challenge-author-en-phone")
    _look(ann, shot, "h38-challenge-author-ru-desktop", DESKTOP, russian=True)
    no_js_errors(ann, ben)

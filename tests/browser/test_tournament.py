"""An arena tournament in Chromium: three racers join, race, are carried into the next
race; a fourth page watches the standings change live; the final table is the rules
(docs/tournaments.md) applied by hand to what happened."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.racing import WAIT, no_js_errors, placed, resign, wait_until_racing
from tests.browser.test_social import _play_a_card, _sign_up
from tests.servers import LiveServer, daphne, database_env, live_sql

# A three-minute tournament of three-seat races, paired every 300 ms; a race short of
# full waits a minute (so only full races start: the test knows who meets whom).
ARENA_ENV = {
    "SULTAN_TOURNAMENT_MIN_MINUTES": "3",
    "SULTAN_TOURNAMENT_TICK_MS": "300",
    "SULTAN_TOURNAMENT_GATHER_S": "60",
    "SULTAN_TOURNAMENT_RACE_S": "120",
    "SULTAN_RACE_COUNTDOWN_S": "2",
}
RACE_URL = re.compile(r".*/r/([^/]+)/$")
END_WAIT = 30_000  # ms: the end's next tick, then the final table over the socket


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    """This module's own server: the tournament settings above are its environment."""
    with database_env("tournament") as env, daphne({**env, **ARENA_ENV}) as server:
        yield server


PHONE = (390, 844)


def _stored(server: LiveServer, when: datetime) -> object:
    """A time as the server's database holds it (Django keeps SQLite's as UTC text)."""
    if server.env.get("DATABASE_URL", "").startswith("postgres"):
        return when
    return when.strftime("%Y-%m-%d %H:%M:%S.%f")


def _shots(new_page: Any, shot: Any, path: str, name: str) -> None:
    """The page in both languages, on a desktop and a phone, for people to look at."""
    for lang, (width, height) in (
        ("en", PHONE),
        ("ru", (1280, 800)),
        ("ru", PHONE),
    ):
        options: dict[str, Any] = {}
        if lang == "ru":
            options = {"locale": "ru-RU", "extra_http_headers": {"Accept-Language": "ru-RU,ru"}}
        page = new_page(width, height, **options)
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        kind = "phone" if width == PHONE[0] else "desktop"
        shot(page, f"{name}-{lang}-{kind}")
        no_js_errors(page)


def _race_code(page: Any, other_than: str | None = None, timeout: float = WAIT * 3) -> str:
    def seated(url: str) -> bool:
        match = RACE_URL.match(url)
        return match is not None and match.group(1) != other_than

    page.wait_for_url(seated, timeout=timeout)
    match = RACE_URL.match(page.url)
    assert match
    return match.group(1)


def _row(page: Any, nickname: str) -> Any:
    return page.locator("#standings-body tr", has=page.get_by_text(nickname, exact=True))


def _points(page: Any, nickname: str) -> Any:
    return _row(page, nickname).locator("td").nth(2)


def test_three_racers_race_twice_and_a_fourth_page_sees_the_table_live(live, new_page, shot):
    alice, bob, charlie, dave = new_page(), new_page(), new_page(), new_page()
    _sign_up(alice, "alice")
    alice.goto("/tournaments/")
    shot(alice, "tournaments-list-en-desktop")
    _shots(new_page, shot, "/tournaments/", "tournaments-list")
    alice.fill("#t-name", "Thursday arena")
    alice.select_option("#t-minutes", "3")
    alice.select_option("#t-seats", "3")
    alice.get_by_role("button", name="Create the tournament").click()
    alice.wait_for_url(re.compile(r".*/t/[^/]+/$"))
    tournament_url = alice.url
    shot(alice, "tournament-before-en-desktop")
    _shots(new_page, shot, tournament_url, "tournament-before")

    dave.goto(tournament_url)
    dave.evaluate("window.sameDocument = true")  # gone if the page reloaded
    expect(dave.locator("#tournament")).to_have_attribute("data-live", "true", timeout=WAIT)

    alice.get_by_role("button", name="Join the tournament").click()
    for page, nickname in ((bob, "bob"), (charlie, "charlie")):
        page.goto(tournament_url)
        page.fill("#t-nickname", nickname)
        page.get_by_role("button", name="Join the tournament").click()
    expect(_row(dave, "charlie")).to_be_visible(timeout=WAIT)

    # Race 1: all three are seated together and taken to it.
    first = _race_code(alice)
    assert _race_code(bob) == first
    assert _race_code(charlie) == first
    for page in (alice, bob, charlie):
        wait_until_racing(page)
        expect(page.locator("#race-tournament")).to_be_visible()
    expect(_row(dave, "alice").locator("td").nth(5)).to_contain_text("racing", timeout=WAIT)
    shot(dave, "tournament-running-en-desktop")
    _shots(new_page, shot, tournament_url, "tournament-running")
    for page in (alice, bob, charlie):
        placed(page)  # five moves each: each counts as the others' opponent
    _play_a_card(alice)  # one card up: alice places first
    for page in (alice, bob, charlie):
        resign(page)  # bob and charlie resign at 0 cards: no points, however placed
    # 1st of 3 racers: 3 points; no card up: 0 (docs/tournaments.md).
    expect(_points(dave, "alice")).to_have_text("3", timeout=WAIT)
    expect(_points(dave, "bob")).to_have_text("0")

    # Race 2: after their rest the tournament seats them again, and each race page takes
    # its racer there without a click (tests/browser/test_tournament_carry.py).
    second = _race_code(alice, other_than=first)
    assert _race_code(bob, other_than=first) == second
    assert _race_code(charlie, other_than=first) == second
    # Each pauses (the race under way still counts), so that no third race seats them.
    for page in (alice, bob, charlie):
        page.goto(tournament_url)
        page.get_by_role("button", name="Pause (leave the queue)").click()
        expect(page.get_by_role("button", name="Come back")).to_be_visible()
        page.goto(f"/r/{second}/")
        wait_until_racing(page)
    for page in (alice, bob, charlie):
        placed(page)
    _play_a_card(bob)
    for page in (alice, bob, charlie):
        resign(page)
    expect(_points(dave, "bob")).to_have_text("3", timeout=WAIT)
    assert dave.evaluate("window.sameDocument") is True  # live, not reloaded

    # The clock runs out: the tournament's end moved to now (its three minutes would only
    # be waited for); the loop ends it at its next tick, as at the real end.
    code = tournament_url.rstrip("/").rsplit("/", 1)[1]
    now = datetime.now(UTC)
    live_sql(
        live, "UPDATE games_tournament SET ends_at = %s WHERE code = %s", _stored(live, now), code
    )

    # The end: the page shows the final table, the podium and every player's races.
    expect(dave.locator(".podium")).to_be_visible(timeout=END_WAIT)
    rows = dave.locator("#standings-body tr")
    table = [rows.nth(i).locator("td").all_inner_texts()[:5] for i in range(rows.count())]
    # By hand: alice 3 (race 1: 1st of 3) + 0 (race 2: no card up); bob 0 + 3; charlie 0 + 0.
    # alice and bob tie on points and on first places; alice reached 3 first.
    assert [row[1] for row in table] == ["alice", "bob", "charlie"]
    assert [row[2] for row in table] == ["3", "3", "0"]
    assert [row[3] for row in table] == ["2", "2", "2"]
    replays = dave.locator(".played-races > li > a")
    expect(replays).to_have_count(6)
    assert replays.first.get_attribute("href").endswith("/replay/")
    # Each race names its three racers, each with their game's replay.
    racers = dave.locator(".played-races .race-field a")
    expect(racers).to_have_count(18)
    assert racers.first.get_attribute("href").endswith("/replay/")
    shot(dave, "tournament-finished-en-desktop")
    _shots(new_page, shot, tournament_url, "tournament-finished")
    no_js_errors(alice, bob, charlie, dave)

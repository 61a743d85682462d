"""The tournament page keeps its table from the rows that changed, and a page that
missed a frame asks for the whole table (docs/protocol.md, "Tournament socket")."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.racing import WAIT
from tests.browser.test_social import _sign_up


def _row(page: Any, nickname: str) -> Any:
    return page.locator("#standings-body tr", has_text=nickname)


def test_a_page_that_missed_a_frame_asks_for_the_table_and_shows_it_right(new_page):
    alice, bob, charlie, watcher = new_page(), new_page(), new_page(), new_page()
    _sign_up(alice, "alice")
    alice.goto("/tournaments/")
    alice.fill("#t-name", "Missed frames")
    alice.get_by_role("button", name="Create the tournament").click()
    alice.wait_for_url(re.compile(r".*/t/[^/]+/$"))
    url = alice.url

    # Between the watcher's page and the server: its first `rows` frame is lost.
    lost: list[dict[str, Any]] = []
    asked: list[dict[str, Any]] = []

    def route(socket: Any) -> None:
        server = socket.connect_to_server()

        def down(message: str | bytes) -> None:
            frame = json.loads(message)
            if frame.get("type") == "rows" and not lost:
                lost.append(frame)
                return
            socket.send(message)

        def up(message: str | bytes) -> None:
            asked.append(json.loads(message))
            server.send(message)

        server.on_message(down)
        socket.on_message(up)

    watcher.route_web_socket(re.compile(r".*/ws/tournaments/.*"), route)
    watcher.goto(url)
    expect(watcher.locator("#tournament")).to_have_attribute("data-live", "true", timeout=WAIT)

    bob.goto(url)
    bob.fill("#t-nickname", "bob")
    bob.get_by_role("button", name="Join the tournament").click()
    expect(bob.get_by_role("button", name="Pause (leave the queue)")).to_be_visible(timeout=WAIT)
    bob.get_by_role("button", name="Pause (leave the queue)").click()  # nobody is paired
    charlie.goto(url)
    charlie.fill("#t-nickname", "charlie")
    charlie.get_by_role("button", name="Join the tournament").click()

    # bob's row came in the lost frame: the page has it only from the table it asked for.
    expect(_row(watcher, "charlie")).to_be_visible(timeout=WAIT)
    expect(_row(watcher, "bob")).to_be_visible(timeout=WAIT)
    assert lost
    assert [row["nickname"] for row in lost[0]["rows"]] == ["bob"]
    assert {"type": "sync"} in asked
    fresh = new_page()
    fresh.goto(url)
    expect(_row(fresh, "charlie")).to_be_visible(timeout=WAIT)
    assert _table(watcher) == _table(fresh)


def _table(page: Any) -> list[str]:
    return [" ".join(row.split()) for row in page.locator("#standings-body tr").all_inner_texts()]

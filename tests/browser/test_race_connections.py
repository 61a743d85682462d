"""Race pages over bad lines in Chromium: a dropped socket, a lost or overtaken
broadcast, a second tab. Each page must end up where the server says it is."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.racing import (
    WAIT,
    board,
    no_js_errors,
    panel,
    start_race,
    stock_count,
    wait_until_racing,
)

RECORD_SOCKETS = """
window.__raceSockets = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.__raceSockets.push(this); }
};
"""


def test_going_offline_shows_a_banner_and_the_page_catches_up_when_back(live, new_page):
    alice, bob = new_page(), new_page()
    start_race(live, alice, bob)
    wait_until_racing(alice)
    wait_until_racing(bob)
    banner = alice.locator("#race-banner")
    expect(banner).to_be_hidden()

    alice.context.set_offline(True)
    expect(banner).to_be_visible(timeout=WAIT)
    expect(banner).to_contain_text("offline")
    expect(board(alice)).to_have_class(re.compile(r"\bis-readonly\b"))
    expect(panel(bob, "alice")).to_have_attribute("data-here", "false", timeout=WAIT)
    expect(panel(bob, "alice").locator(".opp-away")).to_be_visible()
    # The race goes on without alice's page.
    board(bob).locator(".sb-spot[data-source=a]").click()
    expect(board(bob).locator(".sb-footer")).to_contain_text("1/95 played", timeout=WAIT)
    expect(panel(alice, "bob").locator(".sb-mini-meta")).to_contain_text("0/95")

    alice.context.set_offline(False)
    expect(banner).to_contain_text("Reconnected", timeout=WAIT)
    expect(panel(alice, "bob").locator(".sb-mini-meta")).to_contain_text("1/95", timeout=WAIT)
    expect(banner).to_be_hidden(timeout=WAIT)
    board(alice).locator("[data-action=stock]").click()
    expect(stock_count(alice)).to_have_text("88", timeout=WAIT)
    expect(panel(bob, "alice")).to_have_attribute("data-here", "true")
    no_js_errors(alice, bob)


def test_a_move_sent_as_the_socket_drops_is_played_once_after_the_reconnect(live, new_page):
    alice, bob = new_page(), new_page()
    alice.add_init_script(RECORD_SOCKETS)
    start_race(live, alice, bob)
    wait_until_racing(alice)
    banner = alice.locator("#race-banner")
    expect(stock_count(alice)).to_have_text("89")

    # The draw leaves, then the line breaks before any answer can come back.
    alice.evaluate(
        """() => {
            document.querySelector("#race-board [data-action=stock]").click();
            window.__raceSockets.at(-1).close();
        }"""
    )
    expect(banner).to_contain_text("reconnecting", timeout=WAIT)
    expect(banner).to_contain_text("Reconnected", timeout=WAIT)
    # Retried with the same id and seq: drawn once, not lost and not twice.
    expect(stock_count(alice)).to_have_text("88", timeout=WAIT)
    assert alice.evaluate("window.__raceSockets.length") == 2
    board(alice).locator("[data-action=stock]").click()
    expect(stock_count(alice)).to_have_text("87", timeout=WAIT)
    expect(banner).to_be_hidden(timeout=WAIT)
    no_js_errors(alice)


# A page that loses one frame on the way in: set `window.__drop` to the fields the
# frame carries (e.g. `{type: "progress", seq: 1}`; a progress frame's first racer's
# fields count as its own) and the first frame that has them all is dropped (kept
# in `__dropped`); `window.__delay` likewise holds one back
# until the next broadcast has gone by; frames sent are in `__sent`.
LOSE_A_FRAME = """
window.__sent = [];
window.__drop = null;
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  send(data) { window.__sent.push(JSON.parse(data)); super.send(data); }
  addEventListener(type, listener, ...rest) {
    if (type !== "message") return super.addEventListener(type, listener, ...rest);
    return super.addEventListener(type, (event) => {
      const message = JSON.parse(event.data);
      const fields = { ...message, ...(message.racers?.[0] ?? {}) };
      const wanted = window.__drop;
      if (wanted && Object.entries(wanted).every(([k, v]) => fields[k] === v)) {
        window.__drop = null;
        window.__dropped = message;
        return;
      }
      const late = window.__delay;
      if (late && Object.entries(late).every(([k, v]) => fields[k] === v)) {
        window.__delay = null;  // overtaken: it comes right after the next frame
        window.__delayed = () => listener(event);
        return;
      }
      listener(event);
      if (window.__delayed && message.type !== "ack") {
        const delayed = window.__delayed;
        window.__delayed = null;
        delayed();
      }
    }, ...rest);
  }
};
"""


def racing_with_a_faulty_line(live: Any, new_page: Any) -> tuple[Any, Any]:
    """alice and bob racing; bob's page has LOSE_A_FRAME between it and its socket."""
    alice, bob = new_page(), new_page()
    bob.add_init_script(LOSE_A_FRAME)
    start_race(live, alice, bob)
    wait_until_racing(alice)
    wait_until_racing(bob)
    return alice, bob


def test_a_page_that_missed_a_broadcast_notices_the_gap_and_catches_up(live, new_page):
    alice, bob = racing_with_a_faulty_line(live, new_page)

    # alice's first move, seq 1 of her game: nobody else has moved.
    bob.evaluate("window.__drop = {type: 'progress', seq: 1}")
    board(alice).locator(".sb-spot[data-source=a]").click()
    bob.wait_for_function("() => window.__dropped !== undefined", timeout=WAIT)
    missed = bob.evaluate("window.__dropped")
    assert missed["racers"][0]["progress"]["cards_played"] == 1
    expect(panel(bob, "alice").locator(".sb-mini-meta")).to_contain_text("0/95")

    # bob's own next move is broadcast one version further on: a gap, so a sync,
    # answered from the race's history.
    board(bob).locator("[data-action=stock]").click()
    expect(panel(bob, "alice").locator(".sb-mini-meta")).to_contain_text("1/95", timeout=WAIT)
    syncs = [m for m in bob.evaluate("window.__sent") if m["type"] == "sync"]
    assert syncs == [{"type": "sync", "v": missed["vs"][0] - 1}]
    expect(stock_count(bob)).to_have_text("88")
    no_js_errors(alice, bob)


def test_a_broadcast_overtaken_by_the_next_is_applied_in_order_without_a_snapshot(live, new_page):
    alice, bob = racing_with_a_faulty_line(live, new_page)

    # alice's move reaches bob only after bob's own move's broadcast: a gap, then its fill.
    bob.evaluate("window.__delay = {type: 'progress', seq: 1}")
    board(alice).locator(".sb-spot[data-source=a]").click()
    bob.wait_for_function("() => window.__delayed != null", timeout=WAIT)
    board(bob).locator("[data-action=stock]").click()
    expect(panel(bob, "alice").locator(".sb-mini-meta")).to_contain_text("1/95", timeout=WAIT)
    expect(stock_count(bob)).to_have_text("88")
    bob.wait_for_timeout(1000)  # longer than the gap's patience: a sync would have gone
    assert [m for m in bob.evaluate("window.__sent") if m["type"] == "sync"] == []
    no_js_errors(alice, bob)


def test_one_racer_in_two_tabs_plays_one_game_that_both_tabs_follow(live, new_page):
    alice, bob = new_page(), new_page()
    start_race(live, alice, bob)
    second = alice.context.new_page()  # same cookies: the same racer
    errors: list[str] = []
    second.on("pageerror", lambda error: errors.append(str(error)))
    second.goto(alice.url)
    wait_until_racing(alice)
    wait_until_racing(second)

    board(alice).locator("[data-action=stock]").click()
    expect(stock_count(alice)).to_have_text("88", timeout=WAIT)
    # The other tab hears its own game moved elsewhere and fetches the new view.
    expect(stock_count(second)).to_have_text("88", timeout=WAIT)
    board(second).locator("[data-action=stock]").click()
    expect(stock_count(second)).to_have_text("87", timeout=WAIT)
    expect(stock_count(alice)).to_have_text("87", timeout=WAIT)
    expect(board(second).locator(".sb-toast")).not_to_contain_text("Catching up")
    no_js_errors(alice, bob)
    assert errors == []

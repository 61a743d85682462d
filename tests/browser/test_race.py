"""The race page in real Chromium: separate browser contexts are separate people.

alice hosts, bob joins by the link, carol only watches. Races use an open deal
(deal 33, variant sultan) where slot a holds the two of hearts, which has
exactly one place to go, so a move that changes the race view is certain.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from playwright.sync_api import expect

DEAL = 33  # sultan: slot a is 2H, playable at once on foundation 2 and only there
WAIT = 10_000  # ms; a lobby broadcast or a move takes milliseconds, a start two seconds


# ——— people and races ———


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


def stock_count(page: Any) -> Any:
    return board(page).locator(".sb-stock .sb-count")


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
    expect(board(alice).locator(".sb-status")).to_have_text("Resigned", timeout=WAIT)
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


def resign(page: Any) -> None:
    page.get_by_role("button", name="Resign").click()
    dialog = page.get_by_role("dialog", name="Resign this race?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Resign").click()
    expect(dialog).to_be_hidden()


def test_the_deal_stays_secret_until_the_results_reveal_it(live, new_page):
    alice, bob = new_page(), new_page()
    start_race(live, alice, bob, deal="")
    wait_until_racing(alice)
    expect(alice.locator("#race-deal-label")).to_have_text("Secret deal")
    resign(alice)
    wait_until_racing(bob)
    resign(bob)
    expect(alice.locator("#results-table")).to_be_visible(timeout=WAIT)
    expect(alice.locator("#results-deal .results-seed")).to_have_text(re.compile(r"^#\d+$"))
    expect(alice.locator("#race-deal-label")).to_have_text(re.compile(r"^Deal #\d+$"))
    no_js_errors(alice, bob)


# ——— connections ———

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
# frame carries (e.g. `{type: "progress", seq: 1}`) and the first frame that has them
# all is dropped (kept in `__dropped`); `window.__delay` likewise holds one back
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
      const wanted = window.__drop;
      if (wanted && Object.entries(wanted).every(([k, v]) => message[k] === v)) {
        window.__drop = null;
        window.__dropped = message;
        return;
      }
      const late = window.__delay;
      if (late && Object.entries(late).every(([k, v]) => message[k] === v)) {
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
    bob.wait_for_function("window.__dropped !== undefined", timeout=WAIT)
    missed = bob.evaluate("window.__dropped")
    assert missed["progress"]["cards_played"] == 1
    expect(panel(bob, "alice").locator(".sb-mini-meta")).to_contain_text("0/95")

    # bob's own next move is broadcast one version further on: a gap, so a sync.
    board(bob).locator("[data-action=stock]").click()
    expect(panel(bob, "alice").locator(".sb-mini-meta")).to_contain_text("1/95", timeout=WAIT)
    syncs = [m for m in bob.evaluate("window.__sent") if m["type"] == "sync"]
    assert syncs == [{"type": "sync", "v": missed["v"] - 1}]
    expect(stock_count(bob)).to_have_text("88")
    no_js_errors(alice, bob)


def test_a_broadcast_overtaken_by_the_next_is_applied_in_order_without_a_snapshot(live, new_page):
    alice, bob = racing_with_a_faulty_line(live, new_page)

    # alice's move reaches bob only after bob's own move's broadcast: a gap, then its fill.
    bob.evaluate("window.__delay = {type: 'progress', seq: 1}")
    board(alice).locator(".sb-spot[data-source=a]").click()
    bob.wait_for_function("window.__delayed != null", timeout=WAIT)
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

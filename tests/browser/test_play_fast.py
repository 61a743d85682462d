"""Playing at the speed of thought (issue 16), in Chromium: no lost input, sending
home, automatic moves, Finish, the solver's lines on the board, sounds, a phone."""

from __future__ import annotations

from typing import Any

from games.engine import apply, finish_line, new_game
from games.engine.solver.greedy import greedy_move
from tests.browser.plans import open_board, wait_seq
from tests.races.helpers import SEED as LOST_SEED
from tests.races.helpers import VARIANT as LOST_VARIANT
from tests.races.helpers import careless_policy, recorded_game

PHONE = (390, 844)
# sultan deal 2: slot a holds the ace of clubs, which foundations 7 and 9 both take.
ACE_DEAL = 2
# pysolfc deal 2: after a draw, slot a's and slot d's aces go up by themselves.
AUTO_DEAL = 2
# pysolfc deal 180: greedy play wins it, and Finish can play out its last moves.
FINISH_DEAL = 180
# pysolfc deal 8: the hint's line starts with moves that show no unseen card.
SHOW_DEAL = 8


def _open(new_page: Any, path: str, size: tuple[int, int] = (1280, 800), **options: Any) -> Any:
    return open_board(new_page, path, *size, **options)


_wait_seq = wait_seq


def _post_moves(page: Any, deal: int, variant: str, tokens: list[str]) -> int:
    """Play `tokens` through the page's own API calls; returns the game's id."""
    game_id: int = page.evaluate(
        """async ([deal, variant, tokens]) => {
          const headers = {"Content-Type": "application/json",
                           "X-CSRFToken": document.cookie.match(/csrftoken=([^;]+)/)[1]};
          const post = async (url, body) =>
            (await fetch(url, {method: "POST", headers, body: JSON.stringify(body)})).json();
          const start = await post("/api/practice", {deal: String(deal), variant});
          let seq = start.view.seq;
          for (const [i, token] of tokens.entries()) {
            seq = (await post(`/api/games/${start.game.id}/moves`, {token, id: `p${i}`, seq})).seq;
          }
          return start.game.id;
        }""",
        [deal, variant, tokens],
    )
    return game_id


def test_presses_20_ms_apart_are_all_played_in_order(new_page):
    page = _open(new_page, "/practice/2024/")
    stock = page.locator(".sb-stock .sb-count")
    assert stock.inner_text() == str(95 - 6)
    for _ in range(10):
        page.keyboard.press("Space")
        page.wait_for_timeout(20)
    _wait_seq(page, 10)
    assert stock.inner_text() == str(95 - 6 - 10)
    assert page.inner_text("#stat-moves") == "10"
    # u u takes back two moves, not one.
    page.keyboard.press("u")
    page.wait_for_timeout(20)
    page.keyboard.press("u")
    _wait_seq(page, 12)
    assert stock.inner_text() == str(95 - 6 - 8)
    assert page.inner_text("#stat-moves") == "8"
    assert page.js_errors == []


def test_clicks_while_a_move_is_on_its_way_wait_their_turn(new_page):
    page = _open(new_page, "/practice/2025/")
    for _ in range(6):
        page.click('[data-action="stock"]', delay=0)
    _wait_seq(page, 6)
    assert page.locator(".sb-stock .sb-count").inner_text() == str(95 - 6 - 6)
    assert page.js_errors == []


def test_a_double_click_sends_a_card_home_to_the_lower_numbered_foundation(new_page, shot):
    page = _open(new_page, f"/practice/{ACE_DEAL}/")
    assert new_game(ACE_DEAL, "sultan").reserve[0] == "AC"
    page.dblclick('[data-slot="a"] .sb-spot')
    _wait_seq(page, 1)
    ace = page.locator('[data-foundation="7"] .sb-spot .sc-card').last
    assert ace.get_attribute("data-card") == "AC"
    assert (
        page.locator('[data-foundation="9"] .sb-spot .sc-card').last.get_attribute("data-card")
        == "KC"
    )
    assert page.inner_text("#stat-moves") == "1"  # one move, not two
    shot(page, "practice-sent-home")
    assert page.js_errors == []


def test_a_card_key_pressed_twice_sends_it_home(new_page):
    page = _open(new_page, f"/practice/{ACE_DEAL}/")
    page.keyboard.press("a")
    page.keyboard.press("a")
    _wait_seq(page, 1)
    assert (
        page.locator('[data-foundation="7"] .sb-spot .sc-card').last.get_attribute("data-card")
        == "AC"
    )


def test_on_a_phone_a_double_tap_sends_a_card_home(new_page, shot):
    page = _open(new_page, f"/practice/{ACE_DEAL}/", PHONE, has_touch=True, is_mobile=True)
    spot = page.locator('[data-slot="a"] .sb-spot')
    spot.tap()
    spot.tap()
    _wait_seq(page, 1)
    assert (
        page.locator('[data-foundation="7"] .sb-spot .sc-card').last.get_attribute("data-card")
        == "AC"
    )
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    shot(page, "practice-phone-double-tap")
    assert page.js_errors == []


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_a_message_never_covers_the_undo_button(new_page):
    for size in ((1280, 800), PHONE):
        page = _open(new_page, "/practice/2026/", size)
        page.keyboard.press("u")  # nothing to take back: said in a message
        page.wait_for_selector(".sb-toast.is-shown")
        toast = page.locator(".sb-toast").bounding_box()
        undo = page.locator('.sb-button[data-action="undo"]').bounding_box()
        assert toast is not None
        assert undo is not None
        assert not _overlap(toast, undo), size


def test_automatic_moves_are_a_setting_remembered_in_this_browser(new_page, shot):
    page = _open(new_page, f"/practice/{AUTO_DEAL}/?variant=pysolfc")
    assert not page.is_checked("#pref-automatic")  # off until asked for
    page.check("#pref-automatic")
    page.click('[data-action="stock"]')  # Space would press the checkbox it is on
    _wait_seq(page, 3)  # the draw, then slot a's and slot d's aces by themselves
    assert page.inner_text("#stat-cards") == "2"
    shot(page, "practice-automatic-moves")
    page.reload()
    page.wait_for_selector(".sultan-board .sb-table")
    assert page.is_checked("#pref-automatic")
    assert page.js_errors == []


def test_finish_plays_the_game_out(new_page, shot):
    state = new_game(FINISH_DEAL, "pysolfc")
    tokens: list[str] = []
    while finish_line(state) is None:
        move = greedy_move(state)
        assert move is not None
        tokens.append(move)
        state = apply(state, move)
    page = _open(new_page, f"/practice/{FINISH_DEAL}/?variant=pysolfc")
    assert page.is_hidden("#finish")
    _post_moves(page, FINISH_DEAL, "pysolfc", tokens)
    page.reload()
    page.wait_for_selector("#finish:not([hidden])")
    shot(page, "practice-finish-offered")
    page.click("#finish")
    # Played out card by card; Escape skips to the end at once.
    page.wait_for_function(
        "() => document.querySelector('.sultan-board').getAnimations({subtree: true}).length > 3"
    )
    page.keyboard.press("Escape")
    running = page.evaluate(
        "() => document.querySelector('.sultan-board').getAnimations({subtree: true})"
        ".filter(a => a.playState === 'running').length"
    )
    assert running == 0
    page.wait_for_selector("#result:not([hidden])")
    assert page.get_attribute(".sultan-board", "data-status") == "won"
    assert page.inner_text("#stat-cards") == "95"
    assert page.is_hidden("#finish")
    assert page.js_errors == []


def test_show_me_how_plays_the_hints_line_and_comes_back(new_page, shot):
    page = _open(new_page, f"/practice/{SHOW_DEAL}/?variant=pysolfc")
    page.click("#hint")
    page.wait_for_selector("#show-how:not([hidden])", timeout=20_000)
    before = page.locator(".sb-foundation .sc-card").evaluate_all(
        "cards => cards.map(c => c.dataset.card).join()"
    )
    page.click("#show-how")
    page.wait_for_selector("#line-bar:not([hidden])")
    assert page.get_attribute(".sultan-board", "class").count("is-readonly") == 1
    page.click("#line-next")
    page.wait_for_function(
        "before => [...document.querySelectorAll('.sb-foundation .sc-card')]"
        ".map(c => c.dataset.card).join() !== before",
        arg=before,
    )
    shot(page, "practice-show-me-how")
    page.click("#line-back")
    assert page.is_hidden("#line-bar")
    after = page.locator(".sb-foundation .sc-card").evaluate_all(
        "cards => cards.map(c => c.dataset.card).join()"
    )
    assert after == before
    page.keyboard.press("Space")  # the game goes on where it was
    _wait_seq(page, 1)
    assert page.js_errors == []


def test_the_replay_watches_the_solvers_winning_line(new_page, shot):
    tokens = recorded_game(careless_policy)
    page = _open(new_page, f"/practice/{LOST_SEED}/?variant={LOST_VARIANT}")
    game_id = _post_moves(page, LOST_SEED, LOST_VARIANT, tokens)
    page.goto(f"/games/{game_id}/replay/")
    page.wait_for_selector("#analysis-watch:not([hidden])", timeout=30_000)
    page.click("#analysis-watch")
    page.wait_for_selector("#line-bar:not([hidden])")
    seq = int(page.inner_text("#pos-move"))
    assert 0 < seq < len(tokens)
    page.click("#line-play")
    page.wait_for_function(
        "() => document.querySelector('.line-where').textContent.startsWith('3 ')"
    )
    shot(page, "replay-watching-the-line")
    page.click("#line-play")  # pause
    page.click("#line-back")
    assert page.is_hidden("#line-bar")
    assert page.inner_text("#pos-move") == str(seq)
    assert page.js_errors == []


def test_sounds_are_off_until_turned_on(new_page):
    page = _open(new_page, "/practice/2027/")
    assert not page.is_checked("#pref-sounds")
    page.keyboard.press("Space")
    _wait_seq(page, 1)
    assert page.evaluate("document.documentElement.dataset.lastSound ?? null") is None
    page.check("#pref-sounds")
    page.click('[data-action="stock"]')
    _wait_seq(page, 2)
    assert page.evaluate("document.documentElement.dataset.lastSound") == "move"
    assert page.js_errors == []


def test_an_unknown_race_link_shows_the_sites_page_and_the_site_has_an_icon(new_page, shot):
    page = new_page()
    response = page.goto("/r/nope-nope/")
    assert response.status == 404
    assert "No such race" in page.inner_text("h1")
    shot(page, "race-not-found")
    icon = page.evaluate("fetch('/favicon.ico').then(r => [r.status, r.url])")
    assert icon[0] == 200
    assert icon[1].endswith(".svg")


def test_in_a_race_with_automatic_moves_every_racer_gets_them(live, new_page, shot):
    from playwright.sync_api import expect

    from tests.browser.racing import WAIT, board, start_race, wait_until_racing

    alice, bob = new_page(), new_page()
    start_race(live, alice, bob, variant="pysolfc", deal=AUTO_DEAL, automatic_moves="on")
    for page in (alice, bob):
        expect(page.locator("#race-automatic-label")).to_have_text("Automatic moves on")
        wait_until_racing(page)
    # bob never asked for them: the race decides. His draw brings two aces up by themselves.
    bob.keyboard.press("Space")
    played = board(bob).locator(".sb-footer .sb-stat").first
    expect(played).to_contain_text("2/95", timeout=WAIT)
    expect(board(bob).locator('[data-foundation="7"] .sb-spot .sc-card').last).to_have_attribute(
        "data-card", "AC"
    )
    shot(bob, "race-automatic-moves")
    assert bob.js_errors == []
    assert alice.js_errors == []


def test_a_double_click_on_a_card_with_one_place_to_go_plays_it_once(new_page):
    from tests.browser.racing import DEAL  # sultan: slot a is 2H, for foundation 2 only

    page = _open(new_page, f"/practice/{DEAL}/")
    page.dblclick('[data-slot="a"] .sb-spot')
    page.keyboard.press("Space")  # queued behind whatever the double-click sent
    page.wait_for_function(
        "() => document.querySelectorAll('.sb-waste .sb-spot .sc-card').length === 1"
        " && !document.querySelector('.sultan-board .is-pending')"
    )
    # The first click played the two of hearts; the second did nothing more.
    assert page.get_attribute("#practice", "data-seq") == "2"
    assert (
        page.locator('[data-foundation="2"] .sb-spot .sc-card').last.get_attribute("data-card")
        == "2H"
    )
    assert page.js_errors == []


def _flights_during_a_draw(page: Any) -> int:
    page.evaluate(
        """() => {
          window.flights = 0;
          new MutationObserver((changes) => {
            for (const c of changes) {
              if (c.target.classList?.contains("is-flying")) window.flights++;
            }
          }).observe(document.querySelector(".sultan-board"),
                     {subtree: true, attributes: true, attributeFilter: ["class"]});
        }"""
    )
    page.keyboard.press("Space")
    _wait_seq(page, 1)
    flights: int = page.evaluate("window.flights")
    return flights


def test_cards_glide_unless_the_player_asks_for_less_motion(new_page):
    moving = _open(new_page, "/practice/2028/")
    assert _flights_during_a_draw(moving) > 0
    calm = _open(new_page, "/practice/2029/", reduced_motion="reduce")
    assert _flights_during_a_draw(calm) == 0

"""What a careful player still tripped over (issue 26), in Chromium: a win's
celebration and the record line, the table's colours, hints that say why, the
analysis in words, a race's deal code, a name asked for before it is shown."""

from __future__ import annotations

import re
from typing import Any

from games.engine.dealcode import deal_code
from tests.browser.plans import finished_race, open_board, wait_seq
from tests.pages.helpers import winning_log
from tests.races.helpers import SEED as LOST_SEED
from tests.races.helpers import VARIANT as LOST_VARIANT
from tests.races.helpers import careless_policy, recorded_game

PHONE = (390, 844)
# sultan deal 7: the solver's first move is a draw, on the way to the 3♥ in view.
DRAW_DEAL = 7
RUSSIAN = {"locale": "ru-RU", "extra_http_headers": {"Accept-Language": "ru-RU,ru"}}


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


def _one_move_from_a_win(new_page: Any, **options: Any) -> tuple[Any, str]:
    seed, tokens = winning_log("sultan")
    page = open_board(new_page, f"/practice/{seed}/", **options)
    _post_moves(page, seed, "sultan", list(tokens[:-1]))
    page.reload()
    page.wait_for_selector(".sultan-board .sb-table")
    wait_seq(page, len(tokens) - 1)
    return page, tokens[-1]


def _play_key(page: Any, token: str) -> None:
    page.keyboard.press(token[0])
    page.keyboard.press(token[1])


def test_a_win_cascades_the_cards_and_the_record_line_counts_it(new_page, shot):
    page, last = _one_move_from_a_win(new_page)
    assert page.inner_text("#practice-record") == "Your first game of this variant"
    _play_key(page, last)
    page.wait_for_selector(".celebration .celebration-card", state="attached")
    assert page.locator(".celebration .celebration-card").count() >= 9
    assert page.get_attribute(".celebration", "aria-hidden") == "true"
    page.wait_for_function(
        "() => document.getElementById('practice-record').textContent.startsWith('1 game')"
    )
    assert "1 won (100%) · best" in page.inner_text("#practice-record")
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(900)
    shot(page, "polish-win-cascade-en")
    page.wait_for_selector(".celebration", state="detached", timeout=10_000)
    assert page.js_errors == []


def test_a_win_does_not_cascade_for_a_player_who_asked_for_less_motion(new_page):
    page, last = _one_move_from_a_win(new_page, reduced_motion="reduce")
    _play_key(page, last)
    page.wait_for_selector("#result:not([hidden])")
    page.wait_for_timeout(300)
    assert page.locator(".celebration").count() == 0


def test_the_table_colour_and_card_back_are_kept_in_this_browser(new_page, shot):
    page = open_board(new_page, "/practice/31/")
    green = page.evaluate(
        "getComputedStyle(document.querySelector('.sultan-board')).getPropertyValue('--felt')"
    )
    page.focus("#pref-sounds")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "pref-felt"
    page.select_option("#pref-felt", "blue")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "pref-back"
    page.select_option("#pref-back", "green")
    page.reload()
    page.wait_for_selector(".sultan-board .sb-table")
    assert page.get_attribute("html", "data-felt") == "blue"
    assert page.get_attribute("html", "data-back") == "green"
    assert page.input_value("#pref-felt") == "blue"
    blue = page.evaluate(
        "getComputedStyle(document.querySelector('.sultan-board')).getPropertyValue('--felt')"
    )
    assert blue.strip() != green.strip()
    back = page.evaluate("getComputedStyle(document.querySelector('.sc-back')).backgroundImage")
    assert "card-back-green.svg" in back
    shot(page, "polish-table-blue-back-green-en")
    assert page.js_errors == []


def test_a_draw_hint_says_why_and_show_me_how_opens_for_it(new_page, shot):
    page = open_board(new_page, f"/practice/{DRAW_DEAL}/")
    page.click("#hint")
    page.wait_for_selector('[data-action="stock"].is-hinted, [data-action="stock"] .is-hinted')
    toast = page.inner_text(".sb-toast")
    assert re.search(r"it leads to a win \(on the way to putting the .+ up", toast), toast
    page.wait_for_selector("#show-how:not([hidden])")
    page.click("#show-how")
    page.wait_for_selector("#line-bar:not([hidden])")
    assert " of 0" not in page.inner_text("#line-bar")  # the draws play (test_play_third)
    shot(page, "polish-hint-draw-en")
    page.click("#line-back")
    assert page.is_hidden("#line-bar")
    assert page.js_errors == []


def open_analysis(new_page: Any) -> Any:
    """A lost practice game's replay, once its analysis offers the winning line."""
    tokens = recorded_game(careless_policy)
    page = open_board(new_page, f"/practice/{LOST_SEED}/?variant={LOST_VARIANT}")
    game_id = _post_moves(page, LOST_SEED, LOST_VARIANT, tokens)
    page.goto(f"/games/{game_id}/replay/")
    page.wait_for_selector("#analysis-line:not([hidden])", timeout=30_000)
    return page


def test_the_analysis_tells_the_winning_line_in_words(new_page, shot):
    page = open_analysis(new_page)
    assert page.get_attribute("#analysis-line", "open") is None  # collapsed until asked
    page.click("#analysis-line-summary")
    items = page.locator("#analysis-phrases li")
    assert items.count() > 1
    words = items.all_inner_texts()
    assert all(re.match(r"^(Draw \d+ cards?|Redeal|.+ to (foundation|slot) )", w) for w in words)
    assert not any(re.fullmatch(r"[a-hw]\d|draw|redeal", w) for w in words)
    assert page.is_visible("#analysis-watch")
    shot(page, "polish-analysis-words-en")
    assert page.js_errors == []


def test_a_races_results_show_its_deal_as_a_code_with_the_seed_at_hand(live, new_page, shot):
    race = finished_race(live.url, live.ws_url, moves=3)
    page = new_page(1280, 900)
    page.goto(f"/r/{race['code']}/")
    page.wait_for_selector("#race-results:not([hidden])")
    seed_text = page.get_attribute(".results-seed", "title")
    assert seed_text is not None
    seed = int(seed_text.rsplit(" ", 1)[1])
    assert page.inner_text(".results-seed") == deal_code(seed)
    assert f"#{seed}" not in page.inner_text("#race-results")
    shot(page, "polish-race-results-code-en")
    assert page.js_errors == []


def test_a_default_guest_is_offered_a_name_before_joining_a_race(live, new_page, shot):
    host = new_page(1280, 900)
    host.goto("/")
    host.fill("#race-nickname", "Amina")
    host.click("#start-race button[type=submit]")
    host.wait_for_url(re.compile(r"/r/[^/]+/$"))
    guest = open_board(new_page, "/practice/5/")
    guest.click('[data-action="stock"]')  # the first move makes the guest
    wait_seq(guest, 1)
    guest.goto(host.url)
    offered = guest.input_value("#lobby-join input[name=nickname]")
    assert offered
    assert offered != "Guest"
    shot(guest, "polish-join-offered-name-en")
    guest.click("#lobby-join button[type=submit]")
    guest.wait_for_selector(f"text={offered}")
    assert "Guest" not in guest.inner_text("main")

"""What a new player noticed (issue 39), in Chromium: the analysis's numbers from 10 on,
the API page served from this host alone, a hint's message clear of its card, the board
reachable at once from the keyboard, and "Show me how" for a draw."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import ARTIFACTS
from tests.browser.plans import open_board
from tests.browser.test_friends import _sign_up
from tests.browser.test_play_polish import DRAW_DEAL, _post_moves, open_analysis

PHONE = (390, 844)
RUSSIAN: dict[str, Any] = {"locale": "ru-RU", "extra_http_headers": {"Accept-Language": "ru-RU,ru"}}

# The room the list's padding leaves its numbers, against the width of the longest as
# Chromium draws it outside the item: "60. ", its space included (what did not fit was
# clipped by the list's scroll box from the left: the first digit, "l0.").
MARKER_ROOM = """() => {
  const list = document.getElementById("analysis-phrases");
  const items = list.querySelectorAll("li");
  const probe = document.createElement("span");
  probe.style.cssText = "position:absolute;white-space:pre;font:inherit";
  probe.textContent = `${items.length}. `;
  items[items.length - 1].append(probe);
  const need = probe.getBoundingClientRect().width;
  probe.remove();
  const room = items[0].getBoundingClientRect().left - list.getBoundingClientRect().left;
  return { need, room, count: items.length };
}"""


def test_the_analysis_numbers_its_line_whole_from_ten_on(new_page, shot):
    page = open_analysis(new_page)
    page.click("#analysis-line-summary")
    room = page.evaluate(MARKER_ROOM)
    assert room["count"] >= 10, room
    # "10." drawn whole inside the list's box (its scroll box clips what overflows it).
    assert room["room"] >= room["need"], room
    page.locator("#analysis-phrases li").nth(9).scroll_into_view_if_needed()
    shot(page, "third-analysis-numbers-en")
    assert page.js_errors == []


def _api_page(new_page: Any, live: Any, **options: Any) -> tuple[Any, list[str]]:
    page = new_page(1280, 900, **options)
    elsewhere: list[str] = []
    # Redoc's worker comes from a blob: of this page, which is no host at all.
    page.on(
        "request",
        lambda r: None if r.url.startswith((live.url, "blob:")) else elsewhere.append(r.url),
    )
    page.goto("/api/")
    page.wait_for_selector("#redoc-ui .menu-content", state="attached", timeout=20_000)
    page.wait_for_load_state("networkidle")
    return page, elsewhere


def test_the_api_page_asks_no_other_host_for_anything(live, new_page, shot):
    page, elsewhere = _api_page(new_page, live)
    assert elsewhere == []
    assert page.locator(".api-docs-language").count() == 0
    shot(page, "third-api-en")
    assert page.js_errors == []


def test_the_api_page_tells_a_russian_reader_its_reference_is_in_english(live, new_page, shot):
    page, elsewhere = _api_page(new_page, live, **RUSSIAN)
    assert elsewhere == []
    assert "на английском" in page.inner_text(".api-docs-language")
    shot(page, "third-api-ru")


def _overlap(page: Any, a: str, b: str) -> list[str]:
    """The elements matching `b` whose box meets the (first) `a`'s."""
    met: list[str] = page.evaluate(
        """([a, b]) => {
          const r = document.querySelector(a).getBoundingClientRect();
          return [...document.querySelectorAll(b)].filter((e) => {
            const s = e.getBoundingClientRect();
            return s.width && r.left < s.right && s.left < r.right
              && r.top < s.bottom && s.top < r.bottom;
          }).map((e) => e.className);
        }""",
        [a, b],
    )
    return met


def _hint_shown(page: Any) -> None:
    page.click("#hint")
    page.wait_for_selector(".sultan-board .is-hinted")
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('.sb-toast')).opacity === '1'"
    )


# Follow the hints' draws until a hint plays the waste's card: the game's id.
TO_A_WASTE_HINT = """async (deal) => {
  const headers = {"Content-Type": "application/json",
                   "X-CSRFToken": document.cookie.match(/csrftoken=([^;]+)/)[1]};
  const post = async (url, body) =>
    (await fetch(url, {method: "POST", headers, body: JSON.stringify(body)})).json();
  const start = await post("/api/practice", {deal: String(deal), variant: "sultan"});
  let seq = start.view.seq;
  for (let i = 0; i < 60; i++) {
    const hint = await post(`/api/games/${start.game.id}/hint`, {});
    if (hint.move?.startsWith("w")) return start.game.id;
    const move = {token: hint.move, id: `h${i}`, seq};
    seq = (await post(`/api/games/${start.game.id}/moves`, move)).seq;
  }
  return null;
}"""


def test_a_hints_message_never_covers_the_cards_it_points_at(new_page, shot):
    for size, name in (((1280, 900), "desktop"), (PHONE, "phone")):
        page = open_board(new_page, f"/practice/{DRAW_DEAL}/", *size)
        assert page.evaluate(TO_A_WASTE_HINT, DRAW_DEAL) is not None
        page.reload()
        page.wait_for_selector(".sultan-board .sb-table")
        _hint_shown(page)
        assert page.locator(".sultan-board [data-source='w'].is-hinted").count() == 1
        assert _overlap(page, ".sb-toast", ".sultan-board .is-hinted") == [], name
        shot(page, f"third-hint-clear-{name}-en")
        assert page.js_errors == []


IN_BOARD = "() => Boolean(document.activeElement?.closest('.sultan-board [data-nav]'))"


def _skip_to_the_board(page: Any) -> None:
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "skip-to-board"
    box = page.locator("#skip-to-board").bounding_box()
    assert box is not None  # seen when focused
    assert box["y"] >= 0
    assert box["height"] > 0
    page.keyboard.press("Enter")
    assert page.evaluate(IN_BOARD)


def test_the_first_tab_stop_skips_to_the_board_for_a_visitor_and_a_player(new_page, shot):
    visitor = open_board(new_page, "/practice/1/")
    visitor.keyboard.press("Tab")
    shot(visitor, "third-skip-to-board-en")
    visitor.keyboard.press("Shift+Tab")
    _skip_to_the_board(visitor)
    visitor.keyboard.press("ArrowRight")  # the board's own keys from there
    assert visitor.evaluate(IN_BOARD)

    alice = new_page(1280, 900)
    _sign_up(alice, "alice39")
    alice.goto("/practice/1/")
    alice.wait_for_selector(".sultan-board .sb-table")
    _skip_to_the_board(alice)
    assert visitor.js_errors == []
    assert alice.js_errors == []


def test_an_arrow_pressed_on_a_fresh_game_page_enters_the_board(new_page):
    page = open_board(new_page, "/practice/1/", *PHONE)
    page.keyboard.press("ArrowDown")
    assert page.evaluate(IN_BOARD)
    page.keyboard.press("ArrowRight")
    assert page.evaluate(IN_BOARD)


def test_the_skip_link_reads_in_russian(new_page, shot):
    page = open_board(new_page, "/practice/1/", *PHONE, **RUSSIAN)
    page.keyboard.press("Tab")
    assert page.inner_text("#skip-to-board") == "К игровому столу"
    shot(page, "third-skip-to-board-ru-phone")


# pysolfc deal 2: slot a's card goes to foundation 7 at once, and the slot stays empty.
PYSOLFC_DEAL = 2


def _drag(page: Any, source: str, target: str) -> None:
    a, b = page.locator(source).bounding_box(), page.locator(target).bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=12)
    page.mouse.up()


def test_a_reserve_card_dropped_on_an_empty_slot_is_told_why_it_stays(new_page, shot):
    page = open_board(new_page, f"/practice/{PYSOLFC_DEAL}/?variant=pysolfc")
    _post_moves(page, PYSOLFC_DEAL, "pysolfc", ["a7"])
    page.reload()
    page.wait_for_selector(".sultan-board .sb-table")
    assert page.locator('[data-drop="reserve:a"] .sc-card').count() == 0
    _drag(page, '[data-source="b"] .sc-card', '[data-drop="reserve:a"]')
    page.wait_for_selector(".sb-toast.is-shown")
    assert "the slots are all alike" in page.inner_text(".sb-toast")
    assert page.locator('[data-drop="reserve:a"] .sc-card').count() == 0
    shot(page, "third-pysolfc-slot-to-slot-en")
    assert page.js_errors == []


def _in_view(page: Any, selector: str) -> bool:
    """Whether `selector` comes to be wholly in the window (the page scrolls it there after
    a frame or two). A pixel's slack: scrolled to the nearest edge, a box of fractional
    height ends at 800.3 in an 800-pixel window."""
    try:
        page.wait_for_function(
            """(s) => { const r = document.querySelector(s).getBoundingClientRect();
                        return r.height > 0 && r.top >= -1 && r.bottom <= innerHeight + 1; }""",
            arg=selector,
            timeout=5_000,
        )
    except PlaywrightTimeout:
        return False
    return True


def test_show_me_how_for_a_draw_plays_the_draws_up_to_the_card_that_matters(new_page, shot):
    for size, name, options in (
        ((1280, 800), "desktop-en", {}),
        (PHONE, "phone-en", {}),
        ((1280, 800), "desktop-ru", RUSSIAN),
        (PHONE, "phone-ru", RUSSIAN),
    ):
        page = open_board(new_page, f"/practice/{DRAW_DEAL}/", *size, **options)
        page.click("#hint")
        page.wait_for_selector('[data-action="stock"].is-hinted, [data-action="stock"] .is-hinted')
        page.click("#show-how")
        page.wait_for_selector("#line-bar:not([hidden])")
        where = page.inner_text(".line-where")
        total = int(where.split()[-1])
        assert total >= 2, where  # the draws and the card they lead to, not "0 of 0"
        assert _in_view(page, "#line-bar"), name
        waste = ".sultan-board [data-source='w']"
        before = page.get_attribute(waste, "aria-label")
        page.click("#line-next")  # a draw: the waste shows another card
        page.wait_for_function(
            "([s, b]) => document.querySelector(s).getAttribute('aria-label') !== b",
            arg=[waste, before],
        )
        page.click("#line-play")
        page.wait_for_function(
            "t => document.querySelector('.line-where').textContent.startsWith(`${t} `)", arg=total
        )
        assert _in_view(page, "#line-bar"), name
        shot(page, f"third-show-how-draw-{name}")
        page.click("#line-back")
        assert page.is_hidden("#line-bar")
        assert page.js_errors == []


def test_the_changed_pages_in_both_languages_on_desktop_and_phone(live, new_page, shot):
    """What this issue changed, for people to look at: every page, each language and size."""
    for lang, options in (("en", {}), ("ru", RUSSIAN)):
        for size, name in (((1280, 900), "desktop"), (PHONE, "phone")):
            page = open_board(new_page, "/practice/5/?variant=sultan&winnable=1", *size, **options)
            assert page.is_checked("#pref-winnable")
            page.locator("#pref-winnable").scroll_into_view_if_needed()
            shot(page, f"third-practice-winnable-{name}-{lang}")
            _hint_shown(page)
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, f"third-hint-{name}-{lang}")
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.goto("/api/")
            page.wait_for_selector("#redoc-ui .api-content", timeout=20_000)
            # Its first screen: the whole reference is some 10,000 pixels tall.
            page.screenshot(path=str(ARTIFACTS / f"third-api-{name}-{lang}.png"))
            assert page.js_errors == []

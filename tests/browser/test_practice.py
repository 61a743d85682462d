"""A practice game in Chromium: clicks, keys, undo, resign, a stale tab."""

from __future__ import annotations

from typing import Any

from games.engine import apply, new_game
from tests.browser.plans import foundation_plan, open_board, wait_seq
from tests.pages.helpers import winning_log


def _open(new_page: Any, deal: int, width: int = 1280, height: int = 800) -> Any:
    return open_board(new_page, f"/practice/{deal}/", width, height)


_wait_moves = wait_seq


def _spot(token_source: str) -> str:
    if token_source == "w":
        return ".sb-waste .sb-spot"
    return f'[data-slot="{token_source}"] .sb-spot'


def test_a_practice_game_is_played_by_click_and_by_keyboard(new_page, shot):
    plan = foundation_plan(plays=4)
    page = _open(new_page, plan.seed)
    plays = plan.foundation_plays()
    by_click = plan.tokens[: plays[1] + 1]
    state = new_game(plan.seed, "sultan")
    for n, token in enumerate(plan.tokens, start=1):
        if n <= len(by_click):
            if token == "draw":
                page.click('[data-action="stock"]')
            else:
                page.click(_spot(token[0]))
                target = page.locator(f'[data-foundation="{token[1]}"] .sb-spot.is-target')
                if target.count():  # two foundations take it: choose one
                    target.click()
        else:
            keys = ["Space"] if token == "draw" else [token[0], token[1]]
            for key in keys:
                page.keyboard.press(key)
        state = apply(state, token)
        _wait_moves(page, n)
        if token[-1].isdigit():
            top = state.foundation_tops()[int(token[1]) - 1]
            card = page.locator(f'[data-foundation="{token[1]}"] .sb-spot .sc-card').last
            assert card.get_attribute("data-card") == top
    assert page.inner_text("#stat-cards") == str(state.cards_played) == "4"
    # The server holds the same game: ask it as the page would.
    stored = page.evaluate(
        "async () => { const id = (await (await fetch('/api/practice', {method: 'POST',"
        " headers: {'Content-Type': 'application/json', 'X-CSRFToken':"
        " document.cookie.match(/csrftoken=([^;]+)/)[1]},"
        f" body: JSON.stringify({{deal: '{plan.seed}'}})}})).json()); return id; }}"
    )
    assert stored["resumed"] is True
    assert stored["view"]["seq"] == len(plan.tokens)
    assert stored["view"]["foundations"] == state.foundation_tops()
    shot(page, "practice-desktop")
    assert page.js_errors == []


def test_undo_by_button_and_by_key(new_page):
    page = _open(new_page, 2024)
    waste = page.locator(".sb-waste .sb-spot .sc-card")
    page.keyboard.press("Space")
    _wait_moves(page, 1)
    assert waste.count() == 1
    page.click('.sb-button[data-action="undo"]')
    _wait_moves(page, 2)
    assert page.inner_text("#stat-moves") == "0"  # an undo takes a move off: 1 became 0
    assert waste.count() == 0
    assert page.locator(".sb-stock .sb-count").inner_text() == str(95 - 6)
    page.keyboard.press("s")
    _wait_moves(page, 3)
    page.keyboard.press("u")
    _wait_moves(page, 4)
    assert waste.count() == 0
    page.keyboard.press("u")  # nothing left to take back: refused, said, nothing changes
    page.wait_for_selector(".sb-toast.is-shown")
    assert "no move to take back" in page.inner_text(".sb-toast").lower()
    assert page.inner_text("#stat-moves") == "0"
    assert page.js_errors == []


def test_resign_ends_the_game_and_offers_its_replay(new_page):
    page = _open(new_page, 3030)
    page.keyboard.press("Space")
    _wait_moves(page, 1)
    page.click("#resign")
    page.click("dialog#resign-dialog button[value=resign]")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#result-title") == "You resigned"
    assert page.get_attribute(".sultan-board", "data-status") == "resigned"
    assert page.is_disabled("#resign")
    page.click("#result-replay")
    page.wait_for_selector(".move-list .mv")
    assert "#move=2" in page.url
    assert page.js_errors == []


def test_keeping_on_playing_leaves_the_game_as_it_was(new_page):
    page = _open(new_page, 3031)
    page.keyboard.press("Space")  # a deal only opened has no game to resign yet
    _wait_moves(page, 1)
    page.click("#resign")
    # The table has the focus as soon as the click is over, not a task later, so a
    # Space pressed at once draws instead of reopening the dialog.
    focus = page.evaluate(
        "() => { document.querySelector('dialog#resign-dialog button[value=cancel]').click();"
        " return !!document.activeElement.closest('.sultan-board'); }"
    )
    assert focus is True
    page.keyboard.press("Space")
    _wait_moves(page, 2)
    assert page.get_attribute(".sultan-board", "data-status") == "playing"
    assert not page.is_visible("dialog#resign-dialog")


def test_a_stale_tab_is_brought_up_to_date(new_page):
    first = _open(new_page, 4040)
    second = first.context.new_page()
    second.goto("/practice/4040/")
    second.wait_for_selector(".sultan-board .sb-table")
    first.keyboard.press("Space")
    _wait_moves(first, 1)
    second.keyboard.press("Space")  # its seq is 0, the game's is 1: refused, then resynced
    second.wait_for_selector(".sb-toast.is-shown")
    assert "another tab" in second.inner_text(".sb-toast")
    _wait_moves(second, 1)
    assert second.locator(".sb-waste .sb-spot .sc-card").get_attribute(
        "data-card"
    ) == first.locator(".sb-waste .sb-spot .sc-card").get_attribute("data-card")


def _resume_after(page: Any, seed: int, tokens: tuple[str, ...]) -> None:
    """Play `tokens` through the page's own API, then let the page resume the game."""
    page.evaluate(
        """async ([deal, tokens]) => {
          const headers = {"Content-Type": "application/json",
                           "X-CSRFToken": document.cookie.match(/csrftoken=([^;]+)/)[1]};
          const post = async (url, body) =>
            (await fetch(url, {method: "POST", headers, body: JSON.stringify(body)})).json();
          const start = await post("/api/practice", {deal: String(deal)});
          let seq = start.view.seq;
          for (const [i, token] of tokens.entries()) {
            seq = (await post(`/api/games/${start.game.id}/moves`, {token, id: `w${i}`, seq})).seq;
          }
        }""",
        [seed, list(tokens)],
    )
    page.reload()
    page.wait_for_selector(".sultan-board .sb-table")
    _wait_moves(page, len(tokens))


def _hinted_spots(token: str) -> list[str]:
    if token in ("draw", "redeal"):
        return ['[data-action="stock"]']
    target = "foundation" if token[1].isdigit() else "slot"
    return [_spot(token[0]), f'[data-{target}="{token[1]}"] .sb-spot']


def test_hints_point_at_their_moves_and_lead_to_a_win(new_page, shot):
    seed, tokens = winning_log("sultan")
    page = _open(new_page, seed)
    played = len(tokens) - 20
    _resume_after(page, seed, tokens[:played])
    for hints in range(200):
        with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
            page.keyboard.press("?")
        hint = answer.value.json()
        assert hint["status"] == "won", hint
        for selector in _hinted_spots(hint["move"]):
            page.wait_for_selector(f"{selector}.is-hinted")
        assert "leads to a win" in page.inner_text(".sb-toast")
        if hints == 0:
            shot(page, "practice-hint")
        keys = {"draw": ["Space"], "redeal": ["r"]}.get(hint["move"], list(hint["move"]))
        for key in keys:
            page.keyboard.press(key)
        played += 1
        _wait_moves(page, played)
        assert page.locator(".is-hinted").count() == 0  # the pointer goes with the move
        if page.get_attribute(".sultan-board", "data-status") == "won":
            break
    page.wait_for_selector("#result:not([hidden])")
    assert page.js_errors == []


def test_an_undecided_hint_points_at_the_solvers_best_try(new_page, shot):
    page = _open(new_page, 34)  # sultan 34: undecided at 20 million positions, past a hint's budget
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        page.click("#hint")
    hint = answer.value.json()
    assert hint["status"] == "unknown", hint
    for selector in _hinted_spots(hint["move"]):
        page.wait_for_selector(f"{selector}.is-hinted")
    toast = page.inner_text(".sb-toast")
    assert "best try" in toast
    assert f"{hint['reach']} of 95 cards up" in toast
    shot(page, "practice-hint-best-try")
    assert page.js_errors == []


def test_winning_shows_the_result_and_stops_the_clock(new_page, shot):
    seed, tokens = winning_log("sultan")
    page = _open(new_page, seed)
    _resume_after(page, seed, tokens[:-1])
    last = tokens[-1]
    page.keyboard.press(last[0])
    page.keyboard.press(last[1])
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#result-title") == "The Sultan is surrounded!"
    assert page.inner_text("#stat-cards") == "95"
    assert page.get_attribute(".sultan-board", "data-status") == "won"
    clock = page.inner_text("#stat-clock")
    page.wait_for_timeout(1500)
    assert page.inner_text("#stat-clock") == clock
    page.evaluate("window.scrollTo(0, 0)")  # the result scrolled into view; shoot from the top
    page.wait_for_timeout(400)
    shot(page, "practice-won")
    assert page.js_errors == []

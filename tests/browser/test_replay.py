"""The replay viewer in Chromium: stepping, scrubbing, the address, autoplay, races."""

from __future__ import annotations

from typing import Any

from games.engine import apply, new_game
from tests.browser.plans import finished_race, foundation_plan, play_and_resign

DEAL_TOKENS = ["draw", "draw", "draw", "undo", "draw"]


def _finished_practice(new_page: Any, deal: int, tokens: list[str]) -> tuple[Any, int]:
    page = new_page(1280, 800)
    return page, play_and_resign(page, deal, tokens)


def _position(page: Any) -> int:
    return int(page.inner_text("#pos-move"))


def _wait_position(page: Any, n: int) -> None:
    page.wait_for_function(
        "n => document.getElementById('pos-move').textContent === String(n)", arg=n
    )


def test_the_replay_viewer_steps_scrubs_and_follows_the_address(new_page, shot):
    plan = foundation_plan(plays=3)
    tokens = list(plan.tokens)
    page, game_id = _finished_practice(new_page, plan.seed, tokens)
    last = len(tokens) + 1
    page.goto(f"/games/{game_id}/replay/#move=2")
    page.wait_for_selector(".move-list .mv")
    assert _position(page) == 2
    assert page.inner_text("#pos-total") == str(last)
    state = apply(apply(new_game(plan.seed, "sultan"), tokens[0]), tokens[1])
    assert page.locator(".sb-stock .sb-count").inner_text() == str(len(state.stock))

    page.keyboard.press("ArrowRight")
    _wait_position(page, 3)
    assert page.url.endswith("#move=3")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    _wait_position(page, 1)
    page.keyboard.press("End")
    _wait_position(page, last)
    assert page.get_attribute(".sultan-board", "data-status") == "resigned"
    page.keyboard.press("Home")
    _wait_position(page, 0)
    assert page.url.endswith("#move=0")
    assert page.locator(".sb-waste .sb-spot .sc-card").count() == 0

    page.locator("#scrubber").fill(str(len(tokens)))
    _wait_position(page, len(tokens))
    final = new_game(plan.seed, "sultan")
    for token in tokens:
        final = apply(final, token)
    for n, top in enumerate(final.foundation_tops(), start=1):
        assert (
            page.locator(f'[data-foundation="{n}"] .sb-spot .sc-card').last.get_attribute(
                "data-card"
            )
            == top
        )
    page.click("#step-back")
    _wait_position(page, len(tokens) - 1)
    page.click('.move-list .mv[data-i="1"]')
    _wait_position(page, 1)
    assert page.get_attribute('.move-list .mv[data-i="1"]', "aria-current") == "step"

    # Editing the address jumps too.
    page.evaluate("location.hash = '#move=4'")
    _wait_position(page, 4)

    page.select_option("#speed", "10")
    page.keyboard.press("Home")
    page.keyboard.press("Space")
    _wait_position(page, last)
    assert page.inner_text("#play") == "Play"  # stopped by itself at the end
    shot(page, "replay-desktop")
    assert page.js_errors == []


def test_a_replay_opens_at_the_move_in_the_address(new_page):
    page, game_id = _finished_practice(new_page, 5151, DEAL_TOKENS)
    page.goto(f"/games/{game_id}/replay/#move=4")
    page.wait_for_selector(".move-list .mv")
    assert _position(page) == 4
    assert page.inner_text("#pos-token") == "undo"
    # Three draws, the third taken back: two cards in the waste.
    assert page.inner_text(".sb-waste .sb-caption span") == "2 in waste"
    page.goto(f"/games/{game_id}/replay/#move=999")
    page.reload()
    page.wait_for_selector(".move-list .mv")
    assert _position(page) == len(DEAL_TOKENS) + 1


def test_an_unfinished_game_has_no_replay_yet(new_page):
    page = new_page()
    page.goto("/practice/6161/")
    page.wait_for_selector(".sultan-board .sb-table")
    game_id = page.evaluate(
        """() => fetch('/api/practice', {
          method: 'POST',
          headers: {'X-CSRFToken': document.cookie.match(/csrftoken=([^;]+)/)[1]},
          body: JSON.stringify({deal: '6161'}),
        }).then(r => r.json()).then(d => d.game.id)"""
    )
    response = page.goto(f"/games/{game_id}/replay/")
    assert response.status == 403
    assert "still on" in page.inner_text("h1")
    page.click("text=Continue the game")
    page.wait_for_selector(".sultan-board .sb-table")


def test_a_race_games_replay_shows_the_other_racers_and_the_chart(new_page, live, shot):
    race = finished_race(live.url, live.ws_url, moves=12)
    page = new_page(1280, 900)
    # Bilal moved after Amina had resigned: his replay sees her finish on the way.
    page.goto(f"/games/{race['games']['Bilal']}/replay/#move=0")
    page.wait_for_selector("#chart svg .chart-line", state="attached")
    assert page.locator("#chart .chart-line").count() == 2
    assert page.locator("#racers .sb-mini").count() == 1
    assert "Amina" in page.inner_text("#racers")
    assert page.locator("#results tbody tr").count() == 2
    mini = page.locator("#racers .sb-mini")
    assert mini.get_attribute("data-status") == "playing"
    assert page.locator("#racers .sb-mini-meta b").first.inner_text() == "0"
    page.keyboard.press("End")
    page.wait_for_function(
        "() => document.querySelector('#racers .sb-mini').dataset.status === 'resigned'"
    )
    page.keyboard.press("Home")
    page.wait_for_function(
        "() => document.querySelector('#racers .sb-mini').dataset.status === 'playing'"
    )
    page.keyboard.press("End")
    shot(page, "replay-race")
    assert page.js_errors == []

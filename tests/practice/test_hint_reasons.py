"""A hint says why (games/practice/reasons.py), and "show me how" plays draws too,
up to the first card the player has not seen (RULES.md, hidden information)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.utils import translation

from games.engine import apply, new_game
from games.engine.solver.solve import solve
from games.engine.state import PLAYING, GameState
from games.i18n.lines import card_short
from games.models import Player
from games.practice.hints import in_sight, winning_lines
from games.practice.reasons import hint_reason
from games.store.services import game_create
from tests.pages.helpers import client_for, post_json
from tests.races.helpers import SEED, VARIANT

KINGS = (0,) * 9


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """English unless a test says otherwise (another test may leave a language active)."""
    with translation.override("en"):
        yield


def _state(
    variant: str, redeals_left: int, waste: tuple[str, ...], stock: tuple[str, ...]
) -> GameState:
    reserve = ("AC", "AS", None, None, None, None)
    return GameState(variant, 1, KINGS, reserve, waste, stock, redeals_left, PLAYING)


def test_show_me_how_plays_draws_whose_order_the_player_saw():
    # pysolfc after a redeal: the stock is the waste turned over, seen whole.
    after_redeal = _state("pysolfc", 1, ("7H",), ("AD", "5H"))
    assert in_sight(after_redeal, ("draw", "w1", "draw")) == ("draw", "w1", "draw")
    # sultan shuffles at a redeal: the new order is unseen.
    sultan = _state("sultan", 1, ("AD",), ())
    assert in_sight(sultan, ("redeal",)) == ()
    turned = _state("pysolfc", 2, ("AD", "5H"), ())
    assert in_sight(turned, ("redeal", "draw")) == ("redeal", "draw")


def test_a_hinted_draw_shows_the_draws_up_to_the_next_card_that_matters():
    # The hint is to turn these very cards up: watching it shows what taking it would.
    # The stock's first card is drawn first.
    first_pass = _state("pysolfc", 2, ("7H",), ("AD", "5H", "9S"))
    assert in_sight(first_pass, ("draw", "w1")) == ("draw", "w1")
    longer = first_pass._replace(stock=("7C", "AD", "5H", "9S"))
    line = ("draw", "draw", "w1", "a7", "draw")
    assert in_sight(longer, line) == ("draw", "draw", "w1", "a7")
    sultan = _state("sultan", 1, ("7H",), ("AD", "9S"))
    assert in_sight(sultan, ("draw",)) == ("draw",)
    # After the card that matters, an unseen draw stops the line as before.
    assert in_sight(sultan, ("draw", "w1", "draw")) == ("draw", "w1")
    # A line that starts elsewhere still stops at its first unseen draw.
    assert in_sight(sultan, ("a7", "draw")) == ()
    assert in_sight(sultan._replace(waste=("AD",)), ("w1", "draw")) == ("w1",)


def test_a_hint_says_what_its_move_puts_up_or_uncovers():
    state = _state("pysolfc", 2, ("7H", "AD"), ("5H",))
    assert hint_reason(state, ("w1",), ("w1",)) == "puts the A♦ on foundation 1"
    assert hint_reason(state, ("a7", "b4"), ("a7", "b4")) == (
        "puts the A♣ on foundation 7, and 1 more card goes up after it"
    )
    assert hint_reason(state, ("wc",), ("wc",)) == "moves the A♦ to slot c, uncovering the 7♥"
    with translation.override("ru"):
        assert hint_reason(state, ("wc",), ("wc",)) == "переносит Т♦ на место c и открывает 7♥"


def test_a_draw_says_which_card_on_the_table_it_leads_to():
    state = _state("pysolfc", 2, ("7H",), ("2C", "9D"))
    assert hint_reason(state, ("draw", "a7", "w7"), ()) == (
        "on the way to putting the A♣ up this pass"
    )
    state = _state("pysolfc", 2, ("7H",), ())
    assert hint_reason(state, ("redeal", "draw", "a7"), ()) == (
        "on the way to putting the A♣ up next pass"
    )


_SHORT = re.compile(r"(10|[2-9AJQK])([♣♦♥♠])")


@pytest.mark.parametrize("variant", ["sultan", "pysolfc"])
def test_a_reason_never_names_a_card_only_the_stock_holds(variant: str):
    for seed in range(1, 5):
        state = new_game(seed, variant)
        line = solve(state, max_nodes=100_000, max_seconds=0.5).moves
        for start in range(0, min(len(line), 60), 3):
            visible = {card_short(c) for c in (*state.reserve, *state.waste) if c}
            rest = tuple(line[start:])
            reason = hint_reason(state, rest, in_sight(state, rest))
            named = {"".join(m) for m in _SHORT.findall(reason)}
            assert named <= visible, (seed, start, reason)
            for token in line[start : start + 3]:
                state = apply(state, token)


@pytest.mark.django_db
def test_the_hint_answer_carries_its_reason(alice: Player):
    winning_lines.clear()
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    answer = post_json(client_for(alice), f"/api/games/{game.pk}/hint", {}).json()
    assert answer["status"] == "won"
    assert answer["reason"]
    winning_lines.clear()

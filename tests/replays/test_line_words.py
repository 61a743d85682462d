"""A line of moves in words (games/i18n/lines.py): grouped as a player thinks of it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from games.engine import GameState, apply, legal_moves, new_game, parse_move
from games.i18n.lines import card_short, line_phrases


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """English unless a test says otherwise (another test may leave a language active)."""
    with translation.override("en"):
        yield


def _draws_then_a_play(state: GameState) -> tuple[list[str], GameState]:
    """Draws until the waste's top card can go up, then that play."""
    line: list[str] = []
    while True:
        ups = [m for m in legal_moves(state) if m.startswith("w") and m[1:].isdigit()]
        if ups:
            return [*line, ups[0]], state
        line.append("draw")
        state = apply(state, "draw")


def _line_with_draws(seed: int) -> tuple[GameState, list[str], GameState]:
    start = new_game(seed, "sultan")
    for _ in range(100):
        line, before = _draws_then_a_play(start)
        if len(line) >= 3:
            return start, line, before
        start = apply(start, "draw")
    raise AssertionError("no deal found")


def test_draws_are_one_step_and_a_card_goes_up_by_name():
    start, line, before = _line_with_draws(4)
    draws = len(line) - 1
    card = before.waste[-1]
    foundation = parse_move(line[-1]).foundation + 1
    phrases = line_phrases(start, line)
    assert [p.as_dict() for p in phrases] == [
        {"first": 1, "moves": draws, "text": f"draw {draws} cards"},
        {
            "first": draws + 1,
            "moves": 1,
            "text": f"{card_short(card)} from the waste to foundation {foundation}",
        },
    ]


def test_the_line_reads_in_russian():
    start, line, before = _line_with_draws(4)
    with translation.override("ru"):
        texts = [p.text for p in line_phrases(start, line)]
        short = card_short(before.waste[-1])
    assert texts[0].startswith("взять"), texts
    assert "из сброса" in texts[1]
    assert short[-1] in "♣♦♥♠"


def test_court_cards_are_short_in_each_language():
    assert card_short("QS") == "Q♠"
    assert card_short("TH") == "10♥"
    with translation.override("ru"):
        assert card_short("QS") == "Д♠"
        assert card_short("AC") == "Т♣"

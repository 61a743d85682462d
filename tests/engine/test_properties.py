"""Properties of the engine along random walks over its legal moves."""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    VARIANTS,
    IllegalMove,
    InvalidMove,
    apply,
    apply_with_events,
    legal_moves,
    new_game,
    parse_move,
    replay,
)
from tests.engine.naive import (
    NaiveGame,
    all_notation_tokens,
    cards_in_state,
    full_deck,
    greedy_move,
    is_notation,
    naive_from_dict,
    naive_legal_moves,
)

FULL_DECK = Counter(full_deck())
NOTATION = all_notation_tokens()
# draws <= 3 passes of 95, wx <= draws + 1, 95 foundation moves, 2 redeals
MAX_MOVES = 3 * 95 + (3 * 95 + 1) + 95 + 2

seeds = st.one_of(st.integers(0, 2**63 - 1), st.sampled_from([0, 1, 42, 2**63 - 1]))
variants = st.sampled_from(VARIANTS)
walk_seeds = st.integers(0, 2**32)
WALKS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def walk(seed: int, variant: str, walk_seed: int, steps: int = MAX_MOVES + 1) -> Iterator[Any]:
    """Yield (state before, token, state after) along a random walk; stops when
    no move is legal or after ``steps`` moves."""
    rng = random.Random(walk_seed)
    state = new_game(seed=seed, variant=variant)
    for _ in range(steps):
        moves = legal_moves(state)
        if not moves:
            return
        # Favour foundation moves a little, so walks get further into the game.
        plays = [move for move in moves if move not in ("draw", "redeal")]
        token = rng.choice(plays if plays and rng.random() < 0.6 else moves)
        after = apply(state, token)
        yield state, token, after
        state = after


def played(state_dict: dict[str, Any]) -> int:
    return len(cards_in_state({**state_dict, "reserve": [], "waste": [], "stock": []})) - 9


@WALKS
@given(seed=seeds, variant=variants, walk_seed=walk_seeds)
def test_every_card_stays_accounted_for_once_on_valid_foundations(
    seed: int, variant: str, walk_seed: int
) -> None:
    start = new_game(seed=seed, variant=variant).as_dict()
    assert Counter(cards_in_state(start)) == FULL_DECK
    before_played = 0
    for _, token, after in walk(seed, variant, walk_seed):
        state = after.as_dict()
        # cards_in_state raises when a top card cannot be on its foundation
        assert Counter(cards_in_state(state)) == FULL_DECK, token
        assert state["foundations"][4] == "KH", "the Sultan never takes a card"
        now_played = played(state)
        expected_gain = 1 if token[1].isdigit() else 0
        assert now_played == before_played + expected_gain, token
        before_played = now_played


@WALKS
@given(seed=seeds, variant=variants, walk_seed=walk_seeds)
def test_a_game_ends_won_or_lost_within_a_bounded_number_of_moves(
    seed: int, variant: str, walk_seed: int
) -> None:
    state = new_game(seed=seed, variant=variant)
    moves = 0
    for _, _, after in walk(seed, variant, walk_seed):
        moves += 1
        state = after
        status = state.as_dict()["status"]
        assert (status == "playing") == bool(legal_moves(state)), (moves, status)
    final = state.as_dict()
    assert moves <= MAX_MOVES
    assert final["status"] in ("won", "lost")
    assert legal_moves(state) == []
    assert (final["status"] == "won") == (played(final) == 95)


def greedy_tokens(seed: int, variant: str) -> list[str]:
    game = NaiveGame(seed, variant)
    tokens = []
    while (move := greedy_move(game)) is not None:
        game.play(move)
        tokens.append(move)
    return tokens


def test_a_won_game_has_eight_queens_around_the_sultan_and_nothing_else() -> None:
    state = replay(1, "pysolfc-8", greedy_tokens(1, "pysolfc-8"))  # the greedy player wins it
    final = state.as_dict()
    assert final["status"] == "won"
    assert final["foundations"] == ["QD", "QH", "QD", "QS", "KH", "QS", "QC", "QH", "QC"]
    assert final["reserve"] == [None] * 8
    assert final["waste"] == final["stock"] == []
    assert legal_moves(state) == []


@WALKS
@given(seed=seeds, variant=variants, walk_seed=walk_seeds, stop=st.integers(0, 400))
def test_replay_reaches_the_same_state_as_stepping_apply(
    seed: int, variant: str, walk_seed: int, stop: int
) -> None:
    tokens = []
    state = new_game(seed=seed, variant=variant)
    for _, token, after in walk(seed, variant, walk_seed, steps=stop):
        tokens.append(token)
        state = after
    assert replay(seed, variant, tokens).as_dict() == state.as_dict()


@WALKS
@given(seed=seeds, variant=variants, walk_seed=walk_seeds)
def test_apply_leaves_the_old_state_unchanged(seed: int, variant: str, walk_seed: int) -> None:
    for before, token, after in walk(seed, variant, walk_seed, steps=150):
        snapshot = copy.deepcopy(before.as_dict())
        moves = sorted(legal_moves(before))
        again = apply(before, token)
        assert before.as_dict() == snapshot, token
        assert sorted(legal_moves(before)) == moves
        assert again.as_dict() == after.as_dict()
        events_state, _ = apply_with_events(before, token)
        assert before.as_dict() == snapshot
        assert events_state.as_dict() == after.as_dict()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=seeds,
    variant=variants,
    walk_seed=walk_seeds,
    undo_chance=st.sampled_from([0.0, 0.1, 0.3]),
)
def test_the_engine_agrees_with_the_naive_reference_at_every_step_including_undo(
    seed: int, variant: str, walk_seed: int, undo_chance: float
) -> None:
    rng = random.Random(walk_seed)
    naive = NaiveGame(seed, variant)
    history = [new_game(seed=seed, variant=variant)]
    tokens: list[str] = []
    assert history[-1].as_dict() == naive.as_dict()
    for step in range(3 * MAX_MOVES):
        moves = sorted(legal_moves(history[-1]))
        assert moves == sorted(naive.legal_moves()), f"legal moves after {tokens}"
        if len(history) > 1 and rng.random() < undo_chance:
            token = "undo"
            history.pop()
        elif moves:
            token = rng.choice(moves)
            history.append(apply(history[-1], token))
        else:
            break
        naive.play(token)
        tokens.append(token)
        assert history[-1].as_dict() == naive.as_dict(), f"step {step}: {tokens[-5:]}"
    assert replay(seed, variant, tokens).as_dict() == naive.as_dict()
    if "undo" in tokens:
        cut = tokens.index("undo") + 1
        expected = NaiveGame(seed, variant)
        for token in tokens[:cut]:
            expected.play(token)
        assert replay(seed, variant, tokens[:cut]).as_dict() == expected.as_dict()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, variant=variants, walk_seed=walk_seeds)
def test_exactly_the_legal_moves_apply_and_an_illegal_one_changes_nothing(
    seed: int, variant: str, walk_seed: int
) -> None:
    rng = random.Random(walk_seed)
    states = [before for before, _, _ in walk(seed, variant, walk_seed)]
    last = states[-1] if states else new_game(seed=seed, variant=variant)
    final = apply(last, legal_moves(last)[0]) if legal_moves(last) else last
    checked = [new_game(seed=seed, variant=variant), final]
    checked += rng.sample(states, min(4, len(states)))
    for state in checked:
        snapshot = copy.deepcopy(state.as_dict())
        legal = set(legal_moves(state))
        assert legal <= set(NOTATION)
        assert sorted(legal) == sorted(naive_legal_moves(snapshot))
        assert naive_from_dict(snapshot).as_dict() == snapshot
        for token in NOTATION:
            if token in legal:
                apply(state, token)
                continue
            with pytest.raises(IllegalMove) as caught:
                apply(state, token)
            assert not isinstance(caught.value, InvalidMove)
            with pytest.raises(IllegalMove):
                apply_with_events(state, token)
            assert state.as_dict() == snapshot, token
        assert state.as_dict() == snapshot


@pytest.mark.parametrize("token", NOTATION)
def test_parse_move_round_trips_every_valid_token(token: str) -> None:
    assert str(parse_move(token)) == token


def test_the_notation_has_ninety_one_tokens() -> None:
    # draw, redeal, w1-w9, a1-h9 and wa-wh
    assert len(set(NOTATION)) == 2 + 9 + 8 * 9 + 8


near_tokens = st.builds(
    lambda token, prefix, suffix, upper: prefix + (token.upper() if upper else token) + suffix,
    st.sampled_from([*NOTATION, "undo", "w", "d", "a10", "w0"]),
    st.sampled_from(["", "", " ", "w", "a", "0", "\n", "\t"]),
    st.sampled_from(["", "", " ", "1", "0", "a", "\n", "\x00", "\u0661"]),
    st.booleans(),
)


@settings(max_examples=200, deadline=None)
@given(
    text=st.one_of(
        near_tokens,
        st.text(alphabet="abcdefghiwxdrlnu0123456789 ", max_size=7),
        st.text(max_size=8),
    )
)
def test_a_string_is_notation_or_parse_move_raises_invalid_move(text: str) -> None:
    if re.fullmatch(r"draw|redeal|w[1-9]|[a-h][1-9]|w[a-h]", text):
        assert str(parse_move(text)) == text
    else:
        with pytest.raises(InvalidMove):
            parse_move(text)
    assert is_notation(text) == (text in NOTATION)

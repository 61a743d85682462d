"""Who may see what: the player's view, the race view and the move events."""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import VARIANTS, apply, apply_with_events, legal_moves, new_game, player_view
from games.engine import race_view as engine_race_view
from tests.engine.naive import SLOT_LETTERS, foundation_cards, full_deck

CARD_RE = re.compile(r"[A2-9TJQK][CDHS]")
PLAYER_KEYS = {
    "variant",
    "foundations",
    "reserve",
    "waste",
    "stock_count",
    "redeals_left",
    "status",
    "cards_played",
}
RACE_KEYS = {"foundations", "cards_played", "passes_used", "status"}
VIEWS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.one_of(st.integers(0, 2**63 - 1), st.sampled_from([0, 42, 2**63 - 1]))


def random_states(seed: int, variant: str, walk_seed: int) -> list[Any]:
    """Every state along one random walk to the end of the game."""
    rng = random.Random(walk_seed)
    states = [new_game(seed=seed, variant=variant)]
    while moves := legal_moves(states[-1]):
        plays = [move for move in moves if move not in ("draw", "redeal")]
        states.append(apply(states[-1], rng.choice(plays if plays else moves)))
    return states


def foundation_counts(state: dict[str, Any]) -> list[int]:
    return [len(foundation_cards(i, top)) for i, top in enumerate(state["foundations"])]


def expected_player_view(state: dict[str, Any]) -> dict[str, Any]:
    return {
        "variant": state["variant"],
        "foundations": state["foundations"],
        "reserve": state["reserve"],
        "waste": state["waste"],
        "stock_count": len(state["stock"]),
        "redeals_left": state["redeals_left"],
        "status": state["status"],
        "cards_played": sum(foundation_counts(state)) - 9,
    }


@VIEWS
@given(seed=seeds, variant=st.sampled_from(VARIANTS), walk_seed=st.integers(0, 2**32))
def test_the_player_view_shows_the_table_but_never_the_stock_or_the_seed(
    seed: int, variant: str, walk_seed: int
) -> None:
    for state in random_states(seed, variant, walk_seed):
        full = state.as_dict()
        view = player_view(state)
        assert set(view) == PLAYER_KEYS
        assert view == expected_player_view(full)
        # What the view shows plus the hidden stock is every card off the foundations.
        shown = Counter(card for card in view["reserve"] + view["waste"] if card is not None)
        on_foundations = Counter(
            card for i, top in enumerate(view["foundations"]) for card in foundation_cards(i, top)
        )
        assert shown + Counter(full["stock"]) == Counter(full_deck()) - on_foundations
        # No card anywhere in the serialised view beyond the visible ones.
        text = json.dumps(view)
        visible = Counter(view["foundations"]) + shown
        assert Counter(CARD_RE.findall(text)) == visible


@VIEWS
@given(seed=seeds, variant=st.sampled_from(VARIANTS), walk_seed=st.integers(0, 2**32))
def test_the_race_view_holds_counts_only_and_no_card_strings(
    seed: int, variant: str, walk_seed: int
) -> None:
    for state in random_states(seed, variant, walk_seed):
        full = state.as_dict()
        view = engine_race_view(state)
        assert set(view) == RACE_KEYS
        assert view["foundations"] == foundation_counts(full)
        assert all(type(count) is int for count in view["foundations"])
        assert view["cards_played"] == sum(view["foundations"]) - 9
        assert 0 <= view["cards_played"] <= 95
        assert view["passes_used"] == 3 - full["redeals_left"]
        assert view["passes_used"] in (1, 2, 3)
        assert view["status"] == full["status"]
        assert not CARD_RE.search(json.dumps(view)), view


def follow_events(view: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """Apply move events to a player view, as a browser would."""
    view = copy.deepcopy(view)
    for event in events:
        kind = event["type"]
        if kind == "move":
            assert set(event) == {"type", "card", "from", "to"}
            card, source, target = event["card"], event["from"], event["to"]
            if source == "stock":
                view["stock_count"] -= 1
            elif source == "waste":
                assert view["waste"].pop() == card
            else:
                assert source.startswith("reserve:"), source
                slot = SLOT_LETTERS.index(source.removeprefix("reserve:"))
                assert view["reserve"][slot] == card
                view["reserve"][slot] = None
            if target == "waste":
                view["waste"].append(card)
            elif target.startswith("foundation:"):
                view["foundations"][int(target.removeprefix("foundation:")) - 1] = card
                view["cards_played"] += 1
            else:
                assert target.startswith("reserve:"), target
                slot = SLOT_LETTERS.index(target.removeprefix("reserve:"))
                assert view["reserve"][slot] is None
                view["reserve"][slot] = card
        elif kind == "refill":
            assert set(event) == {"type", "card", "slot"}
            slot = SLOT_LETTERS.index(event["slot"])
            assert view["reserve"][slot] is None
            view["reserve"][slot] = event["card"]
            view["stock_count"] -= 1
        elif kind == "redeal":
            assert set(event) == {"type", "cards"}, "a redeal must not reveal the order"
            assert view["stock_count"] == 0
            assert event["cards"] == len(view["waste"])
            view["stock_count"] = event["cards"]
            view["waste"] = []
            view["redeals_left"] -= 1
        else:
            assert kind == "status", event
            assert set(event) == {"type", "status"}
            view["status"] = event["status"]
    return view


@VIEWS
@given(seed=seeds, variant=st.sampled_from(VARIANTS), walk_seed=st.integers(0, 2**32))
def test_move_events_turn_the_old_player_view_into_the_new_one(
    seed: int, variant: str, walk_seed: int
) -> None:
    rng = random.Random(walk_seed)
    state = new_game(seed=seed, variant=variant)
    kinds: set[str] = set()
    while moves := legal_moves(state):
        plays = [move for move in moves if move not in ("draw", "redeal")]
        token = rng.choice(plays if plays and rng.random() < 0.7 else moves)
        after, events = apply_with_events(state, token)
        assert after.as_dict() == apply(state, token).as_dict()
        json.dumps(events)  # plain JSON types
        assert follow_events(player_view(state), events) == player_view(after), token
        kinds |= {event["type"] for event in events}
        ended = after.as_dict()["status"] != "playing"
        status_events = [event for event in events if event["type"] == "status"]
        assert len(status_events) == ended, (token, events)
        if ended:
            assert events[-1] == {"type": "status", "status": after.as_dict()["status"]}
        state = after
    assert {"move", "redeal", "status"} <= kinds
    assert ("refill" in kinds) == variant.startswith("sultan"), kinds


def test_a_sultan_reserve_move_reports_the_refill_from_the_stock() -> None:
    state = new_game(seed=12345, variant="sultan")
    for _ in range(200):
        reserve_plays = [m for m in legal_moves(state) if m[0] in SLOT_LETTERS and m[1].isdigit()]
        if reserve_plays:
            break
        state = apply(state, "draw")
    token = reserve_plays[0]
    before = state.as_dict()
    after, events = apply_with_events(state, token)
    slot = token[0]
    card = before["reserve"][SLOT_LETTERS.index(slot)]
    assert events[0] == {
        "type": "move",
        "card": card,
        "from": f"reserve:{slot}",
        "to": f"foundation:{token[1]}",
    }
    assert events[1] == {"type": "refill", "card": before["stock"][0], "slot": slot}
    assert after.as_dict()["reserve"][SLOT_LETTERS.index(slot)] == before["stock"][0]

"""Late-game positions cut from real deals, small enough to search exhaustively.

A position keeps its deal's seed (so `sultan` redeals shuffle as they would in
that game) and its deal's card order: the cards still out are taken in the
order the deal laid them, the first few into the reserve, then some onto the
waste and the rest into the stock.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import PLAYING, GameState, legal_moves, new_game
from games.engine.cards import FOUNDATION_SEQUENCES, SULTAN
from games.engine.variants import VARIANT_RULES


def late_position(
    seed: int, variant: str, cards_out: int, rng: random.Random, full_reserve: bool = False
) -> GameState:
    """A position of deal `seed` with `cards_out` cards not yet on the foundations.

    `full_reserve` fills every slot (when there are cards enough): `pysolfc`
    positions with an empty slot are nearly always won, so lost ones need it.
    """
    rules = VARIANT_RULES[variant]
    start = new_game(seed, variant)
    # Share the cards still out among the eight foundations at random.
    left = [0] * 9
    builders = [f for f in range(9) if f != SULTAN]
    for _ in range(cards_out):
        f = rng.choice([f for f in builders if left[f] < len(FOUNDATION_SEQUENCES[f])])
        left[f] += 1
    played = tuple(len(FOUNDATION_SEQUENCES[f]) - left[f] for f in range(9))
    wanted: list[str] = []
    for f in builders:
        wanted.extend(FOUNDATION_SEQUENCES[f][played[f] :])
    # Keep the deal's order: each card still out takes its first free place in it.
    order = [c for c in (*start.reserve, *start.waste, *start.stock) if c is not None]
    out: list[str] = []
    for card in order:
        if card in wanted:
            wanted.remove(card)
            out.append(card)
    assert not wanted, wanted
    n_reserve = min(rules.slots if full_reserve else rng.randint(1, rules.slots), len(out))
    reserve_cards, rest = out[:n_reserve], out[n_reserve:]
    n_waste = rng.randint(0, len(rest))
    waste, stock = tuple(rest[:n_waste]), tuple(rest[n_waste:])
    if rules.auto_refill and stock:
        # With cards in the stock, every slot of `sultan` is full: take the
        # stock's first cards into the empty ones, as refills would have.
        while len(reserve_cards) < rules.slots and stock:
            reserve_cards.append(stock[0])
            stock = stock[1:]
    reserve: list[str | None] = [*reserve_cards, *[None] * (rules.slots - len(reserve_cards))]
    rng.shuffle(reserve)
    return GameState(
        variant, seed, played, tuple(reserve), waste, stock, rng.randint(0, 2), PLAYING
    )


def playable(state: GameState) -> bool:
    return bool(legal_moves(state))


def to_json(state: GameState) -> dict[str, Any]:
    return {
        "variant": state.variant,
        "seed": state.seed,
        "played": list(state.played),
        "reserve": list(state.reserve),
        "waste": list(state.waste),
        "stock": list(state.stock),
        "redeals_left": state.redeals_left,
    }


def from_json(data: dict[str, Any]) -> GameState:
    return GameState(
        data["variant"],
        data["seed"],
        tuple(data["played"]),
        tuple(data["reserve"]),
        tuple(data["waste"]),
        tuple(data["stock"]),
        data["redeals_left"],
        PLAYING,
    )

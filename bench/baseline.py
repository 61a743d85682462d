"""A straightforward list-based Sultan engine: the benchmark's baseline.

What a first implementation would look like: the state is lists of card
names, each move copies them (states stay immutable), foundations are lists
of cards, and the status is decided by listing the legal moves after every
move. No caching, no precomputed tables. It follows RULES.md and agrees with
the engine move for move (bench/engine.py checks the final states).
"""

from __future__ import annotations

import random
from typing import Any

RANKS = "A23456789TJQK"
LAYOUT = ["KD", "AH", "KD", "KS", "KH", "KS", "KC", "KH", "KC"]
SLOTS = "abcdefgh"
SETUP = {"sultan": (6, False), "sultan-8": (8, False), "pysolfc": (6, True), "pysolfc-8": (8, True)}


def new_game(seed: int, variant: str) -> dict[str, Any]:
    slots, pysol = SETUP[variant]
    cards = [r + s for _ in (1, 2) for s in "CDHS" for r in RANKS]
    for base in LAYOUT:
        cards.remove(base)
    random.Random(seed).shuffle(cards)
    reserve: list[str | None] = list(cards[:slots])
    rest = cards[slots:]
    waste = [rest.pop(0)] if pysol else []
    return {
        "variant": variant,
        "seed": seed,
        "foundations": [[c] for c in LAYOUT],
        "reserve": reserve,
        "waste": waste,
        "stock": rest,
        "redeals_left": 2,
        "status": "playing",
    }


def _accepts(foundation: list[str], index: int, card: str) -> bool:
    if index == 4 or card[1] != foundation[0][1] or foundation[-1][0] == "Q":
        return False
    top = foundation[-1][0]
    wanted = "A" if top == "K" else RANKS[RANKS.index(top) + 1]
    return card[0] == wanted


def legal_moves(state: dict[str, Any]) -> list[str]:
    moves = []
    pysol = SETUP[state["variant"]][1]
    if state["stock"]:
        moves.append("draw")
    elif state["waste"] and state["redeals_left"] > 0:
        moves.append("redeal")
    for i, foundation in enumerate(state["foundations"]):
        if state["waste"] and _accepts(foundation, i, state["waste"][-1]):
            moves.append(f"w{i + 1}")
        for s, card in enumerate(state["reserve"]):
            if card is not None and _accepts(foundation, i, card):
                moves.append(f"{SLOTS[s]}{i + 1}")
    if pysol and state["waste"]:
        moves += [f"w{SLOTS[s]}" for s, card in enumerate(state["reserve"]) if card is None]
    return moves


def apply(state: dict[str, Any], token: str) -> dict[str, Any]:
    if token not in legal_moves(state):
        raise ValueError(f"illegal move {token}")
    new = {
        **state,
        "foundations": [list(f) for f in state["foundations"]],
        "reserve": list(state["reserve"]),
        "waste": list(state["waste"]),
        "stock": list(state["stock"]),
    }
    pysol = SETUP[state["variant"]][1]
    if token == "draw":
        new["waste"].append(new["stock"].pop(0))
    elif token == "redeal":
        k = 3 - new["redeals_left"]
        cards = new["waste"]
        if not pysol:
            random.Random(f"{new['seed']}/redeal/{k}").shuffle(cards)
        new["stock"], new["waste"] = cards, []
        new["redeals_left"] -= 1
    elif token[1] in SLOTS:
        new["reserve"][SLOTS.index(token[1])] = new["waste"].pop()
    elif token[0] == "w":
        new["foundations"][int(token[1]) - 1].append(new["waste"].pop())
    else:
        slot = SLOTS.index(token[0])
        new["foundations"][int(token[1]) - 1].append(new["reserve"][slot])
        new["reserve"][slot] = new["stock"].pop(0) if not pysol and new["stock"] else None
    if sum(len(f) - 1 for f in new["foundations"]) == 95:
        new["status"] = "won"
    elif not legal_moves(new):
        new["status"] = "lost"
    return new


def replay(seed: int, variant: str, tokens: list[str]) -> dict[str, Any]:
    state = new_game(seed, variant)
    history: list[dict[str, Any]] = []
    for token in tokens:
        if token == "undo":
            state = history.pop()
        else:
            history.append(state)
            state = apply(state, token)
    return state

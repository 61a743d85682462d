"""A naive reference implementation of Sultan, written only from RULES.md.

Plain mutable lists, no cleverness: it is the independent oracle that the
golden data and the property tests compare the real engine against, and the
baseline the benchmark measures the fast engine against.

Representation (all mutable):
- ``foundations``: nine lists of cards, the layout card first, top card last.
- ``reserve``: one entry per slot, a card or ``None``.
- ``waste``: bottom (first placed) to top.
- ``stock``: index 0 is the next card drawn.

``undo`` is handled with a stack of full snapshots of the state.
"""

from __future__ import annotations

import copy
import random
import re
from typing import Any

RANKS = "A23456789TJQK"
SUITS = "CDHS"
LAYOUT = ["KD", "AH", "KD", "KS", "KH", "KS", "KC", "KH", "KC"]
SULTAN_FOUNDATION = 4  # foundation 5, zero-based
SLOT_LETTERS = "abcdefgh"
CARDS_TO_PLAY = 95

# variant name -> (number of reserve slots, is it a pysolfc variant?)
VARIANT_RULES: dict[str, tuple[int, bool]] = {
    "sultan": (6, False),
    "sultan-8": (8, False),
    "pysolfc": (6, True),
    "pysolfc-8": (8, True),
}

TOKEN_RE = re.compile(r"draw|redeal|w[1-9]|[a-h][1-9]|w[a-h]")


def all_notation_tokens() -> list[str]:
    """Every string that is move notation (91 of them), legal or not."""
    tokens = ["draw", "redeal"]
    tokens += [f"w{n}" for n in range(1, 10)]
    tokens += [f"{x}{n}" for x in SLOT_LETTERS for n in range(1, 10)]
    tokens += [f"w{x}" for x in SLOT_LETTERS]
    return tokens


def is_notation(token: str) -> bool:
    return TOKEN_RE.fullmatch(token) is not None


def full_deck() -> list[str]:
    """RULES.md step 1: deck 1 then deck 2, suits C D H S, ranks A..K."""
    cards = []
    for _deck in (1, 2):
        for suit in SUITS:
            for rank in RANKS:
                cards.append(rank + suit)
    return cards


def check_seed_and_variant(seed: object, variant: object) -> None:
    if variant not in VARIANT_RULES:
        raise ValueError(f"unknown variant: {variant!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int, got {seed!r}")
    if not 0 <= seed < 2**63:
        raise ValueError(f"seed out of range: {seed}")


def deal(seed: int, variant: str) -> tuple[list[str | None], list[str], list[str]]:
    """RULES.md steps 1-4. Returns (reserve, waste, stock)."""
    check_seed_and_variant(seed, variant)
    cards = full_deck()
    for layout_card in LAYOUT:
        cards.remove(layout_card)  # list.remove drops the first occurrence
    random.Random(seed).shuffle(cards)
    slots, is_pysolfc = VARIANT_RULES[variant]
    reserve: list[str | None] = []
    for _ in range(slots):
        reserve.append(cards.pop(0))
    waste: list[str] = []
    if is_pysolfc:
        waste.append(cards.pop(0))
    return reserve, waste, cards


def accepts(pile: list[str], index: int, card: str) -> bool:
    """Does foundation ``index`` (zero-based), currently ``pile``, take ``card``?"""
    if index == SULTAN_FOUNDATION:
        return False
    top = pile[-1]
    if top[0] == "Q":
        return False  # complete
    base_suit = pile[0][1]
    if card[1] != base_suit:
        return False
    wanted_rank = RANKS[(RANKS.index(top[0]) + 1) % 13]  # after K comes A
    return card[0] == wanted_rank


def foundation_cards(index: int, top: str) -> list[str]:
    """The cards a foundation holds, base first, given only its top card."""
    base = LAYOUT[index]
    cards = [base]
    while cards[-1] != top:
        if index == SULTAN_FOUNDATION or cards[-1][0] == "Q":
            raise ValueError(f"{top} cannot be on foundation {index + 1}")
        cards.append(RANKS[(RANKS.index(cards[-1][0]) + 1) % 13] + base[1])
    return cards


class NaiveGame:
    def __init__(self, seed: int, variant: str = "sultan") -> None:
        reserve, waste, stock = deal(seed, variant)
        self.seed = seed
        self.variant = variant
        self.is_pysolfc = VARIANT_RULES[variant][1]
        self.foundations: list[list[str]] = [[card] for card in LAYOUT]
        self.reserve = reserve
        self.waste = waste
        self.stock = stock
        self.redeals_left = 2
        self.status = "playing"
        self.history: list[dict[str, Any]] = []  # snapshots for undo
        self.update_status()

    # ----- reading the state -------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seed": self.seed,
            "foundations": [pile[-1] for pile in self.foundations],
            "reserve": list(self.reserve),
            "waste": list(self.waste),
            "stock": list(self.stock),
            "redeals_left": self.redeals_left,
            "status": self.status,
        }

    def cards_on_foundations(self) -> int:
        return sum(len(pile) - 1 for pile in self.foundations)

    def legal_moves(self) -> list[str]:
        return [token for token in all_notation_tokens() if self.why_illegal(token) is None]

    def why_illegal(self, token: str) -> str | None:
        """None when ``token`` (valid notation) is legal now, else the reason."""
        if token == "draw":
            return None if self.stock else "the stock is empty"
        if token == "redeal":
            if self.stock:
                return "the stock is not empty"
            if not self.waste:
                return "the waste is empty"
            if self.redeals_left == 0:
                return "no redeals left"
            return None
        source, target = token[0], token[1]
        if source == "w" and target in SLOT_LETTERS:
            if not self.is_pysolfc:
                return "only pysolfc variants move the waste to the reserve"
            slot = SLOT_LETTERS.index(target)
            if slot >= len(self.reserve):
                return f"no slot {target} in this variant"
            if self.reserve[slot] is not None:
                return f"slot {target} is not empty"
            if not self.waste:
                return "the waste is empty"
            return None
        index = int(target) - 1
        if source == "w":
            if not self.waste:
                return "the waste is empty"
            card = self.waste[-1]
        else:
            slot = SLOT_LETTERS.index(source)
            if slot >= len(self.reserve):
                return f"no slot {source} in this variant"
            slot_card = self.reserve[slot]
            if slot_card is None:
                return f"slot {source} is empty"
            card = slot_card
        if not accepts(self.foundations[index], index, card):
            return f"foundation {target} does not take {card}"
        return None

    # ----- changing the state ------------------------------------------

    def play(self, token: str) -> None:
        """Play one log token (a move or ``undo``); ValueError if not allowed."""
        if token == "undo":
            if not self.history:
                raise ValueError("nothing to undo")
            self.__dict__.update(self.history.pop())
            return
        if not is_notation(token):
            raise ValueError(f"not move notation: {token!r}")
        reason = self.why_illegal(token)
        if reason is not None:
            raise ValueError(f"illegal move {token}: {reason}")
        snapshot = {
            key: copy.deepcopy(value) for key, value in self.__dict__.items() if key != "history"
        }
        self.history.append(snapshot)
        self.do_move(token)
        self.update_status()

    def do_move(self, token: str) -> None:
        if token == "draw":
            self.waste.append(self.stock.pop(0))
            return
        if token == "redeal":
            self.redeal()
            return
        source, target = token[0], token[1]
        if source == "w" and target in SLOT_LETTERS:
            self.reserve[SLOT_LETTERS.index(target)] = self.waste.pop()
            return
        index = int(target) - 1
        if source == "w":
            self.foundations[index].append(self.waste.pop())
            return
        slot = SLOT_LETTERS.index(source)
        card = self.reserve[slot]
        assert card is not None
        self.foundations[index].append(card)
        self.reserve[slot] = None
        if not self.is_pysolfc and self.stock:
            # sultan refill: at once, from the top of the stock. With an empty
            # stock the slot stays empty for good: nothing ever refills it later.
            self.reserve[slot] = self.stock.pop(0)

    def redeal(self) -> None:
        k = 3 - self.redeals_left  # 1 for the first redeal, 2 for the second
        cards = list(self.waste)  # bottom (first placed) to top
        if not self.is_pysolfc:
            random.Random(f"{self.seed}/redeal/{k}").shuffle(cards)
        # pysolfc: turned over, so the first card placed is drawn first
        self.stock = cards
        self.waste = []
        self.redeals_left -= 1

    def update_status(self) -> None:
        if self.cards_on_foundations() == CARDS_TO_PLAY:
            self.status = "won"
        elif not self.legal_moves():
            self.status = "lost"
        else:
            self.status = "playing"


def naive_new_game(seed: int, variant: str = "sultan") -> dict[str, Any]:
    return NaiveGame(seed, variant).as_dict()


def naive_replay(seed: int, variant: str, tokens: list[str]) -> dict[str, Any]:
    """The state a log reaches; ValueError on a bad or illegal token."""
    game = NaiveGame(seed, variant)
    for token in tokens:
        game.play(token)
    return game.as_dict()


def naive_from_dict(state: dict[str, Any]) -> NaiveGame:
    """A naive game in the position an ``as_dict()`` describes (no undo history)."""
    game = NaiveGame(state["seed"], state["variant"])
    game.foundations = [foundation_cards(i, top) for i, top in enumerate(state["foundations"])]
    game.reserve = list(state["reserve"])
    game.waste = list(state["waste"])
    game.stock = list(state["stock"])
    game.redeals_left = state["redeals_left"]
    game.update_status()
    return game


def naive_legal_moves(state: dict[str, Any]) -> list[str]:
    """The legal moves in the position an ``as_dict()`` describes."""
    return naive_from_dict(state).legal_moves()


def greedy_move(game: NaiveGame) -> str | None:
    """A simple deterministic player, used to record the golden games.

    Reserve to foundation first, then waste to foundation, then (pysolfc) the
    waste top into the first empty slot, else draw, else redeal.
    """
    legal = game.legal_moves()
    if not legal:
        return None
    for x in SLOT_LETTERS[: len(game.reserve)]:
        for n in range(1, 10):
            if f"{x}{n}" in legal:
                return f"{x}{n}"
    for n in range(1, 10):
        if f"w{n}" in legal:
            return f"w{n}"
    for x in SLOT_LETTERS[: len(game.reserve)]:
        if f"w{x}" in legal:
            return f"w{x}"
    if "draw" in legal:
        return "draw"
    return "redeal"


def cards_in_state(state: dict[str, Any]) -> list[str]:
    """Every card an ``as_dict()`` state implies: foundation piles (base card up
    to the top card), reserve, waste and stock. Always 104 cards, each twice."""
    cards: list[str] = []
    for index, top in enumerate(state["foundations"]):
        cards += foundation_cards(index, top)
    cards += [card for card in state["reserve"] if card is not None]
    cards += state["waste"]
    cards += state["stock"]
    return cards

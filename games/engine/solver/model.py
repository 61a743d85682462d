"""The solver's compact picture of a position: cards as ints, foundations as one int.

Nothing here plays the game; it only encodes, so that the search can key its
transposition table on small ints and tuples instead of engine states.

Cards. A card is `13 * suit + rank - 1` with suits C D H S and ranks A=1 … K=13.
Kings never leave the layout, so a card in play has rank 1–12.

Foundations. For the search only the *top rank* of a foundation matters: the
next card it takes is one rank higher, of its suit, whatever base it stands on.
Foundation 2 (AH, taking 2H…QH) starts at top rank 1 and foundation 8 (KH,
taking AH…QH) at 0; after that the two behave alike, and so do the two kings of
each other suit. So each suit is a pair of top ranks, kept sorted (`lo <= hi`):
positions that differ only by which foundation of a suit is which are one
position. Suit `s` keeps `lo` in bits `8s..8s+3` and `hi` in bits `8s+4..8s+7`.
"""

import random
from functools import lru_cache
from typing import Final

from games.engine.cards import LAYOUT, RANKS, SUITS
from games.engine.state import GameState
from games.engine.variants import REDEALS, VARIANT_RULES

Card = int

CARD_NAMES: Final = tuple(rank + suit for suit in SUITS for rank in RANKS)
CARD_IDS: Final = {name: i for i, name in enumerate(CARD_NAMES)}
SUIT_OF: Final = tuple(c // 13 for c in range(52))
RANK_OF: Final = tuple(c % 13 + 1 for c in range(52))
# A card is playable when a foundation of its suit has top rank `rank - 1`.
NEED_OF: Final = tuple(RANK_OF[c] - 1 for c in range(52))
LO_SHIFT: Final = tuple(8 * SUIT_OF[c] for c in range(52))
HI_SHIFT: Final = tuple(8 * SUIT_OF[c] + 4 for c in range(52))

# Engine foundation index -> suit, for every foundation but the Sultan (4).
_FOUNDATION_SUIT: Final = {i: SUITS.index(base[1]) for i, base in enumerate(LAYOUT) if i != 4}
WON_FOUNDATIONS: Final = sum((12 << (8 * s)) | (12 << (8 * s + 4)) for s in range(4))


def top_rank(foundation: int, played: int) -> int:
    """The rank of a foundation's top card, 0 for a king base (it takes the ace next)."""
    return played + 1 if LAYOUT[foundation] == "AH" else played


def encode_foundations(played: tuple[int, ...]) -> int:
    tops: dict[int, list[int]] = {s: [] for s in range(4)}
    for f, suit in _FOUNDATION_SUIT.items():
        tops[suit].append(top_rank(f, played[f]))
    code = 0
    for suit, pair in tops.items():
        lo, hi = sorted(pair)
        code |= (lo << (8 * suit)) | (hi << (8 * suit + 4))
    return code


def play(card: Card, foundations: int) -> int:
    """Foundations after `card` goes on one that takes it (the caller checked one does).

    The higher foundation is raised when both take it: `lo` then stays below
    `hi`, and when only `lo` takes it, `lo < hi` before, so `lo + 1 <= hi`.
    """
    if (foundations >> HI_SHIFT[card]) & 15 == NEED_OF[card]:
        return foundations + (1 << HI_SHIFT[card])
    return foundations + (1 << LO_SHIFT[card])


def cards_left(foundations: int) -> int:
    """How many of the 95 cards are not on the foundations."""
    played = -1  # foundation 2's ace of hearts is part of the layout
    while foundations:
        played += foundations & 15
        foundations >>= 4
    return 95 - played


def takers(foundations: int) -> tuple[int, int]:
    """Bit masks over card ids: the cards some foundation takes, and the lower one takes."""
    takes = lower = 0
    for suit in range(4):
        lo = (foundations >> (8 * suit)) & 15
        hi = (foundations >> (8 * suit + 4)) & 15
        # The card one rank above a top of rank r has the id 13 * suit + r.
        if lo < 12:
            lower |= 1 << (13 * suit + lo)
        if hi < 12:
            takes |= 1 << (13 * suit + hi)
    return takes | lower, lower


class Position:
    """A full-knowledge start for the search, read off an engine state.

    The pass under way is one fixed sequence `cards`: the waste (bottom to top)
    then the stock. Everything the search does to it is a prefix index `drawn`
    (the stock is `cards[drawn:]`: draws and refills both take its first card)
    and a bit mask `waste` of the positions below `drawn` still on the waste,
    whose highest set bit is the top.
    """

    __slots__ = (
        "auto_refill",
        "cards",
        "drawn",
        "foundations",
        "redeals_left",
        "reserve",
        "seed",
        "shuffled_redeal",
        "slots",
        "waste",
    )

    def __init__(self, state: GameState) -> None:
        rules = VARIANT_RULES[state.variant]
        self.seed = state.seed
        self.slots = rules.slots
        self.auto_refill = rules.auto_refill
        self.shuffled_redeal = rules.shuffled_redeal
        self.cards: tuple[Card, ...] = tuple(CARD_IDS[c] for c in (*state.waste, *state.stock))
        self.drawn = len(state.waste)
        self.waste = (1 << len(state.waste)) - 1
        self.reserve: tuple[Card, ...] = tuple(
            sorted(CARD_IDS[c] for c in state.reserve if c is not None)
        )
        self.foundations = encode_foundations(state.played)
        self.redeals_left = state.redeals_left

    def pass_start(
        self,
        cards: tuple[Card, ...],
        reserve: tuple[Card, ...],
        foundations: int,
        redeals_left: int,
    ) -> "Position":
        """The start of a later pass of this deal: `cards` to draw, nothing on the waste."""
        later = Position.__new__(Position)
        for name in ("seed", "slots", "auto_refill", "shuffled_redeal"):
            setattr(later, name, getattr(self, name))
        later.cards = cards
        later.drawn = 0
        later.waste = 0
        later.reserve = reserve
        later.foundations = foundations
        later.redeals_left = redeals_left
        return later

    def key(self) -> tuple[object, ...]:
        """What makes two positions of one deal the same position."""
        return (
            self.cards[self.drawn :],
            tuple(self.cards[i] for i in range(self.drawn) if self.waste >> i & 1),
            self.reserve,
            self.foundations,
            self.redeals_left,
        )


@lru_cache(maxsize=4096)
def redeal_order(seed: int, redeal: int, length: int) -> tuple[int, ...]:
    """Where each new stock card comes from in the old waste, for a shuffled redeal.

    `random.shuffle` draws the same numbers for any list of a given length, so
    shuffling the indices reproduces the engine's shuffle of the cards
    (rules.py `_redealt`): new stock[j] = old waste[order[j]].
    """
    order = list(range(length))
    random.Random(f"{seed}/redeal/{redeal}").shuffle(order)
    return tuple(order)


def redeal_number(redeals_left: int) -> int:
    """Redeal k of RULES.md is made with `redeals_left == 3 - k` before it."""
    return REDEALS - redeals_left + 1


class Pass:
    """One pass's fixed card sequence, with where each card lies in it.

    `orig[i]` is where card i lay in the search's first pass (`pysolfc`, whose
    passes keep the first pass's order: search.py, CANONICAL KEYS), `orig_mask`
    those places as a mask, `identity` whether each card lies where it lay.
    """

    __slots__ = ("cards", "identity", "key", "length", "of_suit", "orig", "orig_mask", "where")

    def __init__(self, cards: tuple[Card, ...], key: int, orig: tuple[int, ...] = ()) -> None:
        self.cards = cards
        self.key = key
        self.length = len(cards)
        self.orig = orig or tuple(range(len(cards)))
        self.identity = self.orig == tuple(range(len(cards)))
        self.orig_mask = sum(1 << at for at in self.orig)
        where = [0] * 52
        of_suit = [0, 0, 0, 0]
        for i, card in enumerate(cards):
            where[card] |= 1 << i
            of_suit[SUIT_OF[card]] |= 1 << i
        self.where = where
        self.of_suit = of_suit

    def places(self, drawn: int, waste: int) -> int:
        """Where the cards still in the stock or on the waste lay in the first pass, as a mask."""
        rest = self.orig_mask & ~((1 << self.orig[drawn]) - 1) if drawn < self.length else 0
        if self.identity:
            return rest | waste
        while waste:
            low = waste & -waste
            rest |= 1 << self.orig[low.bit_length() - 1]
            waste ^= low
        return rest

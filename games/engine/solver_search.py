"""Depth-first search over compact positions, with a table of positions proved lost.

A position is `(pass, drawn, waste, reserve, foundations)`, as `solver_model`
describes: the pass's fixed card sequence (which also fixes the redeals left),
how far into it the stock has gone, a bit mask of the waste, the reserve as a
sorted tuple, and the foundations as one int. The reserve is a multiset
because which slot holds a card never changes what can happen: a refill lands
in the slot just emptied, and an empty slot takes any card.

The search runs in rounds. The early rounds cap the nodes spent below each
redeal, so that one hopeless last pass cannot eat the budget before other
ways through the first passes are tried; the last round has no caps. A
position joins the lost table only when it was searched with no cap cutting
anything below it, so the table holds proofs, never guesses.

The winning line comes back as internal steps; `solver.py` turns them into
notation by playing them on the engine.
"""

import gc
import random
import time
from collections.abc import Iterator
from typing import Final

from games.engine.solver_model import (
    HI_SHIFT,
    LO_SHIFT,
    NEED_OF,
    SUIT_OF,
    WON_FOUNDATIONS,
    Card,
    Position,
    redeal_number,
    redeal_order,
)

# Internal steps; a non-negative step is "play this reserve card".
DRAW: Final = -1
REDEAL: Final = -2
WASTE_UP: Final = -3  # the waste's top card to a foundation
WASTE_DOWN: Final = -4  # the waste's top card into an empty reserve slot (pysolfc)

# Nodes allowed below a redeal, by the redeals left after it. Found by trying:
# narrow enough that the first passes get many tries, wide enough that a good
# pass is seen through.
_NARROW: Final = {1: 2_000, 0: 150}
_WIDE: Final = {1: 20_000, 0: 1_500}
_UNCAPPED: Final[dict[int, int]] = {}
# In a shaken round, the share of branching positions in the first passes
# whose best-looking move is tried last instead of first.
_SHAKE: Final = 0.1

Round = tuple[dict[int, int], int, int | None]  # caps, shake seed (0: none), node budget


def rounds(shaken: bool) -> Iterator[Round]:
    """The search's rounds, for as long as the budget lasts.

    Each cycle tries capped rounds to find a win, then one uncapped round to
    finish a proof; the uncapped budget doubles every cycle, and the table of
    positions proved lost carries over, so a proof costs at most about twice
    what it would alone.

    Measured on deals 1-100 with 60,000 nodes each: many short restarts with
    a shaken order win 66 `pysolfc-8` and 25 `pysolfc` deals where long plain
    rounds won 47 and 13 (a shake of 5% or 25%, or restarts twice as long,
    did worse). In `sultan` they make no difference (24 against 25): any
    change early on changes the redeal shuffles wholesale, so the plain
    order keeps its rounds.
    """
    yield _NARROW, 0, 10_000 if shaken else 40_000
    cycle = 0
    while True:
        cycle += 1
        if shaken:
            for k in range(24):
                yield _NARROW, 24 * cycle + k, 2_500 << (cycle // 2)
        yield _WIDE, 0, 60_000 << cycle
        yield _UNCAPPED, 0, 40_000 << cycle


_CHECK_CLOCK_EVERY: Final = 1024
_NO_CAP: Final = 1 << 62

Key = tuple[int, int, int, tuple[Card, ...], int]


class OutOfBudget(Exception):
    """The node or time budget of the whole solve is spent."""


class _Capped(Exception):
    """A round's cap below some redeal is spent: that subtree is left undecided."""


class _Pass:
    """One pass's fixed card sequence, with where each card lies in it."""

    __slots__ = ("cards", "key", "length", "of_suit", "where")

    def __init__(self, cards: tuple[Card, ...], key: int) -> None:
        self.cards = cards
        self.key = key
        self.length = len(cards)
        where = [0] * 52
        for i, card in enumerate(cards):
            where[card] |= 1 << i
        self.where = where
        self.of_suit = [0] * 4
        for card in range(52):
            self.of_suit[SUIT_OF[card]] |= where[card]


class Search:
    """One solve: the budget, the table of lost positions and the line found."""

    def __init__(self, start: Position, max_nodes: int | None, max_seconds: float | None) -> None:
        self.start = start
        self.max_nodes = max_nodes if max_nodes is not None else _NO_CAP
        self.deadline = None if max_seconds is None else time.monotonic() + max_seconds
        self.nodes = 0
        self.lost: set[Key] = set()
        self.tried: set[Key] = set()  # failed in this round, maybe only for a cap
        self.cuts = 0  # how many times a cap has cut a subtree short
        self.caps: dict[int, int] = {}
        self.shake: random.Random | None = None
        self.cap_until = _NO_CAP
        self.limit = self.max_nodes  # the nearer of the budget and the cap
        # Which cards the foundations take, per foundations value met.
        self.masks: dict[int, tuple[int, int]] = {}
        self.stuck: dict[tuple[int, int, int], bool] = {}
        self.passes: dict[tuple[int, tuple[Card, ...]], _Pass] = {}
        self.line: list[int] = []
        self.seed = start.seed
        self.slots = start.slots
        self.auto_refill = start.auto_refill
        self.shuffled_redeal = start.shuffled_redeal

    def run(self) -> bool | None:
        """True: won (the line is in `self.line`); False: lost; None: out of budget."""
        s = self.start
        first = self._pass(s.redeals_left, s.cards)
        collecting = gc.isenabled()
        gc.disable()  # the tables hold only tuples of ints: no cycles to collect
        try:
            for caps, shake, budget in rounds(shaken=not self.shuffled_redeal):
                self.caps = caps
                self.shake = random.Random(shake) if shake else None
                self.tried = set()
                self.cap_until = _NO_CAP if budget is None else self.nodes + budget
                self.limit = min(self.max_nodes, self.cap_until)
                cuts = self.cuts
                del self.line[:]
                try:
                    if self._node(
                        first, s.drawn, s.waste, s.reserve, s.foundations, s.redeals_left
                    ):
                        return True
                except _Capped:
                    self.cuts += 1  # the round's own budget is spent
                if self.cuts == cuts:
                    return False  # nothing was cut short: the search was complete
            raise AssertionError("rounds() never ends")
        except OutOfBudget:
            return None
        finally:
            if collecting:
                gc.enable()

    def _pass(self, redeals_left: int, cards: tuple[Card, ...]) -> _Pass:
        key = (redeals_left, cards)
        found = self.passes.get(key)
        if found is None:
            found = self.passes[key] = _Pass(cards, len(self.passes))
        return found

    def _node(
        self,
        p: _Pass,
        drawn: int,
        waste: int,
        reserve: tuple[Card, ...],
        foundations: int,
        redeals_left: int,
    ) -> bool:
        if foundations == WON_FOUNDATIONS:
            return True
        key = (p.key, drawn, waste, reserve, foundations)
        if key in self.lost:
            return False
        if key in self.tried:
            # Failed earlier in this round with something cut short: no proof
            # now either, so whoever asks must not count on it.
            self.cuts += 1
            return False
        self.nodes += 1
        if self.nodes > self.limit:
            raise OutOfBudget if self.nodes > self.max_nodes else _Capped
        if (
            self.deadline is not None
            and not self.nodes % _CHECK_CLOCK_EVERY
            and time.monotonic() > self.deadline
        ):
            raise OutOfBudget
        masks = self.masks.get(foundations)
        if masks is None:
            masks = self.masks[foundations] = _takers(foundations)
        cuts = self.cuts
        if self._children(p, drawn, waste, reserve, foundations, redeals_left, masks):
            return True
        if self.cuts == cuts:
            self.lost.add(key)
        else:
            self.tried.add(key)
        return False

    def _children(
        self,
        p: _Pass,
        drawn: int,
        waste: int,
        reserve: tuple[Card, ...],
        foundations: int,
        redeals_left: int,
        masks: tuple[int, int],
    ) -> bool:
        """Try every move worth trying, best first; True once one of them wins."""
        takes, lower_takes = masks
        cards = p.cards
        line = self.line
        node = self._node
        refill = self.auto_refill
        stock_left = drawn < p.length
        top_bit = waste.bit_length() - 1
        top = cards[top_bit] if waste else -1
        # From the last pass of `sultan` on, the waste only ever loses its top:
        # no redeal will shuffle it again and no move puts a card in a slot.
        binding = refill and not redeals_left

        # Safe moves, made alone: see SAFE MOVES at the end of this module.
        if top >= 0 and (not refill or not redeals_left):
            twin_below = binding and waste & p.where[top] != 1 << top_bit
            if lower_takes >> top & 1 or (twin_below and takes >> top & 1):
                line.append(WASTE_UP)
                if node(
                    p, drawn, waste ^ (1 << top_bit), reserve, _play(top, foundations), redeals_left
                ):
                    return True
                line.pop()
                return False
        if not refill or (not redeals_left and not stock_left):
            for i, card in enumerate(reserve):
                if lower_takes >> card & 1:
                    line.append(card)
                    rest = reserve[:i] + reserve[i + 1 :]
                    if node(p, drawn, waste, rest, _play(card, foundations), redeals_left):
                        return True
                    line.pop()
                    return False

        # The other moves, best-looking first: plays to the foundations (what
        # a win is made of), then draw, a waste card into a slot, redeal.
        steps: list[int] = []
        if top >= 0 and takes >> top & 1:
            steps.append(WASTE_UP)
        previous = -1
        for card in reserve:
            if card != previous and takes >> card & 1:
                previous = card
                # The refill only moves a card from one free place to another
                # in `_stuck`'s reckoning: only the played card's suit changes.
                if not (binding and self._stuck(SUIT_OF[card], p, waste, _play(card, foundations))):
                    steps.append(card)
        if stock_left:
            grown = waste | (1 << drawn)
            if not (binding and self._stuck(SUIT_OF[cards[drawn]], p, grown, foundations)):
                steps.append(DRAW)
        if top >= 0 and not refill and len(reserve) < self.slots:
            steps.append(WASTE_DOWN)
        if not stock_left and waste and redeals_left:
            steps.append(REDEAL)
        if (
            self.shake is not None
            and redeals_left
            and len(steps) > 1
            and self.shake.random() < _SHAKE
        ):
            steps.append(steps.pop(0))

        for step in steps:
            line.append(step)
            if step == WASTE_UP:
                won = node(
                    p, drawn, waste ^ (1 << top_bit), reserve, _play(top, foundations), redeals_left
                )
            elif step >= 0:
                i = reserve.index(step)
                rest = reserve[:i] + reserve[i + 1 :]
                if refill and stock_left:
                    rest = tuple(sorted((*rest, cards[drawn])))
                    won = node(p, drawn + 1, waste, rest, _play(step, foundations), redeals_left)
                else:
                    won = node(p, drawn, waste, rest, _play(step, foundations), redeals_left)
            elif step == DRAW:
                won = node(p, drawn + 1, waste | (1 << drawn), reserve, foundations, redeals_left)
            elif step == WASTE_DOWN:
                down = tuple(sorted((*reserve, top)))
                won = node(p, drawn, waste ^ (1 << top_bit), down, foundations, redeals_left)
            else:
                won = self._redeal(p, drawn, waste, reserve, foundations, redeals_left)
            if won:
                return True
            line.pop()
        return False

    def _stuck(self, suit: int, p: _Pass, waste: int, foundations: int) -> bool:
        """`_stuck`, remembered: many positions share a suit's waste and foundations."""
        bits = waste & p.of_suit[suit]
        if not bits:
            return False
        key = (p.key, bits, (foundations >> (8 * suit)) & 255)
        known = self.stuck.get(key)
        if known is None:
            known = self.stuck[key] = _stuck(suit, p, bits, foundations)
        return known

    def _redeal(
        self,
        p: _Pass,
        drawn: int,
        waste: int,
        reserve: tuple[Card, ...],
        foundations: int,
        redeals_left: int,
    ) -> bool:
        order = [p.cards[i] for i in range(drawn) if waste >> i & 1]
        if self.shuffled_redeal:
            perm = redeal_order(self.seed, redeal_number(redeals_left), len(order))
            order = [order[j] for j in perm]
        after = self._pass(redeals_left - 1, tuple(order))
        cap = self.caps.get(redeals_left - 1)
        if cap is None:
            return self._node(after, 0, 0, reserve, foundations, redeals_left - 1)
        outer = self.cap_until
        self.cap_until = min(outer, self.nodes + cap)
        self.limit = min(self.max_nodes, self.cap_until)
        depth = len(self.line)
        try:
            return self._node(after, 0, 0, reserve, foundations, redeals_left - 1)
        except _Capped:
            if self.nodes > outer:
                raise  # an enclosing cap is spent too: it is cut there
            self.cuts += 1
            del self.line[depth:]
            return False
        finally:
            self.cap_until = outer
            self.limit = min(self.max_nodes, outer)


def _takers(foundations: int) -> tuple[int, int]:
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


def _play(card: Card, foundations: int) -> int:
    """Raise the higher foundation when both take the card: `lo <= hi` stays true."""
    if (foundations >> HI_SHIFT[card]) & 15 == NEED_OF[card]:
        return foundations + (1 << HI_SHIFT[card])
    return foundations + (1 << LO_SHIFT[card])


def _stuck(suit: int, p: _Pass, bits: int, foundations: int) -> bool:
    """Can this suit's waste cards not go up top-down, even with every other card at hand?

    A relaxation of the last pass of `sultan`, where the waste only loses its
    top card: its cards of one suit must go up in top-down order, while every
    card off the waste is taken to be at hand whenever wanted. A waste card
    needs a foundation one rank below it. If one does not stand there, the
    higher foundation still below it is raised with free cards: what that
    needs is a subset of what raising the lower one needs, and the lower one
    can still follow with the free cards saved. Free cards are spent only when
    a waste card needs them, since they never stop being at hand. So this
    greedy play fails only when every order fails, and then the real
    position, which has fewer cards at hand, is lost too.

    `bits` is the waste's mask restricted to the suit's cards.
    """
    shift = 8 * suit
    lo = (foundations >> shift) & 15
    hi = (foundations >> (shift + 4)) & 15
    base = 13 * suit - 1  # the card id of rank r is base + r
    cards = p.cards
    ranks: list[int] = []  # the suit's waste cards, top first
    count = [0] * 14
    while bits:
        pos = bits.bit_length() - 1
        bits ^= 1 << pos
        rank = cards[pos] - base
        ranks.append(rank)
        count[rank] += 1
    # Free: two copies of each rank, less those on foundations and on the waste.
    free = [2 - (hi >= rank) - (lo >= rank) - count[rank] for rank in range(13)]
    for rank in ranks:
        need = rank - 1
        if hi == need:
            hi = rank
            continue
        if lo == need:
            lo = rank
            continue
        start = hi if hi < need else lo
        for r in range(start + 1, rank):
            if not free[r]:
                return True
            free[r] -= 1
        if start == hi:
            hi = rank
        else:
            lo = rank
    return False

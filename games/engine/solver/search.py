"""Depth-first search over compact positions, with a table of positions proved lost.

A position is `(pass, drawn, waste, reserve, foundations)`, as `solver_model`
describes: the pass's fixed card sequence (which also fixes the redeals left),
how far into it the stock has gone, a bit mask of the waste, the reserve as a
sorted tuple, and the foundations as one int. The reserve is a multiset
because which slot holds a card never changes what can happen: a refill lands
in the slot just emptied, and an empty slot takes any card.

The search runs in rounds (`solver_rounds`). Capped rounds limit the nodes
spent below each redeal, so that one hopeless last pass cannot eat the budget
before other ways through the first passes are tried; uncapped rounds can
finish a proof. A position joins the lost table only when it was searched
with no cap cutting anything below it, so the table holds proofs, never
guesses, and it carries over from round to round.

CANONICAL KEYS. In `pysolfc` a redeal turns the waste over, so every pass
is the first pass's sequence with the cards that left it (up, or into a
slot) taken out. A position is then fixed by the places, in the first pass,
of the cards still in the stock or on the waste, the place where the stock
begins (the waste is the rest), the reserve, the foundations and the redeals
left; the table is keyed so, and the same position reached in two passes
(one that played a card in the first pass, one that played it in the
second) is searched once. A pass met again keeps the places it was first
met with: any places that read its cards in the first pass fix the same
position. `sultan` shuffles at each redeal, so it keys by the pass.

The winning line comes back as internal steps; `solver.py` turns them into
notation by playing them on the engine.
"""

import gc
import random
import time
from typing import Final

from games.engine.safe import reserve_may_be_safe, twin_below_counts, waste_may_be_safe
from games.engine.solver.model import (
    SUIT_OF,
    WON_FOUNDATIONS,
    Card,
    Pass,
    Position,
    cards_left,
    play,
    redeal_number,
    redeal_order,
    takers,
)
from games.engine.solver.relax import draw_crowds, suit_stuck
from games.engine.solver.rounds import SHAKE, Outcome, run_rounds

# Internal steps; a non-negative step is "play this reserve card".
DRAW: Final = -1
REDEAL: Final = -2
WASTE_UP: Final = -3  # the waste's top card to a foundation
WASTE_DOWN: Final = -4  # the waste's top card into an empty reserve slot (pysolfc)

# In a capped round of `sultan`, a last pass is not tried when it starts with
# more than this many cards above the fewest any last pass of the search has
# started with; see `Search._worth_a_try`.
_SPREAD: Final = 4

_CHECK_CLOCK_EVERY: Final = 1024
_NO_CAP: Final = 1 << 62

Key = tuple[int, int, int, tuple[Card, ...], int]


class OutOfBudget(Exception):
    """The node or time budget of the whole solve is spent."""


class _Abandoned(Exception):
    """A pass's first try left far more cards than the best so far: drop its other tries."""


class _Capped(Exception):
    """A round's cap below some redeal is spent: that subtree is left undecided."""


class Search:
    """One solve: the budget, the table of lost positions and the line found."""

    def __init__(
        self,
        start: Position,
        max_nodes: int | None,
        max_seconds: float | None,
        cpu_clock: bool = False,
    ) -> None:
        self.start = start
        self.max_nodes = max_nodes if max_nodes is not None else _NO_CAP
        # Seconds of this thread's CPU time, or of the wall clock.
        self.clock = time.thread_time if cpu_clock else time.monotonic
        self.deadline = None if max_seconds is None else self.clock() + max_seconds
        self.nodes = 0
        self.lost: set[Key] = set()
        self.tried: set[Key] = set()  # failed in this round, maybe only for a cap
        self.cuts = 0  # how many times a cap has cut a subtree short
        self.caps: dict[int, int] = {}
        self.shake: random.Random | None = None
        self.share = SHAKE
        self.cap_until = _NO_CAP
        self.limit = self.max_nodes  # the nearer of the budget and the cap
        # Which cards the foundations take, and how many cards are up, per
        # foundations value met.
        self.masks: dict[int, tuple[int, int, int]] = {}
        self.stuck: dict[tuple[int, int, int], bool] = {}
        self.passes: dict[tuple[int, tuple[Card, ...]], Pass] = {}
        self.line: list[int] = []
        # The line to the position with the most cards up met so far, in any
        # round: what an undecided search can still offer a player.
        self.furthest: list[int] = []
        self.most_up = -1
        self.fewest_left = _NO_CAP  # fewest cards any last pass has started with
        self.first_try = False  # the next last redeal is the first of its second pass
        self.seed = start.seed
        self.slots = start.slots
        self.auto_refill = start.auto_refill
        self.shuffled_redeal = start.shuffled_redeal
        self.canonical = not start.shuffled_redeal  # CANONICAL KEYS
        self.first_length = len(start.cards)

    def run(self) -> bool | None:
        """True: won (the line is in `self.line`); False: lost; None: out of budget."""
        collecting = gc.isenabled()
        gc.disable()  # the tables hold only tuples of ints: no cycles to collect
        try:
            return run_rounds(self, shaken=not self.shuffled_redeal)
        finally:
            # Freed with the collector still off: turned on with the tables
            # alive, its first pass would walk every one of their tuples
            # (up to a tenth of a second past a time budget).
            for table in (self.lost, self.tried, self.stuck, self.masks, self.passes):
                table.clear()
            if collecting:
                gc.enable()

    def round(self, cap1: int, cap0: int, shake: int, budget: int, share: float) -> Outcome:
        """One round of `rounds()` (a cap or budget of -1: none); `_core.Search.round` alike."""
        s = self.start
        first = self._pass(s.redeals_left, s.cards)
        self.caps = {k: cap for k, cap in ((1, cap1), (0, cap0)) if cap >= 0}
        self.shake = random.Random(shake) if shake else None
        self.share = share
        self.tried = set()
        self.cap_until = _NO_CAP if budget < 0 else self.nodes + budget
        self.limit = min(self.max_nodes, self.cap_until)
        cuts = self.cuts
        del self.line[:]
        try:
            if self._node(first, s.drawn, s.waste, s.reserve, s.foundations, s.redeals_left):
                return "won"
        except _Capped:
            self.cuts += 1  # the round's own budget is spent
        except OutOfBudget:
            return "out"
        return "lost" if self.cuts == cuts else "cut"

    def _pass(self, redeals_left: int, cards: tuple[Card, ...], orig: tuple[int, ...] = ()) -> Pass:
        key = (redeals_left, cards)
        found = self.passes.get(key)
        if found is None:
            found = self.passes[key] = Pass(cards, len(self.passes), orig)
        return found

    def _table_key(
        self,
        p: Pass,
        drawn: int,
        waste: int,
        reserve: tuple[Card, ...],
        foundations: int,
        redeals_left: int,
    ) -> Key:
        """The tables' key of a position: by the pass, or CANONICAL KEYS (the core's alike)."""
        if not self.canonical:
            return (p.key, drawn, waste, reserve, foundations)
        at = p.orig[drawn] if drawn < p.length else self.first_length
        return (redeals_left, at, p.places(drawn, waste), reserve, foundations)

    def _node(
        self,
        p: Pass,
        drawn: int,
        waste: int,
        reserve: tuple[Card, ...],
        foundations: int,
        redeals_left: int,
    ) -> bool:
        if foundations == WON_FOUNDATIONS:
            return True
        key = (p.key, drawn, waste, reserve, foundations)
        table_key = self._table_key(p, drawn, waste, reserve, foundations, redeals_left)
        if table_key in self.lost:
            return False
        if table_key in self.tried:
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
            and self.clock() > self.deadline
        ):
            raise OutOfBudget
        cuts = self.cuts
        if self._children(p, key, redeals_left):
            return True
        if self.cuts == cuts:
            self.lost.add(table_key)
        else:
            self.tried.add(table_key)
        return False

    def _children(self, p: Pass, key: Key, redeals_left: int) -> bool:
        """Try every move worth trying from the position `key`, best first; True once one wins."""
        _, drawn, waste, reserve, foundations = key
        masks = self.masks.get(foundations)
        if masks is None:
            masks = self.masks[foundations] = (*takers(foundations), 95 - cards_left(foundations))
        takes, lower_takes, up = masks
        cards = p.cards
        line = self.line
        if up > self.most_up:
            self.most_up = up
            self.furthest = line[:]
        node = self._node
        refill = self.auto_refill
        stock_left = drawn < p.length
        top_bit = waste.bit_length() - 1
        top = cards[top_bit] if waste else -1
        # From the last pass of `sultan` on, the waste only ever loses its top:
        # no redeal will shuffle it again and no move puts a card in a slot.
        binding = twin_below_counts(refill, redeals_left)

        # Safe moves, made alone: the rule and its proof are in games.engine.safe.
        if top >= 0 and waste_may_be_safe(refill, redeals_left):
            twin_below = binding and waste & p.where[top] != 1 << top_bit
            if lower_takes >> top & 1 or (twin_below and takes >> top & 1):
                line.append(WASTE_UP)
                if node(
                    p, drawn, waste ^ (1 << top_bit), reserve, play(top, foundations), redeals_left
                ):
                    return True
                line.pop()
                return False
        if reserve_may_be_safe(refill, redeals_left, stock_left):
            for i, card in enumerate(reserve):
                if lower_takes >> card & 1:
                    line.append(card)
                    rest = reserve[:i] + reserve[i + 1 :]
                    if node(p, drawn, waste, rest, play(card, foundations), redeals_left):
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
                # in `suit_stuck`'s reckoning: only the played card's suit changes.
                if not (binding and self._stuck(SUIT_OF[card], p, waste, play(card, foundations))):
                    steps.append(card)
        if stock_left:
            grown = waste | (1 << drawn)
            if not (
                (binding and self._stuck(SUIT_OF[cards[drawn]], p, grown, foundations))
                or (
                    not refill
                    and not redeals_left
                    and draw_crowds(p, drawn, waste, reserve, foundations, self.slots)
                )
            ):
                steps.append(DRAW)
        if top >= 0 and not refill and len(reserve) < self.slots:
            steps.append(WASTE_DOWN)
        if not stock_left and waste and redeals_left:
            steps.append(REDEAL)
        if (
            self.shake is not None
            and redeals_left
            and len(steps) > 1
            and self.shake.random() < self.share
        ):
            steps.append(steps.pop(0))

        for step in steps:
            line.append(step)
            if step == WASTE_UP:
                won = node(
                    p, drawn, waste ^ (1 << top_bit), reserve, play(top, foundations), redeals_left
                )
            elif step >= 0:
                i = reserve.index(step)
                rest = reserve[:i] + reserve[i + 1 :]
                if refill and stock_left:
                    rest = tuple(sorted((*rest, cards[drawn])))
                    won = node(p, drawn + 1, waste, rest, play(step, foundations), redeals_left)
                else:
                    won = node(p, drawn, waste, rest, play(step, foundations), redeals_left)
            elif step == DRAW:
                won = node(p, drawn + 1, waste | (1 << drawn), reserve, foundations, redeals_left)
            elif step == WASTE_DOWN:
                down = tuple(sorted((*reserve, top)))
                won = node(p, drawn, waste ^ (1 << top_bit), down, foundations, redeals_left)
            else:
                won = self._redeal(p, key, redeals_left)
            if won:
                return True
            line.pop()
        return False

    def _stuck(self, suit: int, p: Pass, waste: int, foundations: int) -> bool:
        """`suit_stuck`, remembered: many positions share a suit's waste and foundations."""
        bits = waste & p.of_suit[suit]
        if not bits:
            return False
        key = (p.key, bits, (foundations >> (8 * suit)) & 255)
        known = self.stuck.get(key)
        if known is None:
            known = self.stuck[key] = suit_stuck(suit, p, bits, foundations)
        return known

    def _worth_a_try(self, foundations: int, redeals_left: int) -> bool:
        """In a capped round, should the redeal's pass be searched? (`_SPREAD`)"""
        if redeals_left == 2:
            self.first_try = True
            return True
        if redeals_left != 1 or not self.shuffled_redeal:
            return True
        # Each different waste is shuffled into a different last pass, so
        # each last pass is a fresh lottery ticket, and its odds fall
        # steeply with the cards it starts with: over deals 21-80, 0.2% of
        # the last passes starting with 36-44 cards were won, 0.07% with
        # 45-50, none of 74,000 with 57 or more. Tickets far worse than
        # the best one seen are not worth their nodes, and a second pass
        # whose first (best-looking) line ends far worse is dropped whole:
        # more of it rarely gains more than two or three cards.
        # Measured on deals 61-160 with 100,000 nodes: 37 won, 30 without
        # (a spread of 1: 17, 2: 29, 3-6: 36-37, 8: 34); `sultan-8`
        # deals 1-100: 73 against 66. Nothing is proved by skipping, so it
        # counts as a cut. `pysolfc` keeps its waste's order, its tickets
        # are not independent, and it gains nothing (29 of 100 either way).
        left = cards_left(foundations)
        first, self.first_try = self.first_try, False
        if left < self.fewest_left:
            self.fewest_left = left
        elif left > self.fewest_left + _SPREAD:
            self.cuts += 1
            if first:
                raise _Abandoned
            return False
        return True

    def _redeal(self, p: Pass, key: Key, redeals_left: int) -> bool:
        """The redeal from the position `key`, whose stock is empty."""
        _, drawn, waste, reserve, foundations = key
        cap = self.caps.get(redeals_left - 1)
        if cap is not None and not self._worth_a_try(foundations, redeals_left):
            return False
        kept = [i for i in range(drawn) if waste >> i & 1]
        order = [p.cards[i] for i in kept]
        if self.shuffled_redeal:
            perm = redeal_order(self.seed, redeal_number(redeals_left), len(order))
            order = [order[j] for j in perm]
            after = self._pass(redeals_left - 1, tuple(order))
        else:
            after = self._pass(redeals_left - 1, tuple(order), tuple(p.orig[i] for i in kept))
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
        except _Abandoned:  # only ever raised right below a first redeal
            del self.line[depth:]
            return False
        finally:
            self.cap_until = outer
            self.limit = min(self.max_nodes, outer)

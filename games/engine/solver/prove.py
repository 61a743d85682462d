"""Proofs of loss from the deal, for `pysolfc` variants: every last pass refuted.

`prove_lost(state)` searches every way through the passes before the last
(the reference search, search.py, uncapped: its safe moves and table of lost
positions, nothing else) and, instead of searching each last pass, refutes
its start with a relaxation (`last_pass_hopeless`). When every start is
refuted and nothing was cut short, no line wins: the deal is lost. A start
the relaxation cannot refute ends the proof as not proved; nothing is
guessed. It is separate from `solve`, whose search it does not change.

THE RELAXATION. In the last pass of `pysolfc` the stock is fixed, the waste
starts empty and only loses its top, and a waste card may go into an empty
slot. Take a group of suits and let the other suits' cards vanish whenever
wanted, except their reserve cards, which hold their slots. Any winning line
of the real pass, its moves of the group's cards kept and the rest left out,
is a line of the group alone: the group's waste cards keep their order (a top
card stays a top card when the cards above it vanish), and the group never
holds more cards in slots than the real line leaves it. So a group that
cannot get all its cards up alone proves the pass lost.

Another suit's reserve card X holds its slot until it goes up, which needs
its suit at the rank below X's. A suit alone, with every slot, is a
relaxation of that suit in the real pass, so the fewest cards drawn at which
it alone can reach a rank is no later than the real pass can: until then X
surely holds its slot. A card the lower foundation of its suit takes goes up
at once: safe.py proves that move safe in `pysolfc` ("Which copy", "Where it
was"), for the group alone as for the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Final

from games.engine.solver.compiled import engine_for, exhaust
from games.engine.solver.model import SUIT_OF, Card, Pass, Position
from games.engine.solver.search import Key, OutOfBudget, Search
from games.engine.state import GameState
from games.engine.variants import VARIANT_RULES

# How many positions of one group a relaxation may explore; past it, it
# proves nothing. A pair of suits has at most 48 cards: rarely reached.
GROUP_STATES: Final = 300_000

Tops = tuple[tuple[int, int], ...]  # per suit of the group: (lower, higher) top rank
GroupKey = tuple[int, tuple[Card, ...], tuple[Card, ...], Tops]


class _TooBig(Exception):
    pass


class Group:
    """Suits of a last `pysolfc` pass on their own (see THE RELAXATION).

    `room[g]` is how many slots the group may fill once `g` cards of the pass
    are drawn: the slots less those other suits' reserve cards surely hold.
    """

    def __init__(
        self,
        suits: tuple[int, ...],
        cards: tuple[Card, ...],
        reserve: tuple[Card, ...],
        foundations: int,
        room: list[int],
    ) -> None:
        self.index = {suit: k for k, suit in enumerate(suits)}
        self.where = [i for i, c in enumerate(cards) if SUIT_OF[c] in self.index]
        self.stock = tuple(cards[i] for i in self.where)
        self.parked = tuple(sorted(c for c in reserve if SUIT_OF[c] in self.index))
        self.tops: Tops = tuple(
            (min(lo, hi), max(lo, hi))
            for lo, hi in (
                ((foundations >> 8 * s) & 15, (foundations >> (8 * s + 4)) & 15) for s in suits
            )
        )
        # With i of its cards drawn, the group may move before its next card
        # is drawn: the latest moment, when the other suits leave the most room.
        ends = [*self.where, len(cards)]
        self.room = [room[ends[i]] for i in range(len(self.stock) + 1)]

    def cannot_finish(self) -> bool:
        """True when the group alone cannot get all its cards up (False: it can, or too big)."""
        try:
            return not self._explore(None)
        except _TooBig:
            return False

    def earliest(self) -> list[int]:
        """Per rank, the fewest cards of the pass drawn at which a foundation can stand there."""
        best = [1 << 30] * 13
        try:
            self._explore(best)
        except _TooBig:
            return [0] * 13  # nothing known: it may be at once
        return best

    def _up(self, tops: Tops, card: Card) -> tuple[Tops | None, bool]:
        """The tops after `card` goes up, and whether the lower foundation took it."""
        k = self.index[SUIT_OF[card]]
        rank = card % 13 + 1
        lo, hi = tops[k]
        if lo == rank - 1:
            pair, lower = (min(rank, hi), max(rank, hi)), True
        elif hi == rank - 1:
            pair, lower = (lo, rank), False
        else:
            return None, False
        return (*tops[:k], pair, *tops[k + 1 :]), lower

    def _explore(self, best: list[int] | None) -> bool:
        """Every position of the group, depth first; True at the first win.

        With `best`, it goes on past wins, noting per rank the fewest cards
        drawn at which a foundation of the suit (a group of one) reached it.
        """
        stock, room, where = self.stock, self.room, self.where
        done = tuple((12, 12) for _ in self.tops)
        seen: set[GroupKey] = set()
        start: GroupKey = (0, (), self.parked, self.tops)
        stack = [start]
        while stack:
            state = stack.pop()
            if state in seen:
                continue
            seen.add(state)
            if len(seen) > GROUP_STATES:
                raise _TooBig
            i, waste, parked, tops = state
            if best is not None:
                drawn = where[i - 1] + 1 if i else 0
                for rank in range(tops[0][1] + 1):
                    best[rank] = min(best[rank], drawn)
            elif tops == done:
                return True
            moves: list[GroupKey] = []
            forced: GroupKey | None = None
            if waste:
                after, lower = self._up(tops, waste[-1])
                if after is not None:
                    forced = (i, waste[:-1], parked, after) if lower else None
                    if not lower:
                        moves.append((i, waste[:-1], parked, after))
            for j, card in enumerate(parked):
                if forced is not None:
                    break
                after, lower = self._up(tops, card)
                if after is not None:
                    step = (i, waste, parked[:j] + parked[j + 1 :], after)
                    if lower:
                        forced = step
                    else:
                        moves.append(step)
            if forced is not None:
                stack.append(forced)  # a safe move, made alone
                continue
            if i < len(stock):
                moves.append((i + 1, (*waste, stock[i]), parked, tops))
            if waste and len(parked) < room[i]:
                moves.append((i, waste[:-1], tuple(sorted((*parked, waste[-1]))), tops))
            stack.extend(moves)
        return False


def last_pass_hopeless(
    cards: tuple[Card, ...], reserve: tuple[Card, ...], foundations: int, slots: int
) -> bool:
    """Is a last `pysolfc` pass lost from its start (`cards` the stock, the waste empty)?

    True when some suit, or pair of suits, cannot get all its cards up on
    its own (`Group`), in the slots the other suits' reserve cards leave it.
    """
    moments = len(cards) + 1
    held = [[0] * moments for _ in range(4)]  # per suit: its reserve cards surely in slots
    for suit in range(4):
        mine = [card for card in reserve if SUIT_OF[card] == suit]
        if mine:
            earliest = Group((suit,), cards, reserve, foundations, [slots] * moments).earliest()
            for card in mine:
                for g in range(min(earliest[card % 13], moments)):  # the rank below the card's
                    held[suit][g] += 1
    for size in (1, 2, 3):
        for suits in combinations(range(4), size):
            room = [
                slots - sum(held[t][g] for t in range(4) if t not in suits) for g in range(moments)
            ]
            if Group(suits, cards, reserve, foundations, room).cannot_finish():
                return True
    return False


@dataclass(frozen=True, slots=True)
class Proof:
    lost: bool  # proved lost: every last pass refuted, nothing cut short
    nodes: int  # positions searched in the passes before the last
    last_passes: int  # distinct last-pass starts met
    refuted: int  # of them, refuted (all, when `lost`)
    searched: int  # of those, by an exact search of the pass, not the relaxation


class _Prover(Search):
    """The reference search, uncapped, with each last pass refuted instead of searched."""

    def __init__(
        self,
        start: Position,
        max_nodes: int | None,
        last_pass_nodes: int,
        memory: int | None,
        relax: bool,
    ) -> None:
        super().__init__(start, max_nodes, None)
        self.last_pass_nodes = last_pass_nodes
        self.memory = memory
        self.relax = relax
        self.refuted: dict[tuple[tuple[Card, ...], tuple[Card, ...], int], bool] = {}
        self.searched = 0

    def _redeal(self, p: Pass, key: Key, redeals_left: int) -> bool:
        if redeals_left != 1:
            return super()._redeal(p, key, redeals_left)
        _, drawn, waste, reserve, foundations = key
        order = tuple(p.cards[i] for i in range(drawn) if waste >> i & 1)
        start = (order, reserve, foundations)
        refuted = self.refuted.get(start)
        if refuted is None:
            refuted = self.relax and last_pass_hopeless(*start, self.slots)
            if not refuted and self._searched_lost(*start):
                refuted = True
                self.searched += 1
            self.refuted[start] = refuted
        if not refuted:
            self.cuts += 1  # not searched, so nothing is proved above it
        return False

    def _searched_lost(
        self, cards: tuple[Card, ...], reserve: tuple[Card, ...], foundations: int
    ) -> bool:
        """Is the last pass lost by an uncapped search of it, within `last_pass_nodes`?"""
        if self.last_pass_nodes <= 0:
            return False
        last = self.start.pass_start(cards, reserve, foundations, 0)
        if engine_for(None) == "c":
            return exhaust(last, self.last_pass_nodes, self.memory).outcome == "lost"
        return Search(last, self.last_pass_nodes, None).round(-1, -1, 0, -1, 0.0) == "lost"


def prove_lost(
    state: GameState,
    max_nodes: int | None = 1_000_000,
    last_pass_nodes: int = 0,
    memory: int | None = None,
    relax: bool = True,
) -> Proof:
    """Try to prove a `pysolfc` position lost with its last passes refuted (see the module).

    A start the relaxation leaves is searched exactly on the compiled core,
    within `last_pass_nodes` and `memory` bytes of table (compiled.memory_bytes()
    by default); a table at its cap drops entries, which costs search, not
    soundness. Without `relax`, every start is searched exactly: slower, and
    independent of the relaxation (bench/prove_lost.py checks proofs so).
    """
    if VARIANT_RULES[state.variant].auto_refill:
        raise ValueError("the last-pass relaxation holds in `pysolfc` variants only")
    start = Position(state)
    prover = _Prover(start, max_nodes, last_pass_nodes, memory, relax)
    try:
        outcome = prover.round(-1, -1, 0, -1, 0.0)
    except OutOfBudget:
        outcome = "out"
    refuted = sum(prover.refuted.values())
    return Proof(outcome == "lost", prover.nodes, len(prover.refuted), refuted, prover.searched)

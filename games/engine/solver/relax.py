"""Relaxations of a last pass: positions they show lost need no search.

`suit_stuck` for `sultan`, `slots_crowded` for `pysolfc`.
"""

from typing import Final

from games.engine.solver.model import Card, Pass


def suit_stuck(suit: int, p: Pass, bits: int, foundations: int) -> bool:
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


_NEVER: Final = 1 << 30


def draw_crowds(
    p: Pass, drawn: int, waste: int, reserve: tuple[Card, ...], foundations: int, slots: int
) -> bool:
    """Does drawing the card at `drawn` crowd the slots of the last `pysolfc` pass?

    Only a card that lands locked (both copies of a rank it needs below it)
    can raise a count, so `slots_crowded` is asked only then: a search that
    asks on every draw makes the same cuts where the position before the draw
    was not crowded already, and draws are what the bound is asked about.
    """
    card = p.cards[drawn]
    suit = card // 13
    hi = (foundations >> (8 * suit + 4)) & 15
    for rank in range(hi + 1, card % 13 + 1):
        pair = waste & p.where[13 * suit + rank - 1]
        if pair & (pair - 1):
            return slots_crowded(p.cards, waste | (1 << drawn), reserve, foundations, slots)
    return False


def slots_crowded(
    cards: tuple[Card, ...], waste: int, reserve: tuple[Card, ...], foundations: int, slots: int
) -> bool:
    """In the last `pysolfc` pass, must more cards sit in the slots at once than there are slots?

    THE BOUND. Let both copies of a card y lie on the waste, the upper one at
    position u, with no foundation of y's suit at y's rank yet. Any card x of
    that suit ranked above y needs a copy of y up first, and neither copy can
    leave the waste before position u is uncovered. So at the moment the card
    at u first becomes the waste's top (and in a win it must: every waste card
    goes up from the top), every such x that lies above u now has left the
    waste without going up, into a slot, and every such x in a slot now is
    still there (a slot card only ever goes up). The same holds for any pair
    of the x's suit between its higher foundation and x, at or below u. With
    no redeal left nothing reorders the waste. Cards of all suits locked at u
    sit in the slots together; more of them than slots: no line wins.

    `cards` is the pass's sequence and `waste` the mask of its positions on
    the waste. Only a draw can raise a count (a card going up lowers them; a
    card moved from the waste's top into a slot is counted there as before).
    """
    upper = [_NEVER] * 52  # per card, where the upper copy lies when both are on the waste
    seen = [False] * 52
    positions: list[int] = []
    bits = waste
    i = 0
    while bits:
        if bits & 1:
            card = cards[i]
            if seen[card]:
                upper[card] = i
            seen[card] = True
            positions.append(i)
        bits >>= 1
        i += 1
    locked = [_NEVER] * 52  # per card, the lowest u at which it is locked
    for suit in range(4):
        hi = (foundations >> (8 * suit + 4)) & 15
        lowest = _NEVER
        for rank in range(hi + 1, 13):
            card = 13 * suit + rank - 1
            locked[card] = lowest
            lowest = min(lowest, upper[card])
    # How many locked cards each waste position u sees above it or in a slot.
    delta = [0] * (i + 1)
    for pos in positions:
        u = locked[cards[pos]]
        if u < pos:
            delta[u] += 1
            delta[pos] -= 1
    for card in reserve:
        u = locked[card]
        if u < _NEVER:
            delta[u] += 1
    crowd = 0
    for step in delta:
        crowd += step
        if crowd > slots:
            return True
    return False

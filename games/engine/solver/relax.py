"""A relaxation of the last pass of `sultan`: positions it shows lost need no search."""

from games.engine.solver.model import Pass


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

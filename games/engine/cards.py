"""Cards, the layout and the deck, exactly as RULES.md lists them.

A card is its two-character name (`"TS"`); strings compare as fast as ints
here and need no translation at the edges.
"""

from typing import Final

RANKS: Final = "A23456789TJQK"
SUITS: Final = "CDHS"

# Foundation bases in reading order; index 4 (foundation 5) is the Sultan.
LAYOUT: Final = ("KD", "AH", "KD", "KS", "KH", "KS", "KC", "KH", "KC")
SULTAN: Final = 4
TOTAL_TO_PLAY: Final = 95


def _sequence(index: int, base: str) -> tuple[str, ...]:
    """The cards foundation `index` takes, in the order it takes them."""
    if index == SULTAN:
        return ()
    suit = base[1]
    first = 1 if base == "AH" else 0  # the ace of hearts starts at two
    return tuple(rank + suit for rank in RANKS[first:12])


FOUNDATION_SEQUENCES: Final = tuple(_sequence(i, base) for i, base in enumerate(LAYOUT))

# For each card, the foundations that can ever take it and how many cards must
# already be played there: a move test is then one tuple lookup per place.
CARD_PLACES: Final[dict[str, tuple[tuple[int, int], ...]]] = {
    rank + suit: tuple(
        (f, seq.index(rank + suit))
        for f, seq in enumerate(FOUNDATION_SEQUENCES)
        if rank + suit in seq
    )
    for suit in SUITS
    for rank in RANKS
}

# The same places by foundation: how many cards foundation f holds above its
# base when it takes `card` (absent: never). Playing a move asks about one
# foundation, and one lookup here costs less than a call scanning CARD_PLACES.
FOUNDATION_NEEDS: Final[tuple[dict[str, int], ...]] = tuple(
    {card: need for need, card in enumerate(seq)} for seq in FOUNDATION_SEQUENCES
)


def full_deck() -> list[str]:
    """104 cards: deck 1 then deck 2, suits C D H S, ranks A to K."""
    return [rank + suit for _deck in (1, 2) for suit in SUITS for rank in RANKS]


def deal_cards() -> list[str]:
    """The 95 cards left once the layout is taken out, in list order."""
    cards = full_deck()
    for base in LAYOUT:
        cards.remove(base)  # list.remove takes the first occurrence, as the rules say
    return cards


def foundation_top(index: int, played: int) -> str:
    return FOUNDATION_SEQUENCES[index][played - 1] if played else LAYOUT[index]


def foundation_cards(index: int, played: int) -> tuple[str, ...]:
    """Every card the foundation holds, base first."""
    return (LAYOUT[index], *FOUNDATION_SEQUENCES[index][:played])

"""The four variants of RULES.md and what sets them apart."""

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    slots: int
    # sultan: an emptied slot takes the stock's top at once; pysolfc: the
    # player fills empty slots from the waste (`wx`) instead.
    auto_refill: bool
    # sultan: a redeal shuffles the waste; pysolfc: it turns the waste over.
    shuffled_redeal: bool
    first_waste_card: bool


VARIANT_RULES: Final = {
    v.name: v
    for v in (
        Variant("sultan", 6, auto_refill=True, shuffled_redeal=True, first_waste_card=False),
        Variant("sultan-8", 8, auto_refill=True, shuffled_redeal=True, first_waste_card=False),
        Variant("pysolfc", 6, auto_refill=False, shuffled_redeal=False, first_waste_card=True),
        Variant("pysolfc-8", 8, auto_refill=False, shuffled_redeal=False, first_waste_card=True),
    )
}
VARIANTS: Final = tuple(VARIANT_RULES)
DEFAULT_VARIANT: Final = "sultan"
REDEALS: Final = 2
SEED_LIMIT: Final = 2**63


def variant_rules(name: str) -> Variant:
    try:
        return VARIANT_RULES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {name!r}; choose one of {', '.join(VARIANTS)}") from None


def check_seed(seed: int) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"a seed is a whole number from 0 to 2**63 - 1, got {seed!r}")
    return seed

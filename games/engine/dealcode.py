"""A deal's short code: its seed in Crockford's base 32, grouped in fours.

A race's seed is a number of up to 19 digits (`#4085300076190713165`), hard to
read aloud or compare at a glance; its code (`3HCF6-RS13-JHAD`, 13 symbols
at most) is the same number, written with the digits and the letters that are
not easily confused (no I, L, O, U). Reading is forgiving, as Crockford's
scheme intends: case, hyphens, O for 0 and I/L for 1 are all accepted.
docs/rules.md documents it; the full seed stays in exports and replays.
"""

from __future__ import annotations

from typing import Final

from games.engine.variants import check_seed

_SYMBOLS: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_READ: Final = {**{c: i for i, c in enumerate(_SYMBOLS)}, "O": 0, "I": 1, "L": 1}
_GROUP: Final = 4
# Short seeds are padded to one whole group: a code of two symbols could read as a
# card ("3S" is seed 121, not the three of spades).
_MIN_SYMBOLS: Final = 4


def deal_code(seed: int) -> str:
    """The code of a seed (0 to 2**63 - 1): at least four symbols, grouped in fours
    from the right (a lone leading symbol joins the first group)."""
    n = check_seed(seed)
    symbols = ""
    while True:
        n, digit = divmod(n, 32)
        symbols = _SYMBOLS[digit] + symbols
        if n == 0:
            break
    symbols = symbols.rjust(_MIN_SYMBOLS, "0")
    head = len(symbols) % _GROUP or _GROUP
    if head < _GROUP // 2 and len(symbols) > _GROUP:  # "3-HCF6-…" reads worse than "3HCF6-…"
        head += _GROUP
    groups = [symbols[:head]] + [symbols[i : i + _GROUP] for i in range(head, len(symbols), _GROUP)]
    return "-".join(groups)


def deal_from_code(code: str) -> int:
    """The seed a code names; ValueError for anything that is not one."""
    text = code.replace("-", "").strip().upper()
    if not text or any(c not in _READ for c in text):
        raise ValueError(f"not a deal code: {code!r}")
    n = 0
    for c in text:
        n = n * 32 + _READ[c]
    return check_seed(n)

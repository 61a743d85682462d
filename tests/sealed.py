"""Looking for a sealed deal's number in what a visitor was sent."""

from __future__ import annotations

import re


def shows_number(text: str, number: int | str) -> bool:
    """Does `text` hold `number` as a number of its own? Not as part of another (seed
    121 is not in "/games/1210/", an id the database handed out: a test that looked for
    the digits alone failed whenever the ids reached them)."""
    return re.search(rf"(?<!\d){re.escape(str(number))}(?!\d)", text) is not None

"""The search's schedule: rounds of capped and uncapped depth-first search.

A capped round limits the nodes spent below each redeal, so that one hopeless
last pass cannot eat the budget before other ways through the first passes
are tried; an uncapped round can finish a proof. `solver_search` runs them.
"""

from collections.abc import Iterator
from typing import Final, Literal, Protocol

# Nodes allowed below a redeal, by the redeals left after it. Found by trying:
# narrow enough that the first passes get many tries, wide enough that a good
# pass is seen through.
NARROW: Final = {1: 2_000, 0: 150}
WIDE: Final = {1: 20_000, 0: 1_500}
UNCAPPED: Final[dict[int, int]] = {}
# In a shaken round, the share of branching positions in the first passes
# whose best-looking move is tried last instead of first.
SHAKE: Final = 0.1
# Past this many positions, a search that has not decided goes on with wide
# caps (`late_rounds`). The published tables stop at a million positions, so
# what they hold is searched as before, node for node.
LATE_FROM: Final = 1_000_000
# The late shaken rounds' seeds: their own, apart from the early rounds'.
LATE_SHAKES: Final = 10_000

Round = tuple[dict[int, int], int, int | None]  # caps, shake seed (0: none), node budget
# A round's end: a win; nothing cut short, so a proof of loss; something cut
# short; the whole solve's budget spent.
Outcome = Literal["won", "lost", "cut", "out"]


class Searcher(Protocol):
    """What runs one round: the Python search (search.py) or the compiled one (_core.c)."""

    nodes: int

    def round(self, cap1: int, cap0: int, shake: int, budget: int, share: float) -> str: ...


def run_rounds(search: Searcher, shaken: bool) -> bool | None:
    """Run the rounds until one decides: True won, False lost, None out of budget.

    Both searches are driven from here, so they search the same rounds: caps
    are by the redeals left after a redeal (1 or 0), -1 for none.
    """
    schedule = rounds(shaken)
    late = False
    while True:
        caps, shake, budget = next(schedule)
        outcome = search.round(
            caps.get(1, -1), caps.get(0, -1), shake, -1 if budget is None else budget, SHAKE
        )
        if outcome == "won":
            return True
        if outcome == "lost":
            return False
        if outcome == "out":
            return None
        if not late and search.nodes >= LATE_FROM:
            late = True
            schedule = late_rounds(shaken)


def rounds(shaken: bool) -> Iterator[Round]:
    """The search's rounds, for as long as the budget lasts.

    Each cycle tries capped rounds to find a win, then one uncapped round to
    finish a proof, with a budget that doubles every cycle. The table of
    positions proved lost carries over, so a proof costs at most about twice
    what it would alone, and a plain capped round repeated goes on nearly
    where the last one stopped.

    Measured on deals 1-100. With 60,000 nodes each, many short restarts
    with a shaken order win 66 `pysolfc-8` and 25 `pysolfc` deals where long
    plain rounds won 47 and 13 (a shake of 5% or 25%, or restarts twice as
    long, did worse). In `sultan` shaking makes no difference (24 against
    25): any change early on changes the redeal shuffles wholesale. There,
    with 300,000 nodes, repeating the narrow plain round and keeping the
    uncapped rounds small won 40 deals, against 34 with wide rounds between.
    """
    yield NARROW, 0, 10_000 if shaken else 40_000
    cycle = 0
    while True:
        cycle += 1
        if shaken:
            for k in range(24):
                yield NARROW, 24 * cycle + k, 2_500 << (cycle // 2)
        # Wide caps pay off with the shaken restarts only.
        yield (WIDE if shaken else NARROW), 0, 60_000 << cycle
        yield UNCAPPED, 0, 10_000 << cycle


def late_rounds(
    shaken: bool, caps: dict[int, int] = WIDE, shaken_budget: int = 50_000
) -> Iterator[Round]:
    """The rounds from `LATE_FROM` on: wide caps, with uncapped rounds between.

    The narrow caps find the easy wins soonest; what a million positions have
    not decided needs its second passes seen further. Measured at a node
    budget, deals 1-100 and 101-200 (docs/solvability.md, "Wide caps past a
    million"): `sultan` at 6 million positions won 86 and 83 with the early
    rounds kept on, 92 and 90 with these; `pysolfc` at 5 million, 59 and 62
    with the early rounds, 74 and 74 with these (shaken, as its early
    rounds are). Wide caps without the shake did no better for `pysolfc`
    (57); shaken short rounds of 25,000 or 100,000 positions as well as
    50,000 (75, 75). `caps` and `shaken_budget` are there for bench/schedules.py
    to try others.
    """
    cycle = 0
    while True:
        if shaken:
            for k in range(24):
                yield caps, LATE_SHAKES + 100 * cycle + k, shaken_budget << (cycle // 2)
        else:
            yield caps, 0, 2_000_000 << cycle
        yield UNCAPPED, 0, 300_000 << cycle
        cycle += 1

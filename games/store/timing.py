"""The move-timing summary moderators read: bots give themselves away by flat timing.

A person's gaps between moves swing widely (thinking, then a quick run of
obvious plays): a coefficient of variation well above 0.5 is usual. A script
that sleeps a fixed time between moves has one near zero.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import overload

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

RUN_LENGTH = 10
# Below this coefficient of variation, over at least MIN_GAPS gaps, the timing
# is flat enough to deserve a moderator's look (not proof: a hint).
MACHINE_CV = 0.2
MIN_GAPS = 20


@dataclass(frozen=True, slots=True)
class Timing:
    moves: int
    mean_gap_s: float | None
    cv: float | None
    fastest_run_s: float | None  # the shortest time taken by RUN_LENGTH consecutive gaps
    run_length: int = RUN_LENGTH

    @property
    def machine_like(self) -> bool:
        return self.cv is not None and self.moves - 1 >= MIN_GAPS and self.cv < MACHINE_CV

    def summary(self) -> str:
        if self.mean_gap_s is None:
            return ngettext(
                "%(moves)d move: too few to time", "%(moves)d moves: too few to time", self.moves
            ) % {"moves": self.moves}
        text = ngettext(
            "%(moves)d move, mean gap %(gap).2f s",
            "%(moves)d moves, mean gap %(gap).2f s",
            self.moves,
        ) % {"moves": self.moves, "gap": self.mean_gap_s}
        if self.cv is not None:
            text += _(", CV %(cv).2f") % {"cv": self.cv}
        if self.fastest_run_s is not None:
            text += _(", fastest %(run)d moves in %(seconds).2f s") % {
                "run": self.run_length,
                "seconds": self.fastest_run_s,
            }
        if self.machine_like:
            text += _(" — flat, machine-like timing")
        return text


@overload
def elapsed_ms(moment: datetime, origin: datetime) -> int: ...
@overload
def elapsed_ms(moment: datetime | None, origin: datetime | None) -> int | None: ...
def elapsed_ms(moment: datetime | None, origin: datetime | None) -> int | None:
    """Whole milliseconds from `origin` to `moment`, never below zero; None when either
    is unknown. The one rule for a time on the site: a ranking's, a replay step's, a
    record's line (so a record's times are the replay's)."""
    if moment is None or origin is None:
        return None
    # Whole timedeltas, not float seconds: 0.016 s * 1000 is 15.999… as a float.
    return max(0, (moment - origin) // timedelta(milliseconds=1))


def summarize(accepted_at: Sequence[datetime]) -> Timing:
    """The summary of a log's acceptance times, in log order: the player's own events only
    (games.store.selectors.players_own), never the server's automatic ones."""
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(accepted_at)]
    if len(gaps) < 2:
        return Timing(len(accepted_at), gaps[0] if gaps else None, None, None)
    mean = statistics.fmean(gaps)
    cv = statistics.pstdev(gaps) / mean if mean > 0 else 0.0
    fastest = None
    if len(gaps) >= RUN_LENGTH:
        window = sum(gaps[:RUN_LENGTH])
        fastest = window
        for i in range(RUN_LENGTH, len(gaps)):
            window += gaps[i] - gaps[i - RUN_LENGTH]
            fastest = min(fastest, window)
    return Timing(len(accepted_at), mean, cv, fastest)


def gaps_s(accepted_at: Sequence[datetime]) -> list[float | None]:
    """Each event's gap since the one before it (None for the first)."""
    return [None] + [(b - a).total_seconds() for a, b in itertools.pairwise(accepted_at)]

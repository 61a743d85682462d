"""Move timing that a person does not produce: the signals, the thresholds, the verdict.

Pure functions over a game's move acceptance times (server clock, log order); the
words are in the active language (Django's gettext), for the admin's reader.
Three signals, each over a game long enough to judge (MIN_GAPS gaps):

- too fast: a share of gaps shorter than a person can see a card, decide and
  click, again and again;
- too regular: gaps whose spread is far below any person's, over the whole
  game or over a long run of it (a script sleeping a fixed or jittered time);
- too sustained: more moves in one minute than a person keeps up.

A verdict is a hint for a moderator, never a sanction by itself. The
thresholds were calibrated on scripted human-like and bot-like timings
(tests/anticheat/); docs/anticheat.md records them and the rates measured.
"""

from __future__ import annotations

import bisect
import itertools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from django.utils.translation import gettext as _

# Fewer gaps than this: no verdict. A short game says too little, and a bot
# that plays ten moves has not cheated much.
MIN_GAPS: Final = 30

# Too fast: a gap under FAST_GAP_S is a move decided and made within a tenth
# of a second of the previous one's acceptance (which already includes the
# network). People do it now and then (a double tap); not for a tenth of a game.
FAST_GAP_S: Final = 0.10
FAST_SHARE: Final = 0.10

# Too regular: the robust coefficient of variation of the gaps (interquartile
# range / 1.349, over the median), over the whole game (under GAME_CV) or over
# its steadiest run of REGULAR_RUN consecutive gaps (under REGULAR_CV). People
# mix thinking, quick runs and pauses: 0.2 at the very least over a game. A
# script sleeping a set time lands near 0 even with network jitter; robust,
# because its gaps include the server's rare slow answers. A run is judged
# more strictly: people's quick stretches (draws through the stock) are steady.
GAME_CV: Final = 0.15
REGULAR_RUN: Final = 60
REGULAR_CV: Final = 0.08

# Too sustained: more than SUSTAINED_MOVES moves within any SUSTAINED_WINDOW_S.
SUSTAINED_WINDOW_S: Final = 60.0
SUSTAINED_MOVES: Final = 200

_IQR_TO_SIGMA: Final = 1.349  # the interquartile range of a normal distribution, in sigmas


@dataclass(frozen=True, slots=True)
class Evidence:
    gaps: int
    median_gap_s: float
    fast_share: float  # share of gaps under FAST_GAP_S
    game_cv: float  # the robust CV of all the gaps
    steadiest_cv: float | None  # the lowest robust CV over REGULAR_RUN consecutive gaps
    steadiest_at: int | None  # the move that run starts after (its index, from 1)
    busiest_window: int  # the most moves within SUSTAINED_WINDOW_S

    def lines(self) -> list[str]:
        steadiest = (
            "—"
            if self.steadiest_cv is None
            else _("%(cv).3f (gaps %(first)s to %(last)s)")
            % {
                "cv": self.steadiest_cv,
                "first": self.steadiest_at,
                "last": (self.steadiest_at or 0) + REGULAR_RUN - 1,
            }
        )
        return [
            _("gaps judged: %(gaps)d, median %(median).3f s")
            % {"gaps": self.gaps, "median": self.median_gap_s},
            _("gaps under %(limit).2f s: %(share)s (flag above %(flag)s)")
            % {"limit": FAST_GAP_S, "share": f"{self.fast_share:.1%}", "flag": f"{FAST_SHARE:.0%}"},
            _("robust CV of all gaps: %(cv).3f (flag under %(flag)s)")
            % {"cv": self.game_cv, "flag": GAME_CV},
            _("steadiest %(run)d gaps, robust CV: %(cv)s (flag under %(flag)s)")
            % {"run": REGULAR_RUN, "cv": steadiest, "flag": REGULAR_CV},
            _("most moves in %(window).0f s: %(moves)d (flag above %(flag)d)")
            % {"window": SUSTAINED_WINDOW_S, "moves": self.busiest_window, "flag": SUSTAINED_MOVES},
        ]


@dataclass(frozen=True, slots=True)
class Verdict:
    suspicious: bool
    reasons: tuple[str, ...]
    evidence: Evidence | None  # None: too short to judge

    def summary(self) -> str:
        if self.evidence is None:
            return _("too short to judge")
        if not self.suspicious:
            return _("nothing unusual")
        return _("suspicious: %(reasons)s") % {"reasons": "; ".join(self.reasons)}


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (statistics' "inclusive" method)."""
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def _robust_cv_of_sorted(ordered: Sequence[float]) -> float:
    median = _quantile(ordered, 0.5)
    if median <= 0:
        return 0.0
    return (_quantile(ordered, 0.75) - _quantile(ordered, 0.25)) / _IQR_TO_SIGMA / median


def robust_cv(values: Sequence[float]) -> float:
    """Interquartile range over 1.349, divided by the median: the CV, robust to outliers."""
    return _robust_cv_of_sorted(sorted(values))


def _steadiest_run(gaps: Sequence[float]) -> tuple[float | None, int | None]:
    if len(gaps) < REGULAR_RUN:
        return None, None
    # One sorted window slid along the gaps: each step is an insert and a removal.
    window = sorted(gaps[:REGULAR_RUN])
    best, best_at = _robust_cv_of_sorted(window), 0
    for start in range(1, len(gaps) - REGULAR_RUN + 1):
        del window[bisect.bisect_left(window, gaps[start - 1])]
        bisect.insort(window, gaps[start + REGULAR_RUN - 1])
        cv = _robust_cv_of_sorted(window)
        if cv < best:
            best, best_at = cv, start
    return best, best_at + 1


def _busiest_window(times: Sequence[float]) -> int:
    busiest = 0
    for i, start in enumerate(times):
        end = bisect.bisect_right(times, start + SUSTAINED_WINDOW_S, lo=i)
        busiest = max(busiest, end - i)
    return busiest


def judge_seconds(times: Sequence[float]) -> Verdict:
    """The verdict on acceptance times in seconds (any origin), in log order."""
    gaps = [b - a for a, b in itertools.pairwise(times)]
    if len(gaps) < MIN_GAPS:
        return Verdict(False, (), None)
    fast_share = sum(1 for g in gaps if g < FAST_GAP_S) / len(gaps)
    game_cv = robust_cv(gaps)
    steadiest, steadiest_at = _steadiest_run(gaps)
    busiest = _busiest_window(times)
    evidence = Evidence(
        gaps=len(gaps),
        median_gap_s=statistics.median(gaps),
        fast_share=fast_share,
        game_cv=game_cv,
        steadiest_cv=steadiest,
        steadiest_at=steadiest_at,
        busiest_window=busiest,
    )
    reasons = []
    if fast_share > FAST_SHARE:
        reasons.append(
            _("%(share)s of gaps under %(limit).2f s")
            % {"share": f"{fast_share:.0%}", "limit": FAST_GAP_S}
        )
    if game_cv < GAME_CV:
        reasons.append(
            _("all %(gaps)d gaps with a robust CV of %(cv).3f") % {"gaps": len(gaps), "cv": game_cv}
        )
    elif steadiest is not None and steadiest < REGULAR_CV:
        reasons.append(
            _("%(run)d gaps in a row with a robust CV of %(cv).3f")
            % {"run": REGULAR_RUN, "cv": steadiest}
        )
    if busiest > SUSTAINED_MOVES:
        reasons.append(
            _("%(moves)d moves within %(window).0f s")
            % {"moves": busiest, "window": SUSTAINED_WINDOW_S}
        )
    return Verdict(bool(reasons), tuple(reasons), evidence)


def judge(accepted_at: Sequence[datetime]) -> Verdict:
    """The verdict on a game's acceptance times (games.models.Move.accepted_at, in seq order)."""
    if not accepted_at:
        return Verdict(False, (), None)
    origin = accepted_at[0]
    return judge_seconds([(t - origin).total_seconds() for t in accepted_at])

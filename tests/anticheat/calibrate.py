"""The calibration table of docs/anticheat.md: flag rates of games/moderation/anticheat.py on the
scripted timings of tests/anticheat/timings.py, and each signal's spread.

    .venv/bin/python -m tests.anticheat.calibrate --games 1000
"""

from __future__ import annotations

import argparse

from games.moderation.anticheat import judge_seconds
from tests.anticheat.timings import PEOPLE, PROGRAMS, ThinkStream, game_times


def rates(kind: type[ThinkStream], games: int, seed: int) -> dict[str, float]:
    flagged = fast = regular = sustained = 0
    lowest_cv, lowest_game_cv, highest_fast, busiest = float("inf"), float("inf"), 0.0, 0
    for i in range(games):
        verdict = judge_seconds(game_times(kind, seed + i))
        assert verdict.evidence is not None
        e = verdict.evidence
        flagged += verdict.suspicious
        fast += any("under" in r for r in verdict.reasons)
        regular += any("robust CV" in r for r in verdict.reasons)
        sustained += any("moves within" in r for r in verdict.reasons)
        lowest_cv = min(lowest_cv, e.steadiest_cv if e.steadiest_cv is not None else lowest_cv)
        lowest_game_cv = min(lowest_game_cv, e.game_cv)
        highest_fast = max(highest_fast, e.fast_share)
        busiest = max(busiest, e.busiest_window)
    return {
        "flagged": flagged / games,
        "fast": fast / games,
        "regular": regular / games,
        "sustained": sustained / games,
        "lowest game CV": lowest_game_cv,
        "lowest steadiest CV": lowest_cv,
        "highest fast share": highest_fast,
        "busiest minute": busiest,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        "| timing | games | flagged | too fast | too regular | too sustained |"
        " highest fast share | lowest game CV | lowest run CV | busiest minute |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, kind in {**PEOPLE, **PROGRAMS}.items():
        r = rates(kind, args.games, args.seed)
        print(
            f"| {name} | {args.games} | {r['flagged']:.1%} | {r['fast']:.1%} |"
            f" {r['regular']:.1%} | {r['sustained']:.1%} | {r['highest fast share']:.1%} |"
            f" {r['lowest game CV']:.3f} | {r['lowest steadiest CV']:.3f} | {r['busiest minute']} |"
        )


if __name__ == "__main__":
    main()

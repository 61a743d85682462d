"""Hints from real positions: how often the solver answers within a second.

    .venv/bin/python bench/hints.py [--every 10] [--games 8] [--max-seconds 1]
                                    [--engine c] [--variants sultan,...]

The positions are those of played games, every `--every`-th move: the
recorded games of the engine's golden data (tests/engine/data), and games of
the greedy player and of a random player on deals 20001 onwards (never used in
tuning the solver). A hint is answered when the solver says `won` (a move that
keeps a win) or `lost` (no win is left) within the time; `unknown` is a hint
refused. Prints, per variant and source, the positions tried, won, lost,
unknown and the share answered, and the median and slowest time. Seconds
are CPU seconds: the machine is shared.

`--portfolio S` measures a portfolio on two cores: every position the solver
left unknown is searched again, exactly (uncapped, the only search that can
prove a loss), for S CPU seconds, as a second worker beside the first would;
the `+port` column counts the positions that second search decided.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
from collections.abc import Iterator
from pathlib import Path

from games.engine import PLAYING, VARIANTS, GameState, apply, legal_moves, new_game
from games.engine.notation import UNDO
from games.engine.solver.batch import percentile
from games.engine.solver.compiled import Engine, exhaust
from games.engine.solver.greedy import greedy_move
from games.engine.solver.model import Position
from games.engine.solver.solve import solve

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "engine" / "data"
FIRST_DEAL = 20_001


def _positions(start: GameState, moves: list[str], every: int) -> Iterator[GameState]:
    """Every `every`-th position the game stood in; `undo` takes the last move back."""
    state = start
    history: list[GameState] = []
    for i, move in enumerate(moves):
        if i % every == 0 and state.status == PLAYING:
            yield state
        if move == UNDO:
            state = history.pop()
            continue
        history.append(state)
        state = apply(state, move)


def _played(seed: int, variant: str, player: str) -> tuple[GameState, list[str]]:
    start = state = new_game(seed, variant)
    rng = random.Random(seed)
    moves: list[str] = []
    while state.status == PLAYING:
        choice = greedy_move(state) if player == "greedy" else rng.choice(legal_moves(state))
        if choice is None:
            break
        moves.append(choice)
        state = apply(state, choice)
    return start, moves


def sources(variant: str, games: int, every: int) -> dict[str, list[GameState]]:
    recorded = json.loads((GOLDEN / f"golden_{variant}.json").read_text())["games"]
    found: dict[str, list[GameState]] = {"recorded": [], "greedy": [], "random": []}
    for game in recorded:
        found["recorded"].extend(_positions(new_game(game["seed"], variant), game["tokens"], every))
    for player in ("greedy", "random"):
        for seed in range(FIRST_DEAL, FIRST_DEAL + games):
            found[player].extend(_positions(*_played(seed, variant, player), every))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--max-seconds", type=float, default=1.0)
    parser.add_argument("--engine", choices=("c", "python"), default="c")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument(
        "--portfolio",
        type=float,
        default=0.0,
        metavar="S",
        help="search each unknown position exactly for S more CPU seconds (a second worker)",
    )
    args = parser.parse_args()
    engine: Engine = "c" if args.engine == "c" else "python"
    print(
        f"python {platform.python_version()} on {platform.machine()}, engine {engine}, "
        f"every {args.every}th position, {args.games} games a player, "
        f"max_seconds={args.max_seconds} (CPU), load {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'variant':<10} {'source':<9} {'positions':>9} {'won':>5} {'lost':>5} {'unk':>5} "
        f"{'answered':>9} {'median s':>9} {'max s':>7}"
        + (f" {'+port':>6} {'with port':>9}" if args.portfolio else "")
    )
    for variant in args.variants.split(","):
        total = answered = answered_port = 0
        for source, states in sources(variant, args.games, args.every).items():
            count = {"won": 0, "lost": 0, "unknown": 0}
            times: list[float] = []
            second = 0
            for state in states:
                started = time.thread_time()
                solution = solve(
                    state,
                    max_nodes=None,
                    max_seconds=args.max_seconds,
                    engine=engine,
                    cpu_clock=True,
                )
                times.append(time.thread_time() - started)
                count[solution.status] += 1
                if args.portfolio and solution.status == "unknown":
                    exact = exhaust(Position(state), None, None, args.portfolio, cpu_clock=True)
                    second += exact.outcome != "out"
            times.sort()
            decided = count["won"] + count["lost"]
            total += len(states)
            answered += decided
            print(
                f"{variant:<10} {source:<9} {len(states):>9} {count['won']:>5} "
                f"{count['lost']:>5} {count['unknown']:>5} "
                f"{100 * decided / max(len(states), 1):>8.1f}% "
                f"{percentile(times, 0.5):>9.3f} {times[-1] if times else 0:>7.3f}"
                + (
                    f" {second:>6} {100 * (decided + second) / max(len(states), 1):>8.1f}%"
                    if args.portfolio
                    else ""
                ),
                flush=True,
            )
            answered_port += decided + second
        print(
            f"{variant:<10} {'all':<9} {total:>9} answered {100 * answered / total:.1f}%"
            + (f", with the portfolio {100 * answered_port / total:.1f}%" if args.portfolio else "")
        )


if __name__ == "__main__":
    main()

"""Replay throughput of the rules engine against a naive baseline, same run.

The recorded games are fixed: a deterministic greedy player's games on deals
0..N-1 of every variant. The baseline is bench/baseline.py, a straightforward
list-based engine (lists copied on every move, status from the legal-move
list). tests/engine/naive.py, the independent reference the tests use (a deep
copy per move for undo, legality by trying all 91 tokens), is shown too.

    .venv/bin/python bench/engine.py [--deals 40] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import baseline
from games.engine import VARIANTS, apply, legal_moves, new_game, replay
from games.engine.rules import _deal
from tests.engine.naive import naive_replay

Game = tuple[int, str, list[str]]
Replayer = Callable[[int, str, list[str]], object]


def record_games(deals: int) -> list[Game]:
    games: list[Game] = []
    for variant in VARIANTS:
        for seed in range(deals):
            state, tokens = new_game(seed, variant), []
            while state.status == "playing":
                moves = legal_moves(state)
                plays = [m for m in moves if m not in ("draw", "redeal")]
                token = plays[0] if plays else moves[0]
                state = apply(state, token)
                tokens.append(token)
            games.append((seed, variant, tokens))
    return games


def time_replays(
    games: list[Game], replayers: list[Replayer], repeat: int, cold: bool = False
) -> list[list[float]]:
    """Best-of-`repeat` seconds for each game's whole replay, for each replayer.

    The replayers take turns, a whole pass over the games each, `repeat`
    times: a neighbour's load on this shared machine falls on all of them
    alike, so their ratio holds, and each pass still runs on warm caches.
    """
    best = [[float("inf")] * len(games) for _ in replayers]
    for _ in range(repeat):
        for i, replayer in enumerate(replayers):
            for g, (seed, variant, tokens) in enumerate(games):
                if cold:
                    _deal.cache_clear()
                start = time.perf_counter()
                replayer(seed, variant, tokens)
                best[i][g] = min(best[i][g], time.perf_counter() - start)
    return best


def report(name: str, games: list[Game], seconds: list[float]) -> float:
    moves = sum(len(tokens) for _, _, tokens in games)
    rate = moves / sum(seconds)
    print(
        f"{name:<28} {rate:>12,.0f} moves/s   per game: "
        f"median {statistics.median(seconds) * 1e3:7.3f} ms   max {max(seconds) * 1e3:7.3f} ms"
    )
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="deals per variant")
    parser.add_argument("--repeat", type=int, default=5, help="runs per game; the best counts")
    args = parser.parse_args()

    games = record_games(args.deals)
    for seed, variant, tokens in games:
        final = baseline.replay(seed, variant, tokens)
        final["foundations"] = [pile[-1] for pile in final["foundations"]]
        assert final == replay(seed, variant, tokens).as_dict(), (seed, variant)
    lengths = [len(tokens) for _, _, tokens in games]
    print(
        f"{len(games)} recorded games ({args.deals} deals x {len(VARIANTS)} variants), "
        f"{statistics.mean(lengths):.0f} moves on average, {max(lengths)} at most\n"
    )
    engine_seconds, base_seconds = time_replays(games, [replay, baseline.replay], args.repeat)
    engine = report("engine (deal cached)", games, engine_seconds)
    (cold,) = time_replays(games, [replay], args.repeat, cold=True)
    report("engine (deal shuffled)", games, cold)
    base = report("list-based baseline", games, base_seconds)
    reference = games[:: max(1, len(games) // 8)]  # the reference is slow: a sample
    (naive_seconds,) = time_replays(reference, [naive_replay], 1)
    naive = report("test reference (sample)", reference, naive_seconds)
    print(f"\nengine / list-based baseline: {engine / base:.1f}x")
    print(f"engine / test reference:     {engine / naive:.0f}x")


if __name__ == "__main__":
    main()

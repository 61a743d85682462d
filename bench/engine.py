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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import baseline
from games.engine import VARIANTS, apply, legal_moves, new_game, replay
from games.engine.rules import _deal
from tests.engine.naive import naive_replay

Game = tuple[int, str, list[str]]


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


def time_replays(games: list[Game], replayer, repeat: int, cold: bool = False) -> list[float]:
    """Best-of-`repeat` seconds for each game's whole replay."""
    per_game = []
    for seed, variant, tokens in games:
        best = float("inf")
        for _ in range(repeat):
            if cold:
                _deal.cache_clear()
            start = time.perf_counter()
            replayer(seed, variant, tokens)
            best = min(best, time.perf_counter() - start)
        per_game.append(best)
    return per_game


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
    engine = report("engine (deal cached)", games, time_replays(games, replay, args.repeat))
    report("engine (deal shuffled)", games, time_replays(games, replay, args.repeat, cold=True))
    base = report("list-based baseline", games, time_replays(games, baseline.replay, args.repeat))
    reference = games[:: max(1, len(games) // 8)]  # the reference is slow: a sample
    naive = report("test reference (sample)", reference, time_replays(reference, naive_replay, 1))
    print(f"\nengine / list-based baseline: {engine / base:.1f}x")
    print(f"engine / test reference:     {engine / naive:.0f}x")


if __name__ == "__main__":
    main()

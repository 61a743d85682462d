"""Regenerate the golden data in tests/engine/data/ with the naive reference.

Run from the repository root:  .venv/bin/python tests/engine/make_golden.py

For every variant it writes ``golden_<variant>.json`` holding, per seed, the
dealt reserve, the first ten stock cards and (pysolfc) the first waste card,
and a set of recorded games (tokens, checkpoints and the final state).
test_golden.py checks both that the engine reproduces these files and that
this script still produces them byte for byte.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `tests.engine` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.engine.naive import VARIANT_RULES, NaiveGame, greedy_move

DATA_DIR = Path(__file__).resolve().parent / "data"
SEEDS = [0, 1, 7, 42, 2024, 12345, 999_999_937, 2**62 + 12_345, 2**63 - 1]
CHECKPOINT_EVERY = 50

# More games, as (deal seed, random player's seed or None for greedy): wins,
# and (sultan-8, 22) empties stock and waste while the reserve can still play.
EXTRA_GAMES: dict[str, list[tuple[int, int | None]]] = {
    "sultan": [(18, 23)],  # greedy won no sultan deal of seeds 0..599
    "sultan-8": [(121, None), (22, 3)],
    "pysolfc": [],  # seeds 1 and 12345 of SEEDS already win
    "pysolfc-8": [],
}


def path_for(variant: str) -> Path:
    return DATA_DIR / f"golden_{variant}.json"


def hand_check_seed_0_sultan() -> list[str]:
    """RULES.md steps 1-4 inline, separate from naive.py: seed 0's reserve."""
    cards = [rank + suit for _deck in (1, 2) for suit in "CDHS" for rank in "A23456789TJQK"]
    for layout_card in ["KD", "AH", "KD", "KS", "KH", "KS", "KC", "KH", "KC"]:
        cards.remove(layout_card)
    random.Random(0).shuffle(cards)
    return cards[:6]


class Recorder:
    """Plays tokens on a naive game and keeps the log and its checkpoints."""

    def __init__(self, seed: int, variant: str) -> None:
        self.game = NaiveGame(seed, variant)
        self.tokens: list[str] = []
        self.checkpoints: list[dict[str, Any]] = []

    def play(self, token: str) -> None:
        self.game.play(token)
        self.tokens.append(token)
        if token == "redeal" or len(self.tokens) % CHECKPOINT_EVERY == 0:
            self.checkpoints.append({"after": len(self.tokens), "state": self.game.as_dict()})

    def record(self, name: str) -> dict[str, Any]:
        return {
            "name": name,
            "seed": self.game.seed,
            "tokens": self.tokens,
            "checkpoints": self.checkpoints,
            "final": self.game.as_dict(),
        }


def greedy_game(seed: int, variant: str) -> dict[str, Any]:
    recorder = Recorder(seed, variant)
    while (move := greedy_move(recorder.game)) is not None:
        recorder.play(move)
    return recorder.record("greedy")


def random_player_game(seed: int, variant: str, player_seed: int) -> dict[str, Any]:
    """A seeded random player: a random foundation/reserve move 97% of the time."""
    rng = random.Random(player_seed)
    recorder = Recorder(seed, variant)
    while legal := recorder.game.legal_moves():
        plays = [move for move in legal if move not in ("draw", "redeal")]
        if plays and rng.random() < 0.97:
            move = rng.choice(plays)
        elif "draw" in legal:
            move = "draw"
        elif "redeal" in legal:
            move = "redeal"
        else:
            move = rng.choice(legal)
        recorder.play(move)
    return recorder.record(f"random-player-{player_seed}")


def greedy_game_with_undo(seed: int, variant: str) -> dict[str, Any]:
    """Greedy play sprinkled with `undo`: single and double take-backs, a take-back
    of every redeal and of the first sultan refill, and one past the game's end."""
    recorder = Recorder(seed, variant)
    game = recorder.game
    moves = 0
    refill_undone = False
    while (move := greedy_move(game)) is not None:
        stock_before = len(game.stock)
        recorder.play(move)
        moves += 1
        refilled = move[0] in "abcdefgh" and len(game.stock) < stock_before
        if move == "redeal" or moves % 7 == 3 or (refilled and not refill_undone):
            refill_undone = refill_undone or refilled
            recorder.play("undo")
            recorder.play(move)
        elif moves % 23 == 5 and len(game.history) >= 2:
            recorder.play("undo")
            recorder.play("undo")  # takes back the move before, not the undo
            for _ in range(2):
                again = greedy_move(game)
                assert again is not None
                recorder.play(again)
    last = recorder.tokens[-1]
    recorder.play("undo")  # back into play from the finished game
    recorder.play(last)
    return recorder.record("greedy-with-undo")


def build_golden(variant: str) -> dict[str, Any]:
    deals = []
    games = []
    for seed in SEEDS:
        state = NaiveGame(seed, variant).as_dict()
        is_pysolfc = VARIANT_RULES[variant][1]
        deals.append(
            {
                "seed": seed,
                "reserve": state["reserve"],
                "stock_first10": state["stock"][:10],
                "stock_count": len(state["stock"]),
                "waste_first": state["waste"][0] if is_pysolfc else None,
            }
        )
        games.append(greedy_game(seed, variant))
    games.append(greedy_game_with_undo(42, variant))
    games.append(greedy_game_with_undo(2**63 - 1, variant))
    for seed, player_seed in EXTRA_GAMES[variant]:
        if player_seed is None:
            games.append(greedy_game(seed, variant))
        else:
            games.append(random_player_game(seed, variant, player_seed))
    check_coverage(variant, games)
    return {
        "variant": variant,
        "generator": "tests/engine/make_golden.py (naive reference, tests/engine/naive.py)",
        "deals": deals,
        "games": games,
    }


def check_coverage(variant: str, games: list[dict[str, Any]]) -> None:
    """The golden games must exercise undo, both redeals, a win and a loss."""
    assert any("undo" in game["tokens"] for game in games), variant
    assert any(game["tokens"].count("redeal") >= 2 for game in games), variant
    statuses = {game["final"]["status"] for game in games}
    assert statuses == {"won", "lost"}, (variant, statuses)
    states = [point["state"] for game in games for point in game["checkpoints"]]
    if VARIANT_RULES[variant][1]:
        assert any(any(t[0] == "w" and t[1].isalpha() for t in g["tokens"]) for g in games)
    else:  # a slot emptied with an empty stock stays empty after a redeal
        assert any(None in s["reserve"] and s["stock"] for s in states), variant


def render(data: dict[str, Any]) -> str:
    """Indented JSON with every flat list (cards, tokens) on one line."""
    text = json.dumps(data, indent=1)
    text = re.sub(
        r"\[([^\[\]{}]*)\]",
        lambda m: "[" + ", ".join(part.strip() for part in m.group(1).split(",")) + "]",
        text,
    )
    assert json.loads(text) == data
    return text + "\n"


def main() -> None:
    naive_reserve = NaiveGame(0, "sultan").as_dict()["reserve"]
    assert hand_check_seed_0_sultan() == naive_reserve, (hand_check_seed_0_sultan(), naive_reserve)
    print("seed 0 sultan reserve (hand check agrees):", " ".join(naive_reserve))
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    for variant in VARIANT_RULES:
        path_for(variant).write_text(render(build_golden(variant)))
        print("wrote", path_for(variant))


if __name__ == "__main__":
    main()

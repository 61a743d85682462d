"""Drivers for page tests: clients as a browser would be, and deals found by the engine."""

from __future__ import annotations

import itertools
import json
from functools import cache
from pathlib import Path
from typing import Any

from django.test import Client

from games.engine import legal_moves, new_game
from games.models import Player

GOLDEN = Path(__file__).resolve().parents[1] / "engine" / "data"
_ids = itertools.count(1)


def client_for(player: Player) -> Client:
    """A client signed in as an account player (force_login: no password hashing)."""
    client = Client()
    assert player.user is not None
    client.force_login(player.user)
    return client


def post_json(client: Client, url: str, body: Any) -> Any:
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(url, data=data, content_type="application/json")


def start_practice(client: Client, deal: int | str = 7, variant: str = "sultan") -> dict[str, Any]:
    response = post_json(client, "/api/practice", {"deal": str(deal), "variant": variant})
    assert response.status_code in (200, 201), response.content
    data: dict[str, Any] = response.json()
    return data


def move(client: Client, game_id: int, token: str, seq: int, move_id: str | None = None) -> Any:
    body = {"token": token, "id": move_id or f"m-{next(_ids)}", "seq": seq}
    return post_json(client, f"/api/games/{game_id}/moves", body)


def play(client: Client, game_id: int, tokens: list[str], seq: int = 0) -> int:
    """Play tokens through the API; returns the seq after the last one."""
    for token in tokens:
        response = move(client, game_id, token, seq)
        assert response.status_code == 200, (token, response.content)
        seq = response.json()["seq"]
    return seq


@cache
def deal_opening_with_foundation_move(variant: str = "sultan") -> tuple[int, str]:
    """The lowest deal whose first position already has a foundation move, and that move."""
    for seed in range(1, 10_000):
        moves = [m for m in legal_moves(new_game(seed, variant)) if m[-1].isdigit()]
        if moves:
            return seed, sorted(moves)[0]
    raise AssertionError("no deal with an opening foundation move")


@cache
def winning_log(variant: str = "sultan") -> tuple[int, tuple[str, ...]]:
    """A won game from the engine's golden data: a real log that ends in a win."""
    from games.engine import replay

    data = json.loads((GOLDEN / f"golden_{variant}.json").read_text())
    for game in data["games"]:
        if replay(game["seed"], variant, game["tokens"]).status == "won":
            return int(game["seed"]), tuple(game["tokens"])
    raise AssertionError(f"no won game in the golden data for {variant}")

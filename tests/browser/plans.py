"""Plans for browser tests, worked out with the engine: which deal, which moves.

Tests then play them through the page as a person would, and check what the
page shows against what the engine says.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from games.engine import GameState, apply, legal_moves, new_game
from tests.live import WebClient, receive_until


@dataclass(frozen=True)
class Plan:
    seed: int
    tokens: tuple[str, ...]  # draws and foundation plays, in order

    def foundation_plays(self) -> list[int]:
        """Indices of the tokens that play a card to a foundation."""
        return [i for i, t in enumerate(self.tokens) if t[-1].isdigit()]


def _greedy(state: GameState) -> str:
    legal = legal_moves(state)
    return next((m for m in sorted(legal) if m[-1].isdigit()), "draw" if "draw" in legal else "")


@cache
def foundation_plan(plays: int = 4, within: int = 18, variant: str = "sultan") -> Plan:
    """The first deal where greedy play makes `plays` foundation plays in `within` moves."""
    for seed in itertools.count(1):
        state = new_game(seed, variant)
        tokens: list[str] = []
        while len(tokens) < within:
            token = _greedy(state)
            if not token:
                break
            tokens.append(token)
            state = apply(state, token)
            if sum(t[-1].isdigit() for t in tokens) == plays:
                return Plan(seed, tuple(tokens))
    raise AssertionError("unreachable")


def finished_race(base: str, ws_base: str, moves: int = 4) -> dict[str, Any]:
    """A two-racer race driven over HTTP and the race socket, to its end.

    Returns {"code", "games": {nickname: game id}}. Runs in a thread of its
    own so its event loop never meets Playwright's.
    """
    result: dict[str, Any] = {}
    error: list[BaseException] = []

    def run() -> None:
        try:
            result.update(asyncio.run(_race(base, ws_base, moves)))
        except BaseException as exc:  # handed to the test below
            error.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=60)
    if error:
        raise error[0]
    return result


async def _race(base: str, ws_base: str, moves: int) -> dict[str, Any]:
    alice, bob = WebClient(base), WebClient(base)
    _, url = alice.post("/races/new", {"nickname": "Amina", "time_limit": 5, "seats": 2})
    code = url.rstrip("/").rsplit("/", 1)[1]
    bob.post(f"/r/{code}/join", {"nickname": "Bilal"})
    sockets = [
        await alice.connect(ws_base, f"/ws/races/{code}/"),
        await bob.connect(ws_base, f"/ws/races/{code}/"),
    ]
    try:
        for ws in sockets:
            await receive_until(ws, "snapshot")
        await sockets[0].send(json.dumps({"type": "start"}))
        snapshots = [await receive_until(ws, "snapshot") for ws in sockets]
        starts = datetime.fromisoformat(snapshots[0]["race"]["starts_at"])
        now = datetime.fromisoformat(snapshots[0]["server_time"])
        time.sleep(max(0.0, (starts - now).total_seconds()) + 0.2)
        games = {}
        for k, (ws, snap) in enumerate(zip(sockets, snapshots, strict=True)):
            view = snap["you"]["game"]["view"]
            games[["Amina", "Bilal"][k]] = snap["you"]["game"]["id"]
            for n in range(moves * (k + 1)):
                legal = view["legal"]
                token = next((m for m in sorted(legal) if m[-1].isdigit()), "draw")
                await ws.send(
                    json.dumps(
                        {"type": "move", "token": token, "id": f"{k}-{n}", "seq": view["seq"]}
                    )
                )
                view = (await receive_until(ws, "ack"))["view"]
                time.sleep(0.08)  # a little race time between moves, for the chart
            await ws.send(json.dumps({"type": "resign", "id": f"{k}-r", "seq": view["seq"]}))
            await receive_until(ws, "ack")
        await receive_until(sockets[0], "end")
        return {"code": code, "games": games}
    finally:
        for ws in sockets:
            await ws.close()


def play_and_resign(page: Any, deal: int, tokens: list[str]) -> int:
    """From the practice page: play `tokens` then resign, with the page's own API calls."""
    page.goto(f"/practice/{deal}/")
    page.wait_for_selector(".sultan-board .sb-table")
    game_id: int = page.evaluate(
        """async ([deal, tokens]) => {
          const headers = {"Content-Type": "application/json",
                           "X-CSRFToken": document.cookie.match(/csrftoken=([^;]+)/)[1]};
          const post = async (url, body) =>
            (await fetch(url, {method: "POST", headers, body: JSON.stringify(body)})).json();
          const start = await post("/api/practice", {deal: String(deal)});
          let seq = start.view.seq;
          for (const [i, token] of [...tokens, "resign"].entries()) {
            seq = (await post(`/api/games/${start.game.id}/moves`, {token, id: `t${i}`, seq})).seq;
          }
          return start.game.id;
        }""",
        [deal, tokens],
    )
    return game_id


def open_board(
    new_page: Any, path: str, width: int = 1280, height: int = 800, **options: Any
) -> Any:
    """A fresh browser on a game page, once its board is drawn."""
    page = new_page(width, height, **options)
    page.goto(path)
    page.wait_for_selector(".sultan-board .sb-table")
    return page


def wait_seq(page: Any, seq: int) -> None:
    """Wait until the practice log holds `seq` events (undos too) and nothing is on its way."""
    page.wait_for_function(
        "n => document.getElementById('practice').dataset.seq === String(n)"
        " && !document.querySelector('.sultan-board .is-pending')",
        arg=seq,
    )

"""The house bot's race client: docs/protocol.md, spoken over a websocket, nothing more.

It holds a play-scoped token of the house bot's account and knows only what
a racer's socket tells it, plus, at the solver's strengths, its deal (see
think.py). It marks itself ready in the lobby, waits for the start, then
plays one move at a time: sends it, waits for its `ack`, waits its pace,
and goes on until its game or the race is over. Run by `house.py` in a
thread of its own (the websocket is blocking: no event loop at all).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from games.bots.think import greedy_pick

logger = logging.getLogger(__name__)

PING_EVERY_S: Final = 20.0
ANSWER_WAIT_S: Final = 5.0
# A race lasts at most a day; a bot whose race never starts gives up sooner.
LOBBY_PATIENCE_S: Final = 3600.0
Planner = Callable[[list[str]], list[str]]


@dataclass(slots=True)
class BotGame:
    """What the client knows of its own game: the view, the log's tokens, the plan."""

    seq: int = 0
    legal: list[str] = field(default_factory=list)
    status: str = "playing"
    moves: list[str] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)
    replanned: bool = False

    def take_view(self, view: dict[str, Any]) -> None:
        self.seq = view["seq"]
        self.legal = list(view.get("legal") or [])
        self.status = view.get("status", "playing")


@dataclass(slots=True)
class RaceClient:
    url: str  # ws(s)://host/ws/races/<code>/
    token: str
    gap_ms: int
    planner: Planner
    started: bool = False
    ended: bool = False
    game: BotGame | None = None
    sent: int = 0
    sent_at: float = 0.0

    def run(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"}
        with connect(self.url, additional_headers=headers, open_timeout=10) as ws:
            deadline = time.monotonic() + LOBBY_PATIENCE_S
            while not self.ended and time.monotonic() < deadline:
                if self.game is not None and self.started and self.game.status == "playing":
                    self._play(ws)
                else:
                    self._hear(ws, PING_EVERY_S)

    # Listening --------------------------------------------------------------

    def _send(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        self.sent_at = time.monotonic()
        ws.send(json.dumps(message))

    def _hear(self, ws: ClientConnection, timeout: float) -> dict[str, Any] | None:
        try:
            message: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
        except TimeoutError:
            # The client's half of the heartbeat: a frame at least every 20 s.
            if time.monotonic() - self.sent_at >= PING_EVERY_S:
                self._send(ws, {"type": "ping"})
            return None
        except ConnectionClosed:
            self.ended = True
            return None
        kind = message.get("type")
        if kind == "snapshot":
            self._snapshot(ws, message)
        elif kind == "end":
            self.ended = True
        return message

    def _snapshot(self, ws: ClientConnection, snapshot: dict[str, Any]) -> None:
        race = snapshot["race"]
        if race["status"] == "finished":
            self.ended = True
            return
        if race["status"] == "lobby":
            me = snapshot["you"]["player"]
            ready = any(r["player"] == me and r["ready"] for r in snapshot["racers"])
            if not ready and not race["public"]:
                self._send(ws, {"type": "ready", "ready": True})
            return
        mine = snapshot["you"].get("game")
        if mine is None:
            return
        if self.game is None:
            self.game = BotGame()
            # Moves before the countdown's end are refused: the bot plans during it,
            # then waits out what is left of it on the server's clock.
            lead = _seconds_between(snapshot.get("server_time"), race.get("starts_at"))
            go = time.monotonic() + lead
            self.game.plan = self.planner([])
            self._wait(ws, go - time.monotonic())
        self.game.take_view(mine["view"])
        self.started = True

    def _wait(self, ws: ClientConnection, seconds: float) -> None:
        until = time.monotonic() + seconds
        while not self.ended and (left := until - time.monotonic()) > 0:
            self._hear(ws, min(left, PING_EVERY_S))

    # Playing --------------------------------------------------------------

    def _play(self, ws: ClientConnection) -> None:
        game = self.game
        assert game is not None
        token = self._choose(game)
        if token is None:
            game.status = "over"
            return
        self.sent += 1
        move_id = f"b{self.sent}"
        move = {"type": "move", "token": token, "id": move_id, "seq": game.seq}
        self._send(ws, move)
        answer = self._answer(ws, move, move_id)
        if answer is None:
            return
        if answer["type"] == "ack":
            game.moves += [answer["token"], *answer.get("automatic", [])]
            game.take_view(answer["view"])
            if game.plan and game.plan[0] == token:
                game.plan.pop(0)
            if answer.get("automatic"):
                game.plan = []  # the server's moves left the plan: plan afresh below
                game.replanned = False
            self._wait(ws, self.gap_ms / 1000)
        elif answer["code"] == "too_fast":
            self._wait(ws, self.gap_ms / 1000 or 0.3)
        elif answer["code"] in ("finished", "too_late", "forbidden"):
            game.status = "over"
        else:
            # Out of step (a stale seq): a snapshot brings the view back.
            game.plan = []
            self._send(ws, {"type": "sync", "v": 0, "force": True})

    def _choose(self, game: BotGame) -> str | None:
        if game.plan and game.plan[0] not in game.legal:
            game.plan = []
        if not game.plan and not game.replanned:
            game.replanned = True
            game.plan = self.planner(list(game.moves))
        if game.plan and game.plan[0] in game.legal:
            return game.plan[0]
        return greedy_pick(game.legal)

    def _answer(
        self, ws: ClientConnection, move: dict[str, Any], move_id: str
    ) -> dict[str, Any] | None:
        """The move's ack or reject; the same move sent again (same id: the server answers
        a retry with the first answer) when none comes in time."""
        asked = time.monotonic()
        while not self.ended:
            message = self._hear(ws, ANSWER_WAIT_S)
            if message and message.get("type") in ("ack", "reject") and message["id"] == move_id:
                return message
            if time.monotonic() - asked >= ANSWER_WAIT_S:
                self._send(ws, move)
                asked = time.monotonic()
        return None


def _seconds_between(now: str | None, then: str | None) -> float:
    if not now or not then:
        return 0.0
    return (datetime.fromisoformat(then) - datetime.fromisoformat(now)).total_seconds()

"""Racers for socket tests: a session per racer, a communicator per socket.

The application under test is the real ASGI application (origin check,
sessions, routing) on the configured channel layer and database.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore

from games.accounts.selectors import SESSION_PLAYER_KEY
from games.accounts.services import player_create_guest
from games.engine import GameState, apply, legal_moves, new_game
from games.models import Player, Race
from sultan_site.asgi import application

# A deal where a sensible player wins and a careless one loses (sultan-8).
VARIANT, SEED = "sultan-8", 121
CARD = re.compile(r"^[A23456789TJQK][CDHS]$")
_ids = itertools.count(1)


def good_policy(legal: list[str]) -> str:
    plays = [
        m for m in legal if m not in ("draw", "redeal") and not (m[0] == "w" and m[1].isalpha())
    ]
    return plays[0] if plays else legal[0]


def careless_policy(legal: list[str]) -> str:
    for choice in ("draw", "redeal"):
        if choice in legal:
            return choice
    return legal[-1]


def recorded_game(policy: Callable[[list[str]], str], seed: int = SEED) -> list[str]:
    state = new_game(seed, VARIANT)
    tokens = []
    while state.status == "playing":
        token = policy(legal_moves(state))
        state = apply(state, token)
        tokens.append(token)
    return tokens


def guest_session(nickname: str) -> tuple[Player, str]:
    player = player_create_guest(nickname=nickname)
    session = SessionStore()
    session[SESSION_PLAYER_KEY] = player.pk
    session.create()
    assert session.session_key is not None
    return player, session.session_key


@dataclass
class Client:
    """One racer's (or spectator's) socket, keeping every frame it received."""

    communicator: WebsocketCommunicator
    frames: list[dict[str, Any]] = field(default_factory=list)
    seq: int = 0

    async def receive(self, timeout: float = 5) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await self.communicator.receive_from(timeout=timeout))
        self.frames.append(message)
        return message

    async def receive_versioned(self, timeout: float = 5) -> dict[str, Any]:
        """The next frame that is not a presence: who is here carries no version, and
        through Redis a connect's presence may arrive after later frames."""
        while True:
            message = await self.receive(timeout)
            if message["type"] != "presence":
                return message

    async def receive_until(self, kind: str, timeout: float = 5) -> dict[str, Any]:
        while True:
            message = await self.receive(timeout)
            if message["type"] == kind:
                return message

    async def send(self, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        await self.communicator.send_to(text_data=text)

    async def move(self, token: str, **extra: Any) -> dict[str, Any]:
        """Send a move and return its answer (ack or reject), keeping broadcasts seen meanwhile."""
        move_id = f"m{next(_ids)}"
        await self.send({"type": "move", "token": token, "id": move_id, "seq": self.seq, **extra})
        while True:
            message = await self.receive()
            if message["type"] in ("ack", "reject") and message["id"] == move_id:
                if message["type"] == "ack":
                    self.seq = message["seq"]
                return message

    async def drain(self, timeout: float = 0.3) -> list[dict[str, Any]]:
        got = []
        while not await self.communicator.receive_nothing(timeout=timeout):
            got.append(await self.receive())
        return got

    async def close(self) -> None:
        await self.communicator.disconnect()


async def connect(race: Race, session_key: str | None, origin: str = "http://127.0.0.1") -> Client:
    headers = [(b"origin", origin.encode())]
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    communicator = WebsocketCommunicator(application, f"/ws/races/{race.code}/", headers=headers)
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    client = Client(communicator)
    snapshot = await client.receive()
    assert snapshot["type"] == "snapshot"
    game = snapshot["you"]["game"]
    client.seq = game["view"]["seq"] if game else 0
    return client


db = sync_to_async


def progress_entries(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every racer's state the progress frames carried, in the order received."""
    return [racer for f in frames if f["type"] == "progress" for racer in f["racers"]]


def versions(frame: dict[str, Any]) -> list[int]:
    """The race versions a frame covers: a progress frame's `vs`, else its `v`."""
    if "vs" in frame:
        return list(frame["vs"])
    return [frame["v"]] if isinstance(frame.get("v"), int) else []


def state_cards(state: GameState) -> set[str]:
    return set(state.stock)

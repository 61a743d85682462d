"""The race socket's messages: parsing what clients send, shaping what they get.

docs/protocol.md is the reference; this module is its executable half. Client
messages are checked here field by field, so the consumer only ever sees a
well-formed `ClientMessage`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from games.common import fields
from games.common.errors import BadInput
from games.engine import GameState, apply_with_events, finish_line, legal_moves, player_view

MAX_FRAME_BYTES: Final = 4096
CLIENT_TYPES: Final = frozenset(
    {"move", "resign", "ready", "leave", "start", "rematch", "sync", "ping"}
)
MAX_ID: Final = 64
MAX_TOKEN: Final = 8


class BadMessage(BadInput):
    """A frame that is not a valid client message: answered with an error, nothing changes."""


@dataclass(frozen=True, slots=True)
class ClientMessage:
    type: str
    token: str = ""
    id: str = ""
    seq: int = 0
    ready: bool = False
    version: int = 0
    game: int | None = None  # optional on moves: the game the client believes it plays
    force: bool = False  # on sync: a snapshot even when the version is current


def parse_client_message(text: str | None) -> ClientMessage:
    if text is None:
        raise BadMessage("bad_frame", "send text frames holding JSON objects")
    try:
        data = fields.json_object(text, limit=MAX_FRAME_BYTES, what="frame")
        return _message(data)
    except BadInput as bad:
        raise BadMessage(bad.code, bad.message) from None


def _message(data: dict[str, Any]) -> ClientMessage:
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise BadMessage("unknown_type", f"unknown message type {str(kind)[:40]!r}")
    if kind in ("move", "resign"):
        token = "resign" if kind == "resign" else fields.text(data, "token", MAX_TOKEN)
        game = fields.whole(data, "game") if data.get("game") is not None else None
        move_id = fields.text(data, "id", MAX_ID)
        return ClientMessage(
            kind, token=token, id=move_id, seq=fields.whole(data, "seq"), game=game
        )
    if kind == "ready":
        return ClientMessage(kind, ready=fields.flag(data, "ready", True))
    if kind == "sync":
        force = fields.flag(data, "force", False)
        return ClientMessage(kind, version=fields.whole(data, "v"), force=force)
    return ClientMessage(kind)


def own_view(state: GameState, seq: int, moves: int | None = None) -> dict[str, Any]:
    """The player's view (RULES.md) with what the board needs: legal moves, the seq, the
    moves on the board (not taken back; the seq without undos) and whether Finish can play
    the game out (games.engine.safe, which never reads an unseen card)."""
    return {
        **player_view(state),
        "legal": legal_moves(state),
        "seq": seq,
        "moves": seq if moves is None else moves,
        "finishable": finish_line(state) is not None,
    }


def line_steps(state: GameState, line: Sequence[str]) -> list[dict[str, Any]]:
    """A line of moves as the board plays it: each move's events and the view after it.

    For lines a player may see whole: a hint's shown part, a finished game's analysis.
    """
    steps: list[dict[str, Any]] = []
    for i, move in enumerate(line, start=1):
        state, events = apply_with_events(state, move)
        steps.append({"seq": i, "token": move, "events": events, "view": own_view(state, i)})
    return steps


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))

"""The race socket's messages: parsing what clients send, shaping what they get.

docs/protocol.md is the reference; this module is its executable half. Client
messages are checked here field by field, so the consumer only ever sees a
well-formed `ClientMessage`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from games.engine import GameState, legal_moves, player_view

MAX_FRAME_BYTES: Final = 4096
CLIENT_TYPES: Final = frozenset(
    {"move", "resign", "ready", "leave", "start", "rematch", "sync", "ping"}
)
MAX_ID: Final = 64
MAX_TOKEN: Final = 8


class BadMessage(Exception):
    """A frame that is not a valid client message: answered with an error, nothing changes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


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
    if len(text.encode()) > MAX_FRAME_BYTES:
        raise BadMessage("too_big", f"a frame holds at most {MAX_FRAME_BYTES} bytes")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise BadMessage("bad_json", "the frame is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("bad_json", "a message is a JSON object")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise BadMessage("unknown_type", f"unknown message type {str(kind)[:40]!r}")
    if kind in ("move", "resign"):
        token = "resign" if kind == "resign" else _text(data, "token", MAX_TOKEN)
        game = _int(data, "game") if data.get("game") is not None else None
        return ClientMessage(
            kind, token=token, id=_text(data, "id", MAX_ID), seq=_int(data, "seq"), game=game
        )
    if kind == "ready":
        ready = data.get("ready", True)
        if not isinstance(ready, bool):
            raise BadMessage("bad_message", "'ready' is true or false")
        return ClientMessage(kind, ready=ready)
    if kind == "sync":
        force = data.get("force", False)
        if not isinstance(force, bool):
            raise BadMessage("bad_message", "'force' is true or false")
        return ClientMessage(kind, version=_int(data, "v"), force=force)
    return ClientMessage(kind)


def _text(data: dict[str, Any], field: str, limit: int) -> str:
    value = data.get(field)
    if not isinstance(value, str) or not 0 < len(value) <= limit:
        raise BadMessage("bad_message", f"'{field}' is a string of 1 to {limit} characters")
    return value


def _int(data: dict[str, Any], field: str) -> int:
    value = data.get(field)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise BadMessage("bad_message", f"'{field}' is a whole number from 0")
    return value


def own_view(state: GameState, seq: int) -> dict[str, Any]:
    """The player's view (RULES.md) with what the board needs: legal moves and the seq."""
    return {**player_view(state), "legal": legal_moves(state), "seq": seq}


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))

"""The race socket's messages: parsing what clients send, shaping what they get.

docs/protocol.md is the reference; this module is its executable half. Client
messages are checked here field by field and parsed into a frozen type each
(`Move`, `Resign`, `Ready`, …: `ClientMessage`), so the consumer only ever sees
a well-formed one and dispatches on its type.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from django.utils.translation import gettext as _

from games.common import fields
from games.common.errors import BadInput
from games.engine import GameState, apply_with_events, finish_line, legal_moves, player_view

MAX_FRAME_BYTES: Final = 4096
MAX_ID: Final = 64
MAX_TOKEN: Final = 8


class BadMessage(BadInput):
    """A frame that is not a valid client message: answered with an error, nothing changes."""


# Client → server: one frozen type per message (docs/protocol.md §3), so the
# consumer dispatches with `match` and a handler sees only its own fields.


@dataclass(frozen=True, slots=True)
class Move:
    token: str
    id: str
    seq: int
    game: int | None = None  # optional: the game the client believes it plays
    kind: ClassVar[str] = "move"


@dataclass(frozen=True, slots=True)
class Resign:
    """A move whose token is always `resign`: answered like a move (ack or reject)."""

    id: str
    seq: int
    game: int | None = None
    kind: ClassVar[str] = "resign"

    @property
    def token(self) -> str:
        return "resign"


@dataclass(frozen=True, slots=True)
class Ready:
    ready: bool = True
    kind: ClassVar[str] = "ready"


@dataclass(frozen=True, slots=True)
class Leave:
    kind: ClassVar[str] = "leave"


@dataclass(frozen=True, slots=True)
class Close:
    kind: ClassVar[str] = "close"


@dataclass(frozen=True, slots=True)
class Start:
    kind: ClassVar[str] = "start"


@dataclass(frozen=True, slots=True)
class Rematch:
    kind: ClassVar[str] = "rematch"


@dataclass(frozen=True, slots=True)
class Sync:
    version: int
    force: bool = False  # a snapshot even when the version is current
    kind: ClassVar[str] = "sync"


@dataclass(frozen=True, slots=True)
class Ping:
    kind: ClassVar[str] = "ping"


PlayMessage = Move | Resign
LobbyMessage = Ready | Leave | Close | Start | Rematch
ClientMessage = Move | Resign | Ready | Leave | Close | Start | Rematch | Sync | Ping


def parse_client_message(text: str | None) -> ClientMessage:
    if text is None:
        raise BadMessage("bad_frame", _("send text frames holding JSON objects"))
    try:
        data = fields.json_object(text, limit=MAX_FRAME_BYTES, what=_("frame"))
        return _message(data)
    except BadInput as bad:
        raise BadMessage(bad.code, bad.message) from None


def _message(data: dict[str, Any]) -> ClientMessage:
    # Fields are read in the order the previous parser read them, so that a
    # frame with several bad fields is refused for the same one.
    match data.get("type"):
        case "move":
            token = fields.text(data, "token", MAX_TOKEN)
            game = _game(data)
            return Move(token, fields.text(data, "id", MAX_ID), fields.whole(data, "seq"), game)
        case "resign":
            game = _game(data)
            return Resign(fields.text(data, "id", MAX_ID), fields.whole(data, "seq"), game)
        case "ready":
            return Ready(fields.flag(data, "ready", True))
        case "sync":
            force = fields.flag(data, "force", False)
            return Sync(fields.whole(data, "v"), force)
        case "leave":
            return Leave()
        case "close":
            return Close()
        case "start":
            return Start()
        case "rematch":
            return Rematch()
        case "ping":
            return Ping()
        case kind:
            raise BadMessage(
                "unknown_type", _("unknown message type %(type)r") % {"type": str(kind)[:40]}
            )


def _game(data: dict[str, Any]) -> int | None:
    return fields.whole(data, "game") if data.get("game") is not None else None


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


# Server → client. Every message a socket sends is built by one of these; the
# names follow docs/protocol.md §4.


def ack(
    *,
    move_id: str,
    seq: int,
    token: str,
    duplicate: bool,
    events: list[Any],
    view: dict[str, Any],
    version: int | None,
    automatic: list[str] | None = None,
) -> dict[str, Any]:
    """A move's answer. `automatic`: the moves the server appended with it (or, for
    Finish, instead of it), whose events are in `events` marked `"automatic": true`."""
    return {
        "type": "ack",
        "id": move_id,
        "v": version,
        "seq": seq,
        "token": token,
        "duplicate": duplicate,
        "events": events,
        "automatic": automatic or [],
        "view": view,
    }


def reject(*, move_id: str, code: str, message: str, seq: int) -> dict[str, Any]:
    return {"type": "reject", "id": move_id, "code": code, "message": message, "seq": seq}


def error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def snapshot(
    *,
    version: int,
    server_time: str | None,
    race: dict[str, Any],
    you: dict[str, Any],
    racers: list[dict[str, Any]],
    results: list[dict[str, Any]] | None,
    ghost: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`ghost`: a challenge's recorded game as race views over time (never a card)."""
    return {
        "type": "snapshot",
        "v": version,
        "server_time": server_time,
        "race": race,
        "you": you,
        "racers": racers,
        "results": results,
        "ghost": ghost,
    }


def lobby(*, version: int, racers: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "lobby", "v": version, "racers": racers}


def progress(*, version: int, player: int, seq: int, view: dict[str, Any]) -> dict[str, Any]:
    """One racer's accepted move, as the race's history keeps it (one version)."""
    return {"type": "progress", "v": version, "player": player, "seq": seq, "progress": view}


def progress_racer(event: dict[str, Any]) -> str:
    """The part of a progress frame one event contributes, encoded once for every socket."""
    return encode({"player": event["player"], "seq": event["seq"], "progress": event["progress"]})


def progress_frame(versions: list[int], racers: list[str]) -> str:
    """Several progress events in one frame: the versions it covers, and for each racer
    that changed, their latest state (`racers` as encoded by `progress_racer`)."""
    return f'{{"type":"progress","vs":{encode(versions)},"racers":[{",".join(racers)}]}}'


def started(*, version: int) -> dict[str, Any]:
    """The start, as the history keeps it: each socket turns it into its own snapshot."""
    return {"type": "started", "v": version}


def end(*, version: int, race: dict[str, Any], results: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "end", "v": version, "race": race, "results": results}


def closed(*, version: int) -> dict[str, Any]:
    """A lobby closed before its start (by its host, or left alone by its invitations)."""
    return {"type": "closed", "v": version}


def rematch(*, version: int, code: str) -> dict[str, Any]:
    return {"type": "rematch", "v": version, "code": code}


def presence(*, here: list[int], at_ms: int) -> dict[str, Any]:
    """Who has a socket open: outside the versioned stream, the latest `at_ms` wins."""
    return {"type": "presence", "here": here, "at": at_ms}


def synced(*, version: int) -> dict[str, Any]:
    return {"type": "synced", "v": version}


def pong(*, version: int) -> dict[str, Any]:
    return {"type": "pong", "v": version}


def heartbeat() -> dict[str, Any]:
    return {"type": "heartbeat"}


def encode(message: Any) -> str:
    return json.dumps(message, separators=(",", ":"))

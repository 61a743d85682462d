"""The race socket's database calls, each run in a worker thread by `db`
(games/common/db_threads.py).

The consumer (`games/races/consumer.py`) holds a race's id, not its row: each call
here reads what it needs afresh, so no socket ever acts on a stale race. Each
client message is one call here (`socket_*`), which decides its refusals
(raising a `Refused`) and returns what its answer is built from: the consumer
only parses, calls and sends.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from games.accounts.selectors import player_for_session
from games.bots.pace import bot_pace_refusal
from games.models import Player, Race, RaceStatus
from games.races import protocol
from games.races.fanout import ProgressBuffer
from games.races.moves import RaceMove, race_move
from games.races.protocol import Close, Leave, LobbyMessage, PlayMessage, Ready, Rematch, Start
from games.races.selectors import (
    race_by_code,
    race_game_id,
    race_history,
    race_role,
    race_snapshot,
)
from games.races.services import (
    RaceRefused,
    race_close,
    race_connection,
    race_leave,
    race_rematch,
    race_set_ready,
    race_start,
)
from games.store.append import MoveRejected


def connect_info(code: str, user: Any, session: Any) -> tuple[Race, Player | None, bool] | None:
    """The race, who is connecting, and whether they race in it; None: no such race."""
    race = race_by_code(code=code)
    if race is None:
        return None
    player = player_for_session(user=user, session=session)
    return race, player, race_role(race=race, player=player) == "racer"


def race_started(race_id: int) -> bool:
    return Race.objects.filter(pk=race_id).exclude(status=RaceStatus.LOBBY).exists()


def presence(race_id: int, player: Player | None, delta: int) -> bool:
    """Count a racer's socket in or out; True when they are seated (the race is told)."""
    if player is None:
        return False
    return race_connection(race=Race.objects.get(pk=race_id), player=player, delta=delta)


# One call per client message ------------------------------------------------


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A socket's snapshot and what the socket keeps of it."""

    message: dict[str, Any]
    racer: bool
    game_id: int | None  # the racer's game, once the race has started
    ends_at: datetime | None  # when a running race runs out of time (races/clock.py)


def socket_snapshot(*, race_id: int, player: Player | None) -> Snapshot:
    """The snapshot a socket sends on opening, at the start and after leaving a lobby."""
    message = race_snapshot(race_id=race_id, player=player)
    you, race = message["you"], message["race"]
    running = race["status"] == RaceStatus.RUNNING and race["ends_at"] is not None
    return Snapshot(
        message,
        racer=you["role"] == "racer",
        game_id=you["game"]["id"] if you["game"] is not None else None,
        ends_at=datetime.fromisoformat(race["ends_at"]) if running else None,
    )


def socket_move(
    *, race_id: int, player: Player | None, game_id: int | None, move: PlayMessage
) -> RaceMove:
    """A move or a resignation; refused with `MoveRejected` (answered with a `reject`)."""
    if player is None:
        raise MoveRejected("forbidden", _("join the race to play"), 0)
    if game_id is None:
        game_id = race_game_id(race_id=race_id, player=player)
    if game_id is None:
        if race_started(race_id):
            raise MoveRejected("forbidden", _("you have no game in this race"), 0)
        raise MoveRejected("not_started", _("the race has not started"), 0)
    if move.game is not None and move.game != game_id:
        raise MoveRejected("forbidden", _("this is not your game"), 0)
    # A bot's move sooner than the bots' minimum gap is refused (games/bots/pace.py).
    if slow := bot_pace_refusal(player=player, game_id=game_id, token=move.token):
        raise slow
    return race_move(
        race_id=race_id,
        game_id=game_id,
        player=player,
        token=move.token,
        client_move_id=move.id,
        expected_seq=move.seq,
    )


def socket_lobby(
    *, race_id: int, player: Player | None, message: LobbyMessage, counted: bool
) -> Snapshot | None:
    """Ready, leave, close, start or rematch: the service announces the change; refused with
    a `Refused` (answered with an `error`). A leave is answered with the socket's
    snapshot as a spectator's, its presence counted out if it was `counted` in."""
    if player is None:
        raise _nobody(message)
    race = Race.objects.get(pk=race_id)
    match message:
        case Leave() | Close():
            # A host's close gives up every seat, theirs too: the socket stays open as a
            # spectator's, as after a leave.
            (race_leave if isinstance(message, Leave) else race_close)(race=race, player=player)
            if counted:
                race_connection(race=race, player=player, delta=-1)
            return socket_snapshot(race_id=race_id, player=player)
        case Start():
            race_start(race=race, player=player)
        case Rematch():
            race_rematch(race=race, player=player)
        case Ready(ready=ready):
            race_set_ready(race=race, player=player, ready=ready)
    return None


def _nobody(message: LobbyMessage) -> RaceRefused:
    """A lobby change asked for by a socket that is nobody's (no session)."""
    match message:
        case Start():
            return RaceRefused("not_host", _("only the host starts the race"))
        case Close():
            return RaceRefused("not_host", _("only the host closes the lobby"))
        case Rematch():
            return RaceRefused("not_racer", _("only racers of this race ask for a rematch"))
        case _:
            return RaceRefused("not_racer", _("you are not in this race"))


def socket_sync(*, race_id: int, player: Player | None, after: int, force: bool) -> list[str]:
    """The frames that bring a client at version `after` up to date: what was announced
    after it, as it was announced (progress coalesced), then `synced`; a snapshot when
    the history cannot (or `force`)."""
    history = None if force else race_history(race_id=race_id, after=after)
    if history is None:
        return [protocol.encode(race_snapshot(race_id=race_id, player=player))]
    frames: list[str] = []
    pending = ProgressBuffer()
    for version, kind, payload in history.events:
        if kind == "progress":
            event = json.loads(payload)
            pending.add(version, event["player"], event["seq"], protocol.progress_racer(event))
            continue
        frames += _taken(pending)
        frames.append(payload)
    frames += _taken(pending)
    frames.append(protocol.encode(protocol.synced(version=history.version)))
    return frames


def _taken(pending: ProgressBuffer) -> list[str]:
    text = pending.take()
    return [] if text is None else [text]

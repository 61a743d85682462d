"""A player's event, planned: the events the log gets for it, and where they lead.

The one home of the plan, for practice (games/store/services.game_append_move)
and races (games/races/moves.race_move) alike: Finish becomes the moves that
play the game out, an undo takes back the automatic moves after the player's
last move with it, and with automatic moves on the safe moves that follow a
move are appended with it. The rules are the engine's (games.engine.safe,
games.engine.positions.advance); how many undos one undo is, the log's
(automatic.undos_for). Nothing is written here.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine import UNDO, IllegalMove, InvalidMove, safe_run
from games.engine.positions import LOG_EVENTS, TIMEOUT, advance
from games.i18n import messages
from games.store.append import MoveRejected, OpenLog, Step, log_position, mark_automatic
from games.store.automatic import FINISH, finish_moves, undos_for


def move_plan(*, log: OpenLog, token: str, automatic_moves: bool) -> list[Step]:
    """The steps `token` becomes on the open log, each with the position after it.

    Raises MoveRejected (invalid, illegal) for an event the rules refuse. In a
    race game (no take-backs) `automatic_moves` is the race's setting, whatever
    the racer asked; in practice, the player's.
    """
    current = log.seq
    if token == TIMEOUT:
        raise MoveRejected("invalid", _("timeout is the server's event, not a move"), current)
    take_backs = log.take_backs
    position = log_position(log.game, current)
    planned = [(token, False)]
    if token == FINISH:
        line = finish_moves(position.state)
        if not line:
            raise MoveRejected(
                "illegal", _("Moves remain that are yours to choose: no Finish yet"), current
            )
        planned = [(move, True) for move in line]
    elif token == UNDO and take_backs:
        # Whatever the setting now: the log says which moves the server made.
        planned += [(UNDO, True)] * (undos_for(log.game.id) - 1)
    first, server = planned[0]
    try:
        after, events = advance(position, first, take_backs=take_backs)
    except InvalidMove:
        raise MoveRejected("invalid", messages.not_a_move(token), current) from None
    except IllegalMove as error:
        raise MoveRejected("illegal", messages.refused_move(error), current) from None
    steps = [Step(first, server, after, mark_automatic(events) if server else events)]
    if automatic_moves and token not in LOG_EVENTS and token != FINISH:
        planned += [(move, True) for move in safe_run(after.state)]
    for move, _server in planned[1:]:
        after, more = advance(after, move, take_backs=take_backs)
        steps.append(Step(move, True, after, mark_automatic(more)))
    return steps

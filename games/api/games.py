"""A game: its record and its replay, through the replay gate (games.replays.access).

The gate is the one place that decides whether a game's cards may be shown,
so a sealed deal (a race still running, a daily deal's day not over) stays
sealed here as on the pages: refused, and nothing of it computed.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router

from games.api import auth
from games.api.auth import PUBLIC, ApiRefused, viewer_of
from games.api.schemas import GameRecordOut, game_row, refusals
from games.models import Game, RaceStatus
from games.replays.access import HIDDEN, IN_PLAY, game_for_replay, replay_access
from games.replays.selectors import game_replay
from games.store.selectors import game_record, race_opens_when

router = Router(tags=["games"])
CLOSED_RESPONSES = refusals(400, 401, 403, 404, 429)


def _open_game(request: HttpRequest, game_id: int) -> Game:
    """The game when the viewer may see its cards; else the gate's refusal."""
    viewer = viewer_of(request)
    game = game_for_replay(game_id=game_id)
    access = replay_access(game=game, viewer=viewer.player, moderator=viewer.moderator)
    if access == HIDDEN or game is None:
        raise ApiRefused(404, "not_found", _("no game here"))
    if access == IN_PLAY:
        raise ApiRefused(403, "in_play", _("finish or resign this game first"))
    if access != "open":
        if game.race is not None and game.race.status == RaceStatus.FINISHED:
            when = race_opens_when(race=game.race)
            raise ApiRefused(
                403, "sealed", _("this deal stays sealed until %(when)s") % {"when": when}
            )
        raise ApiRefused(403, "race_running", _("this race is still running"))
    return game


@router.get(
    "/games/{game_id}",
    response={200: GameRecordOut, **CLOSED_RESPONSES},
    auth=auth.read,
    summary="A game's record",
    openapi_extra=PUBLIC,
)
def game_detail(request: HttpRequest, game_id: int) -> GameRecordOut:
    """The game and its text record (docs/record-format.md), once its deal is open
    to the viewer: a race game's when its race is over and unsealed, a practice
    game's to its player when it is over."""
    game = _open_game(request, game_id)
    viewer = viewer_of(request)
    record = game_record(game=game, viewer=viewer.player, as_moderator=viewer.moderator)
    return GameRecordOut(game=game_row(game, viewer.player), record=record)


@router.get(
    "/games/{game_id}/replay",
    response={200: dict[str, Any], **CLOSED_RESPONSES},
    auth=auth.read,
    summary="A game's replay",
    openapi_extra=PUBLIC,
)
def game_replay_data(request: HttpRequest, game_id: int) -> dict[str, Any]:
    """Every step of the game as its player saw it, and, for a race game, every
    racer's race view over race time: the replay page's own data."""
    return game_replay(game=_open_game(request, game_id))

"""What a play-scoped token does over HTTP: become a bot, take a seat. The race itself is
played over the race socket with the same token (docs/protocol.md, "Programs")."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router

from games.api import auth
from games.api.auth import ApiRefused, viewer_of
from games.api.schemas import BotOut, SeatOut, player_ref, refusals
from games.bots.rules import BotRefused, player_mark_bot
from games.common.errors import Refused
from games.races.selectors import race_by_code
from games.races.services import race_join

router = Router(tags=["play"])
REFUSALS = refusals(400, 401, 403, 404, 409, 429)


@router.post(
    "/bot/account/upgrade",
    response={200: BotOut, **REFUSALS},
    auth=auth.play,
    summary="Become a bot",
)
def bot_upgrade(request: HttpRequest) -> BotOut:
    """Mark the token's account as a bot, for good: shown as BOT everywhere, rated
    among bots only (unless a person invites it), its moves held to the bots' pace.
    Only an account that has not raced yet."""
    player = viewer_of(request).player
    assert player is not None
    try:
        return BotOut(player=player_ref(player_mark_bot(player=player)))
    except BotRefused as refused:
        raise ApiRefused(409, refused.code, refused.message) from None


@router.post(
    "/races/{code}/join", response={200: SeatOut, **REFUSALS}, auth=auth.play, summary="Take a seat"
)
def join(request: HttpRequest, code: str) -> SeatOut:
    """Seat the token's account in the race's lobby (or a public race's countdown);
    then open the race socket with the same token."""
    player = viewer_of(request).player
    assert player is not None
    found = race_by_code(code=code)
    if found is None:
        raise ApiRefused(404, "not_found", _("no race has this code"))
    try:
        version = race_join(race=found, player=player)
    except Refused as refused:  # the lobby's rules, or another room's (a tournament's queue)
        raise ApiRefused(409, refused.code, refused.message) from None
    return SeatOut(race=found.code, version=version, socket=f"/ws/races/{found.code}/")

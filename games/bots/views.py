"""`POST /r/<code>/bot`: the host of a private race's lobby adds the house bot.

Nothing of the request but its player and the form says where the bot goes: its
socket's address is games/bots/address.py's, never the request's Host."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.accounts.selectors import player_for_request
from games.bots.house import house_bot_add
from games.common.errors import Refused
from games.common.http import client_address, notice
from games.races.selectors import race_by_code


@require_POST
def race_add_bot(request: HttpRequest, code: str) -> HttpResponse:
    race = race_by_code(code=code)
    back = [(_("Back to the race"), f"/r/{code}/")]
    if race is None:
        return notice(
            request, status=404, title=_("No such race"), message=_("No race has this link.")
        )
    player = player_for_request(request)
    if player is None:
        return notice(
            request,
            status=403,
            title=_("Not your race"),
            message=_("only the host adds a bot"),
            actions=back,
        )
    try:
        house_bot_add(
            race=race,
            by=player,
            strength=request.POST.get("strength", ""),
            pace=request.POST.get("pace", ""),
            address=client_address(request),
        )
    except Refused as refused:
        status = getattr(refused, "status", 400)
        return notice(
            request, status=status, title=_("No bot added"), message=refused.message, actions=back
        )
    return redirect("games:race", code=race.code)

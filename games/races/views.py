"""Race pages over HTTP: create a race, open its link, take a seat."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from games.accounts.selectors import player_for_request
from games.accounts.services import GuestRefused, player_identify
from games.bots.think import PACES, STRENGTHS
from games.common.http import notice
from games.fairness.rules import ranking_for, ranking_notice
from games.i18n.labels import variant_label
from games.models import Player, Race, RaceEntry, RaceStatus
from games.races.selectors import race_by_code, race_role, race_seats_left
from games.races.services import RaceRefused, race_close, race_join


def no_such_race(request: HttpRequest) -> HttpResponse:
    """The site's own page for an unknown race link, rendered here (not raised): under
    DEBUG a raised Http404 shows Django's debug page instead of the site's."""
    return notice(
        request,
        status=404,
        title=_("No such race"),
        message=_(
            "No race has this link. Check the code with whoever sent it, or start a race yourself."
        ),
        actions=[(_("Home"), "/")],
    )


@require_GET
@ensure_csrf_cookie
def race_page(request: HttpRequest, code: str) -> HttpResponse:
    race = race_by_code(code=code)
    if race is None:
        return no_such_race(request)
    player = player_for_request(request)
    role = race_role(race=race, player=player)
    return render(request, "race.html", _page_context(request, race, player, role))


@require_POST
def race_join_view(request: HttpRequest, code: str) -> HttpResponse:
    race = race_by_code(code=code)
    if race is None:
        return no_such_race(request)
    try:
        player = player_identify(request=request, nickname=request.POST.get("nickname"))
    except GuestRefused as refused:
        return _race_error(request, race, refused.message)
    if player is None:
        return _race_error(request, race, _("Pick a nickname to join, or log in."))
    try:
        race_join(race=race, player=player)  # a new seat is announced with it
    except RaceRefused as refused:
        return _race_error(request, race, refused.message)
    return redirect("games:race", code=race.code)


@require_POST
def race_close_view(request: HttpRequest, code: str) -> HttpResponse:
    """The host closes their private lobby by a form (the page's button, without its
    socket): the same service as the socket's `close`, so every racer seated is told."""
    race = race_by_code(code=code)
    if race is None:
        return no_such_race(request)
    player = player_for_request(request)
    if player is None:
        return _race_error(request, race, _("only the host closes the lobby"))
    try:
        race_close(race=race, player=player)
    except RaceRefused as refused:
        return _race_error(request, race, refused.message)
    return redirect("games:race", code=race.code)


def _race_error(request: HttpRequest, race: Race, message: str) -> HttpResponse:
    player = player_for_request(request)
    context = _page_context(request, race, player, race_role(race=race, player=player))
    context["error"] = message
    return render(request, "race.html", context, status=400)


def _page_context(
    request: HttpRequest, race: Race, player: Player | None, role: str
) -> dict[str, Any]:
    """What the page draws before its socket opens: the settings never change."""
    minutes, seconds = divmod(race.time_limit_s, 60)
    return {
        "race": race,
        "player": player,
        "role": role,
        "in_lobby": race.status == RaceStatus.LOBBY,
        "closed": race.status == RaceStatus.FINISHED and race.starts_at is None,
        "variant_label": variant_label(race.variant),
        "time_limit_label": _time_limit_label(minutes, seconds),
        # An open deal's number is public from the start; a secret one only in the results.
        "deal_label": _("Open deal #%(deal)s") % {"deal": race.seed}
        if race.open_deal
        else (_("Secret winnable deal") if race.winnable_deal else _("Secret deal")),
        "share_url": request.build_absolute_uri(f"/r/{race.code}/"),
        # The lobby's "add a bot", and a public lobby's word on its filler (games/bots).
        "bot_addable": race.status == RaceStatus.LOBBY
        and not race.public
        and not RaceEntry.objects.filter(
            race=race, left_at__isnull=True, player__is_bot=True
        ).exists()
        and race_seats_left(race=race) > 0,
        "bot_strengths": STRENGTHS,
        "bot_paces": PACES,
        "bot_fill_s": settings.SULTAN_BOT_FILL_AFTER_S,
        "unranked": _unranked(race, player),
    }


def _unranked(race: Race, player: Player | None) -> str:
    """A rated race's racer (or one about to join) who has seen its deal is told so."""
    if not race.rated or player is None:
        return ""
    game = race.games.filter(player=player).select_related("unranked").first()
    if game is not None:
        judged = getattr(game, "unranked", None)
        return ranking_notice(judged.reason) if judged is not None else ""
    return ranking_for(player=player, seed=race.seed).notice


def _time_limit_label(minutes: int, seconds: int) -> str:
    label = ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
    if seconds:
        label += " " + ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}
    return label

"""Tournament pages: /tournaments/ (the lists, and a form for account players),
/t/<code>/ (join, pause, the live standings; after the end the podium and each
player's races with their replays). docs/pages.md."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from games.accounts.selectors import player_for_request
from games.accounts.services import GuestRefused, player_identify
from games.common.errors import Refused
from games.common.http import error_response, notice
from games.engine import VARIANTS
from games.i18n.labels import variant_label
from games.models import Player, Race
from games.tournaments.models import Tournament, TournamentEntry
from games.tournaments.selectors import (
    FINISHED,
    tournament_by_code,
    tournament_phase,
    tournament_races_played,
    tournament_standings,
    tournaments_listed,
)
from games.tournaments.services import (
    TournamentRefused,
    tournament_create,
    tournament_display_name,
    tournament_join,
    tournament_pause,
    tournaments_schedule_daily,
)

DURATIONS = (10, 20, 30, 45, 60, 90, 120)
# A race that started less than this ago is one its racer was just seated in (a page drawn
# again as the tournament started, a slow load): the tournament page takes them there.
JUST_SEATED_S = 15
STARTS_IN = (0, 5, 10, 30, 60)


def _no_such_tournament(request: HttpRequest) -> HttpResponse:
    return notice(
        request,
        status=404,
        title=_("No such tournament"),
        message=_("No tournament has this link. Check it with whoever sent it."),
        actions=[(_("Tournaments"), "/tournaments/")],
    )


@require_GET
def tournaments_page(request: HttpRequest) -> HttpResponse:
    # The site's daily arenas are made here when missing (and by the arena loop).
    tournaments_schedule_daily()
    lists = tournaments_listed()
    return render(request, "tournaments.html", _list_context(request, lists=lists))


def _list_context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    low, high = settings.TOURNAMENT_MINUTES
    return {
        "player": player_for_request(request),
        "variants": [(v, variant_label(v)) for v in VARIANTS],
        "durations": sorted({m for m in (low, *DURATIONS) if low <= m <= high}),
        "starts_in": STARTS_IN,
        "seats": range(2, 9),
        "label": tournament_display_name,
        **extra,
    }


@require_POST
def tournament_new(request: HttpRequest) -> HttpResponse:
    player = player_for_request(request)
    try:
        if player is None:
            raise TournamentRefused("not_account", _("log in to create a tournament"))
        tournament = tournament_create(
            creator=player,
            name=request.POST.get("name", ""),
            variant=request.POST.get("variant", ""),
            minutes=_whole(request.POST.get("minutes")),
            seat_limit=_whole(request.POST.get("seats")),
            automatic_moves=request.POST.get("automatic") == "on",
            public=request.POST.get("public") == "on",
            starts_in_min=_whole(request.POST.get("starts_in")),
        )
    except TournamentRefused as refused:
        context = _list_context(request, lists=tournaments_listed(), error=refused.message)
        return render(request, "tournaments.html", context, status=400)
    return redirect("games:tournament", code=tournament.code)


def _whole(raw: str | None) -> int:
    try:
        return int(raw or "")
    except ValueError:
        raise TournamentRefused("bad_request", _("fill in every field")) from None


@require_GET
@ensure_csrf_cookie
def tournament_page(request: HttpRequest, code: str) -> HttpResponse:
    tournament = tournament_by_code(code=code)
    if tournament is None:
        return _no_such_tournament(request)
    player = player_for_request(request)
    return render(request, "tournament.html", _page_context(request, tournament, player))


def _page_context(
    request: HttpRequest, tournament: Tournament, player: Player | None
) -> dict[str, Any]:
    phase = tournament_phase(tournament=tournament)
    rows = tournament_standings(tournament=tournament)
    entry = (
        TournamentEntry.objects.filter(tournament=tournament, player=player).first()
        if player is not None
        else None
    )
    racing = next((r["race"] for r in rows if player and r["player"] == player.pk), None)
    # Every player's races at once: one read, however many players (no query a row).
    played = tournament_races_played(tournament=tournament) if phase == FINISHED else {}
    return {
        "tournament": tournament,
        "name": tournament_display_name(tournament),
        "variant_label": variant_label(tournament.variant),
        "phase": phase,
        "player": player,
        "entry": entry,
        "rows": rows,
        # The race the visitor is in now, linked; once under way never forced on them (they
        # came for the table or to pause): tournament.js reads `under_way`.
        "racing": racing,
        "under_way": racing is not None
        and Race.objects.filter(
            code=racing, starts_at__lte=timezone.now() - timedelta(seconds=JUST_SEATED_S)
        ).exists(),
        "podium": rows[:3] if phase == FINISHED else [],
        "played": [(row, played.get(row["player"], [])) for row in rows],
        "share_url": request.build_absolute_uri(f"/t/{tournament.code}/"),
        "race_minutes": tournament.race_time_limit_s // 60,
    }


def _wants_json(request: HttpRequest) -> bool:
    """The race page's banner pauses and comes back over fetch, staying where it is."""
    return "application/json" in request.headers.get("Accept", "")


@require_POST
def tournament_join_view(request: HttpRequest, code: str) -> HttpResponse:
    tournament = tournament_by_code(code=code)
    if tournament is None:
        return _not_found(request)
    try:
        player = player_identify(request=request, nickname=request.POST.get("nickname"))
        if player is None:
            raise TournamentRefused("bad_request", _("Pick a nickname to join, or log in."))
        tournament_join(tournament=tournament, player=player)
    except (GuestRefused, TournamentRefused) as refused:
        return _refused(request, tournament, refused)
    if _wants_json(request):
        return JsonResponse({"paused": False})
    return redirect("games:tournament", code=tournament.code)


@require_POST
def tournament_pause_view(request: HttpRequest, code: str) -> HttpResponse:
    tournament = tournament_by_code(code=code)
    if tournament is None:
        return _not_found(request)
    player = player_for_request(request)
    try:
        if player is None:
            raise TournamentRefused("not_entrant", _("you have not joined this tournament"))
        tournament_pause(tournament=tournament, player=player)
    except TournamentRefused as refused:
        return _refused(request, tournament, refused)
    if _wants_json(request):
        return JsonResponse({"paused": True})
    return redirect("games:tournament", code=tournament.code)


def _not_found(request: HttpRequest) -> HttpResponse:
    if _wants_json(request):
        return error_response(404, "not_found", _("No tournament has this link."))
    return _no_such_tournament(request)


def _refused(request: HttpRequest, tournament: Tournament, refused: Refused) -> HttpResponse:
    if _wants_json(request):
        return error_response(400, refused.code, refused.message)
    return _page_error(request, tournament, refused.message)


def _page_error(request: HttpRequest, tournament: Tournament, message: str) -> HttpResponse:
    context = _page_context(request, tournament, player_for_request(request))
    context["error"] = message
    return render(request, "tournament.html", context, status=400)

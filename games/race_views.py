"""Race pages over HTTP: create a race, open its link, take a seat."""

from __future__ import annotations

from typing import Any, Final

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from games.broadcast import race_broadcast
from games.engine import DEFAULT_VARIANT, VARIANTS
from games.forms import RaceForm, identify
from games.models import Player, Race, RaceStatus
from games.race_selectors import race_by_code, race_racers, race_role
from games.race_services import RaceRefused, race_create, race_join
from games.services import player_for_request

# How the race page names each variant; the code stays the protocol's word.
VARIANT_LABELS: Final = {
    "sultan": "Sultan",
    "sultan-8": "Sultan, 8 slots",
    "pysolfc": "Sultan (PySolFC)",
    "pysolfc-8": "Sultan + (PySolFC)",
}


@require_POST
def race_new(request: HttpRequest) -> HttpResponse:
    form = RaceForm(request.POST)
    if not form.is_valid():
        return render(request, "home.html", {"race_form": form, "variants": VARIANTS}, status=400)
    player = identify(request, form.cleaned_data.get("nickname"))
    if player is None:
        form.add_error("nickname", "Pick a nickname, or log in.")
        return render(request, "home.html", {"race_form": form, "variants": VARIANTS}, status=400)
    try:
        race = race_create(
            host=player,
            variant=form.cleaned_data["variant"] or DEFAULT_VARIANT,
            time_limit_s=form.cleaned_data["time_limit"] * 60,
            seat_limit=form.cleaned_data["seats"],
            deal=form.cleaned_data.get("deal"),
            winnable=form.cleaned_data.get("winnable", False),
        )
    except RaceRefused as refused:
        form.add_error(None, refused.message)
        return render(request, "home.html", {"race_form": form, "variants": VARIANTS}, status=400)
    return redirect("games:race", code=race.code)


@require_GET
@ensure_csrf_cookie
def race_page(request: HttpRequest, code: str) -> HttpResponse:
    race = race_by_code(code=code)
    if race is None:
        raise Http404("No race with this code")
    player = player_for_request(request)
    role = race_role(race=race, player=player)
    return render(request, "race.html", _page_context(request, race, player, role))


@require_POST
def race_join_view(request: HttpRequest, code: str) -> HttpResponse:
    race = race_by_code(code=code)
    if race is None:
        raise Http404("No race with this code")
    player = identify(request, request.POST.get("nickname"))
    if player is None:
        return _race_error(request, race, "Pick a nickname to join, or log in.")
    try:
        version = race_join(race=race, player=player)
    except RaceRefused as refused:
        return _race_error(request, race, refused.message)
    if version != race.version:  # a new seat, not a second click on Join
        lobby = {"type": "lobby", "v": version, "racers": race_racers(race=race)}
        race_broadcast(race_id=race.pk, message=lobby)
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
        "variant_label": VARIANT_LABELS.get(race.variant, race.variant),
        "time_limit_label": f"{minutes} min" if not seconds else f"{minutes} min {seconds} s",
        # An open deal's number is public from the start; a secret one only in the results.
        "deal_label": f"Open deal #{race.seed}"
        if race.open_deal
        else ("Secret winnable deal" if race.winnable_deal else "Secret deal"),
        "share_url": request.build_absolute_uri(f"/r/{race.code}/"),
    }

"""Race pages over HTTP: create a race, open its link, take a seat."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from games.engine import DEFAULT_VARIANT, VARIANTS
from games.forms import RaceForm, identify
from games.race_selectors import race_by_code, race_role
from games.race_services import RaceRefused, race_create, race_join
from games.services import player_for_request


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
    return render(
        request,
        "race.html",
        {
            "race": race,
            "player": player,
            "role": race_role(race=race, player=player),
            "share_url": request.build_absolute_uri(f"/r/{race.code}/"),
        },
    )


@require_POST
def race_join_view(request: HttpRequest, code: str) -> HttpResponse:
    race = race_by_code(code=code)
    if race is None:
        raise Http404("No race with this code")
    player = identify(request, request.POST.get("nickname"))
    if player is None:
        return _race_error(request, race.code, "Pick a nickname to join, or log in.")
    try:
        race_join(race=race, player=player)
    except RaceRefused as refused:
        return _race_error(request, race.code, refused.message)
    return redirect("games:race", code=race.code)


def _race_error(request: HttpRequest, code: str, message: str) -> HttpResponse:
    race = race_by_code(code=code)
    player = player_for_request(request)
    context = {
        "race": race,
        "player": player,
        "role": "spectator",
        "error": message,
        "share_url": request.build_absolute_uri(f"/r/{code}/"),
    }
    return render(request, "race.html", context, status=400)

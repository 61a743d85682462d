"""The home page, and the two forms on it (a race to create, a deal to practise).

A refused race re-renders the whole home page (`home_context` is its one
source), with the form's errors, never a page with only the race form.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from games.accounts.selectors import player_for_request
from games.accounts.services import player_identify
from games.engine import DEFAULT_VARIANT, VARIANTS
from games.pages.forms import PracticeForm, RaceForm
from games.pages.history import player_recent_races
from games.practice.selectors import player_latest_unfinished_practice
from games.races.services import RaceRefused, race_create


def home_context(request: HttpRequest, **overrides: Any) -> dict[str, Any]:
    player = player_for_request(request)
    context: dict[str, Any] = {
        "race_form": RaceForm(),
        "practice_form": PracticeForm(),
        "variants": VARIANTS,
        "player": player,
        "recent_races": player_recent_races(player=player) if player else [],
        "open_practice": player_latest_unfinished_practice(player=player) if player else None,
    }
    context.update(overrides)
    return context


def _home(request: HttpRequest, *, status: int = 200, **overrides: Any) -> HttpResponse:
    return render(request, "home.html", home_context(request, **overrides), status=status)


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return _home(request)


@require_POST
def race_new(request: HttpRequest) -> HttpResponse:
    form = RaceForm(request.POST)
    if not form.is_valid():
        return _home(request, race_form=form, status=400)
    player = player_identify(request=request, nickname=form.cleaned_data.get("nickname"))
    if player is None:
        form.add_error("nickname", _("Pick a nickname, or log in."))
        return _home(request, race_form=form, status=400)
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
        return _home(request, race_form=form, status=400)
    return redirect("games:race", code=race.code)

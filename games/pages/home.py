"""The home page, and the two forms on it (a race to create, a deal to practise).

A refused race re-renders the whole home page (`home_context` is its one
source), with the form's errors, never a page with only the race form.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from games.accounts.selectors import player_for_request
from games.accounts.services import GuestRefused, player_identify
from games.bots.house import house_bot_fill_later
from games.common.http import client_address
from games.engine import DEFAULT_VARIANT, VARIANTS
from games.models import Player, RaceStatus
from games.pages.forms import PracticeForm, RaceForm, RaceNowForm
from games.pages.history import player_recent_races
from games.practice.selectors import player_latest_unfinished_practice
from games.quotas.quotas import QuotaExceeded, quota_take
from games.races.matchmaking import public_races_live, race_now
from games.races.services import RaceRefused, race_create


def home_context(request: HttpRequest, **overrides: Any) -> dict[str, Any]:
    player = player_for_request(request)
    context: dict[str, Any] = {
        "race_form": RaceForm(),
        "race_now_form": RaceNowForm(),
        "public_races": public_races_live(),
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


RacerView = Callable[[HttpRequest, Any, Player], HttpResponse]


def _posted_by_racer(form_class: type[forms.Form], form_name: str) -> Callable[[RacerView], Any]:
    """A POST view of a race form, called with the valid form and who it acts for; else
    the home page again with the form's errors."""

    def decorate(view: RacerView) -> Callable[[HttpRequest], HttpResponse]:
        @require_POST
        @wraps(view)
        def posted(request: HttpRequest) -> HttpResponse:
            form = form_class(request.POST)
            if form.is_valid():
                nickname = form.cleaned_data.get("nickname")
                try:
                    player = player_identify(request=request, nickname=nickname)
                except GuestRefused as refused:
                    form.add_error("nickname", refused.message)
                    return _home(request, status=refused.status, **{form_name: form})
                if player is not None:
                    return view(request, form, player)
                form.add_error("nickname", _("Pick a nickname, or log in."))
            return _home(request, status=400, **{form_name: form})

        return posted

    return decorate


@ensure_csrf_cookie
def home(request: HttpRequest) -> HttpResponse:
    return _home(request)


@_posted_by_racer(RaceForm, "race_form")
def race_new(request: HttpRequest, form: RaceForm, player: Player) -> HttpResponse:
    winnable = form.cleaned_data.get("winnable", False)
    try:
        for kind in ("race", "winnable") if winnable else ("race",):
            quota_take(kind=kind, player_id=player.pk, address=client_address(request))
    except QuotaExceeded as refused:
        form.add_error(None, refused.message)
        response = _home(request, race_form=form, status=refused.status)
        response["Retry-After"] = str(refused.retry_after)
        return response
    try:
        race = race_create(
            host=player,
            variant=form.cleaned_data["variant"] or DEFAULT_VARIANT,
            time_limit_s=form.cleaned_data["time_limit"] * 60,
            seat_limit=form.cleaned_data["seats"],
            deal=form.cleaned_data.get("deal"),
            winnable=winnable,
            automatic_moves=form.cleaned_data.get("automatic_moves", False),
            rated=form.cleaned_data.get("rated", False),
        )
    except RaceRefused as refused:
        form.add_error(None, refused.message)
        return _home(request, race_form=form, status=503 if refused.code == "busy" else 400)
    return redirect("games:race", code=race.code)


@_posted_by_racer(RaceNowForm, "race_now_form")
def race_now_view(request: HttpRequest, form: RaceNowForm, player: Player) -> HttpResponse:
    """ "Race now": a seat in the next public race of the kind asked for."""
    try:
        seat = race_now(
            player=player,
            variant=form.cleaned_data["variant"] or DEFAULT_VARIANT,
            minutes=form.cleaned_data["minutes"] or 5,
        )
    except RaceRefused as refused:
        form.add_error(None, refused.message)
        return _home(request, race_now_form=form, status=400)
    if seat.new and seat.race.status == RaceStatus.LOBBY:
        # Alone in a new lobby: the house bot comes if nobody else does (games/bots).
        house_bot_fill_later(race_id=seat.race.pk)
    # Seating and leaving announced themselves through the race's outbox.
    return redirect("games:race", code=seat.race.code)


@require_GET
def public_races_list(request: HttpRequest) -> HttpResponse:
    """The home page's list of public races, alone: its script swaps it in every few seconds."""
    return render(request, "public_races.html", {"public_races": public_races_live()})

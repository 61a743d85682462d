"""/friends/ and the buttons that change a relation (on a profile, on /friends/);
a finished race's head-to-head records for its racers (/api/races/<code>/head-to-head).

Every POST answers with a redirect back where it came from and a message
saying what happened or why not (Django's messages); nothing is changed by a
refusal. Guests have no friends: they are sent to log in, and told why.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games.accounts.selectors import player_for_request
from games.common.errors import Refused
from games.common.http import client_address, error_response
from games.engine import DEFAULT_VARIANT, VARIANTS
from games.friends import services
from games.friends.headtohead import opponents_with_records
from games.friends.models import INVITE_CHOICES
from games.friends.selectors import (
    blocked_players,
    followed_players,
    followers_of,
    friends_now,
    invitations_pending,
    invite_privacy,
)
from games.i18n.labels import variant_choices
from games.models import Player, Race, RaceStatus
from games.races.selectors import race_by_code

AccountView = Callable[..., HttpResponse]


def _account_only(view: AccountView) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        player = player_for_request(request)
        if player is None or player.is_guest:
            messages.info(
                request,
                _("Friends are kept by accounts: a guest has no friends list. Log in or sign up."),
            )
            return redirect_to_login(request.get_full_path())
        return view(request, player, *args, **kwargs)

    return wrapped


class InviteForm(forms.Form):
    variant = forms.ChoiceField(choices=[(v, v) for v in VARIANTS], initial=DEFAULT_VARIANT)
    time_limit = forms.IntegerField(min_value=1, max_value=24 * 60, initial=15)
    automatic_moves = forms.BooleanField(required=False)
    race = forms.CharField(max_length=9, required=False)


@require_GET
@_account_only
def friends_page(request: HttpRequest, player: Player) -> HttpResponse:
    followed = followed_players(player=player)
    # What friends are doing is shared as presence is: between friends only.
    now = friends_now(viewer=player, friends=[f.player.pk for f in followed if f.friend])
    context = {
        "followed": [(f, now.get(f.player.pk)) for f in followed],
        "followers": followers_of(player=player),
        "blocked": list(blocked_players(player=player)),
        "invitations": list(invitations_pending(invitee=player)),
        "privacy": invite_privacy(player=player),
        "privacy_choices": INVITE_CHOICES,
        "variants": variant_choices(),
        "default_variant": DEFAULT_VARIANT,
    }
    return render(request, "friends.html", context)


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect(fallback)


def _other(username: str) -> Player | None:
    user = get_user_model().objects.filter(username=username).first()
    return Player.objects.filter(user=user).first() if user is not None else None


# What each profile button does, and what it says once done.
_RELATIONS: dict[str, tuple[Callable[[Player, Player], None], Any]] = {
    "follow": (
        lambda me, them: services.follow_create(follower=me, followee=them),
        gettext_lazy("You follow %(name)s."),
    ),
    "unfollow": (
        lambda me, them: services.follow_delete(follower=me, followee=them),
        gettext_lazy("You no longer follow %(name)s."),
    ),
    "block": (
        lambda me, them: services.block_create(blocker=me, blocked=them),
        gettext_lazy("You blocked %(name)s."),
    ),
    "unblock": (
        lambda me, them: services.block_delete(blocker=me, blocked=them),
        gettext_lazy("You unblocked %(name)s."),
    ),
}


@require_POST
@_account_only
def relation_change(
    request: HttpRequest, player: Player, username: str, action: str
) -> HttpResponse:
    other = _other(username)
    if other is None or action not in _RELATIONS:
        messages.error(request, _("No account is called “%(name)s”.") % {"name": username[:40]})
        return _back(request, "/friends/")
    change, done = _RELATIONS[action]
    try:
        change(player, other)
    except Refused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, str(done) % {"name": other.nickname})
    return _back(request, f"/@/{username}/")


@require_POST
@_account_only
def privacy_change(request: HttpRequest, player: Player) -> HttpResponse:
    try:
        services.privacy_set(player=player, invitations=request.POST.get("invitations", ""))
    except Refused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("Your invitation setting is saved."))
    return redirect("/friends/")


@require_POST
@_account_only
def invite(request: HttpRequest, player: Player) -> HttpResponse:
    form = InviteForm(request.POST)
    invitees = [p for name in request.POST.getlist("to")[:8] if (p := _other(name)) is not None]
    if not form.is_valid():
        messages.error(request, _("Choose a variant and a time limit of 1 to 1440 minutes."))
        return _back(request, "/friends/")
    code = form.cleaned_data.get("race") or ""
    race = Race.objects.filter(code=code).first() if code else None
    try:
        made = services.invitation_send(
            inviter=player,
            invitees=invitees,
            address=client_address(request),
            race=race,
            variant=form.cleaned_data["variant"],
            automatic_moves=form.cleaned_data["automatic_moves"],
            time_limit_s=form.cleaned_data["time_limit"] * 60,
        )
    except Refused as refused:
        messages.error(request, refused.message)
        return _back(request, "/friends/")
    names = ", ".join(i.invitee.nickname for i in made)
    messages.success(
        request, _("Invited: %(names)s. The invitation lasts two minutes.") % {"names": names}
    )
    return redirect("games:race", code=made[0].race.code)


@require_GET
def race_head_to_head(request: HttpRequest, code: str) -> HttpResponse:
    """A racer's record against each other racer of a finished race, this race counted:
    fetched once by the results (the race socket's end message stays small)."""
    race = race_by_code(code=code)
    if race is None:
        return error_response(404, "not_found", _("no race has this link"))
    viewer = player_for_request(request)
    if viewer is None or viewer.is_guest:
        return error_response(403, "sign_in", _("log in to see your records against racers"))
    if race.status != RaceStatus.FINISHED:
        # Nothing of a race still running: its records come with its end.
        return error_response(403, "not_over", _("records show once the race is over"))
    if not race.games.filter(player=viewer).exists():
        return error_response(403, "not_racer", _("only this race's racers see their records"))
    opponents = opponents_with_records(me=viewer, players=Player.objects.filter(games__race=race))
    records = [
        {
            "player": o.player,
            "nickname": o.nickname,
            "url": reverse("games:profile", args=[o.username]) + "#head-to-head",
            "races": o.record.played,
            "you": o.record.ahead,
            "them": o.record.behind,
        }
        for o in opponents
    ]
    return JsonResponse({"type": "head_to_head", "records": records})

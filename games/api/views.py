"""Pages: the account's access tokens (make, see once, revoke) and the API's own page.

The tokens page answers a POST with the page itself, never a redirect, when a
token is made: the secret is in that one answer and nowhere else.
"""

from __future__ import annotations

from typing import Any, Final

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.accounts.selectors import player_for_request
from games.api.models import SCOPE_CHOICES, SCOPE_READ
from games.api.selectors import tokens_of
from games.api.services import MAX_NAME, TokenRefused, token_create, token_revoke
from games.bots.pace import bot_min_gap_ms
from games.common.http import notice
from games.models import Player
from sultan_site.headers import CONTENT_SECURITY_POLICY

# Redoc draws with inline styles (styled-components) and a worker from a blob. The
# page loads nothing from another host: the Redoc it runs is django-ninja's with its
# sidebar logo (an image from Redocly's CDN, asked for on every visit and refused by
# img-src 'self') taken out — frontend/static/vendor/redoc/, checked against
# django-ninja's by tests/api/test_schema.py.
DOCS_POLICY: Final = (
    CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
    + "; worker-src 'self' blob:"
)


class TokenForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=MAX_NAME)
    scope = forms.ChoiceField(
        label=gettext_lazy("Scope"), choices=SCOPE_CHOICES, initial=SCOPE_READ
    )


def _own_player(request: HttpRequest) -> Player | None:
    player = player_for_request(request)
    return player if player is not None and player.user_id is not None else None


def _page(request: HttpRequest, player: Player, **extra: Any) -> HttpResponse:
    context = {
        "form": TokenForm(),
        "tokens": tokens_of(player=player),
        "me": player,
        "bot_gap_ms": bot_min_gap_ms(),
        "api_root": request.build_absolute_uri("/api/v1/"),
        **extra,
    }
    status = 400 if extra.get("form") is not None and extra["form"].errors else 200
    response = render(request, "account_tokens.html", context, status=status)
    # A page that shows a secret once is never kept by a cache or the back button.
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def tokens_page(request: HttpRequest) -> HttpResponse:
    player = _own_player(request)
    if player is None:
        return _no_account(request)
    if request.method == "GET":
        return _page(request, player)
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _page(request, player, form=form)
    try:
        made = token_create(
            player=player, name=form.cleaned_data["name"], scope=form.cleaned_data["scope"]
        )
    except TokenRefused as refused:
        form.add_error(None, refused.message)
        return _page(request, player, form=form)
    return _page(request, player, new_secret=made.secret, new_token=made.token)


@login_required
@require_POST
def token_revoke_view(request: HttpRequest, token_id: int) -> HttpResponse:
    player = _own_player(request)
    if player is None:
        return _no_account(request)
    try:
        token_revoke(player=player, token_id=token_id)
    except TokenRefused as refused:
        return notice(
            request,
            status=404,
            title=_("No such token"),
            message=refused.message,
            actions=[(_("Your tokens"), reverse("games:account_tokens"))],
        )
    return redirect(reverse("games:account_tokens"))


def _no_account(request: HttpRequest) -> HttpResponse:
    return notice(
        request,
        status=403,
        title=_("No account here"),
        message=_("Access tokens belong to accounts."),
    )


@require_GET
def api_docs_page(request: HttpRequest) -> HttpResponse:
    """The API's readable page, drawn from its schema by Redoc (django-ninja's, no logo)."""
    response = render(request, "api_docs.html", {"schema_url": "/api/v1/schema"})
    response["Content-Security-Policy"] = DOCS_POLICY
    return response

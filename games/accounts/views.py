"""Sign up, log in, log out, with Django's auth; a guest's games follow them into the account."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm, UsernameField
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView, LogoutView
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.accounts.deletion import DeletionRefused, account_delete
from games.accounts.selectors import player_for_request
from games.accounts.services import (
    ClaimRefused,
    player_claim_for_user,
    session_remember_earlier,
)
from games.common import names
from games.common.errors import BadInput
from games.common.http import client_address
from games.fairness.models import IdentityKind
from games.quotas.quotas import QuotaExceeded, quota_take

log = logging.getLogger(__name__)


if TYPE_CHECKING:
    _UserForm = UserCreationForm[User]
else:  # the form is generic for the type checker only
    _UserForm = UserCreationForm


class SignupUsernameField(UsernameField):
    """A username is a name others see: the nickname's check first, for its clear
    words on a control or a direction override; then Django's own."""

    def run_validators(self, value: Any) -> None:
        try:
            names.display_name(value, what=_("A username"), limit=150)
        except BadInput as bad:
            raise forms.ValidationError(bad.message, code=bad.code) from None
        super().run_validators(value)


class SignupForm(_UserForm):
    class Meta:
        model = User
        fields = ("username",)
        field_classes = {"username": SignupUsernameField}


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or "/"
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return "/"


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(_next_url(request))
    guest = player_for_request(request)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            # Accounts are counted per address: each is a fresh sight of every deal.
            quota_take(kind="signup", player_id=None, address=client_address(request))
        except QuotaExceeded as refused:
            form.add_error(None, refused.message)
            context = {"form": form, "guest": guest, "next": _next_url(request)}
            response = render(request, "registration/signup.html", context, status=refused.status)
            response["Retry-After"] = str(refused.retry_after)
            return response
        with transaction.atomic():
            user = form.save()
            if guest is not None:
                try:
                    player_claim_for_user(player=guest, user=user)
                except ClaimRefused as refused:
                    # Only a concurrent sign-up from the same session gets here:
                    # the account is still made, the games stay with the other.
                    log.warning("guest #%s not claimed by %s: %s", guest.pk, user.pk, refused)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            gettext("Welcome to Sultan, %(name)s! Your games are kept with your account now.")
            % {"name": user.get_username()},
        )
        return redirect(_next_url(request))
    context = {"form": form, "guest": guest, "next": _next_url(request)}
    return render(request, "registration/signup.html", context, status=400 if form.errors else 200)


class SultanLoginView(LoginView):
    template_name = "registration/login.html"
    redirect_authenticated_user = True
    next_page = "/"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["guest"] = player_for_request(self.request)
        return context

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        response.status_code = 400
        return response


class SultanLogoutView(LogoutView):
    next_page = "/"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        """Log out, and let the browser's next player be linked to this one (games.fairness)."""
        player = player_for_request(request)
        response = super().post(request, *args, **kwargs)
        if player is not None:
            session_remember_earlier(
                session=request.session, player_id=player.pk, kind=IdentityKind.LOGOUT
            )
        return response


class DeleteAccountForm(forms.Form):
    password = forms.CharField(label=gettext_lazy("Password"), widget=forms.PasswordInput)

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password


@login_required
@require_http_methods(["GET", "POST"])
def delete_account(request: HttpRequest) -> HttpResponse:
    """Delete the signed-in account after its password is given again (docs/store.md)."""
    user = request.user
    assert isinstance(user, User)
    form = DeleteAccountForm(request.POST if request.method == "POST" else None, user=user)
    if request.method == "POST" and form.is_valid():
        try:
            kept = account_delete(user=user)
        except DeletionRefused as refused:
            form.add_error(None, refused.message)
        else:
            logout(request)
            if kept is not None:
                # An account made again in this browser has seen what this one saw.
                session_remember_earlier(
                    session=request.session, player_id=kept.pk, kind=IdentityKind.DELETION
                )
            context = {
                "title": _("Your account is deleted"),
                "message": _(
                    "Your name, e-mail address and log-ins are gone. Your games stay in "
                    "the other racers’ results and replays, under “deleted player”."
                ),
                "actions": [(_("Back to the home page"), "/")],
            }
            return render(request, "notice.html", context)
    status = 400 if form.errors else 200
    return render(request, "registration/delete_account.html", {"form": form}, status=status)


def login_locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer once an account or an address failed too often (429)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    message = ngettext(
        "Too many failed log-ins for this account or from this address. "
        "Wait %(minutes)s minute, then try again.",
        "Too many failed log-ins for this account or from this address. "
        "Wait %(minutes)s minutes, then try again.",
        minutes,
    ) % {"minutes": minutes}
    context = {
        "title": _("Log-in paused"),
        "message": message,
        "actions": [(_("Back to the home page"), "/")],
    }
    return render(request, "notice.html", context, status=429)

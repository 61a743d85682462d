"""What every games ModelAdmin shares: the moderation permission, and no editing."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy

from games.models import MODERATE_PERMISSION

# The stubs make the admin classes generic; at run time they are not (no
# django_stubs_ext monkeypatch in settings), so subscript for mypy only.
if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

    _ModelAdmin = admin.ModelAdmin[Any]
    TabularInline = admin.TabularInline[Any, Any]
else:
    _ModelAdmin = admin.ModelAdmin
    TabularInline = admin.TabularInline


def can_moderate(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff and user.has_perm(MODERATE_PERMISSION))


def moderator_of(request: HttpRequest) -> AbstractBaseUser:
    assert isinstance(request.user, AbstractBaseUser)
    return request.user


class ModerationOnlyAdmin(_ModelAdmin):
    """Visible to moderators only; nobody adds, changes or deletes through it.

    Changes happen through moderation actions, which record an event first.
    """

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can_moderate(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_moderate(request)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        # Django offers the bulk delete action to anyone with delete permission; keep
        # only our own, and only for moderators.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions if can_moderate(request) else {}


class CountingAdmin(ModerationOnlyAdmin):
    """A list that counts related rows beside each (a player's games, a challenge's
    attempts) in the list's own query: `count_of` names the relation, and the count
    is `related_count`, sortable."""

    count_of = ""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset: QuerySet[Any] = super().get_queryset(request)
        annotated: QuerySet[Any] = queryset.annotate(related_count=Count(self.count_of))
        return annotated


def related_count(row: Any) -> int:
    return int(getattr(row, "related_count", 0))


class ReasonForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=2000,
        label=gettext_lazy("Reason"),
        help_text=gettext_lazy("Recorded with the action and shown in the moderation log."),
    )


def reason_page(
    request: HttpRequest,
    *,
    title: str,
    targets: list[Any],
    form: ReasonForm,
) -> TemplateResponse:
    """The page that asks for the reason before a moderation act is recorded.

    From a list's bulk action it carries the action and the selection through
    the reason's POST, as Django's own confirmation pages do.
    """
    action = request.POST.get("action", "")
    context = {
        **admin.site.each_context(request),
        "title": title,
        "targets": targets,
        "form": form,
        "action": action,
        "selected": [str(target.pk) for target in targets] if action else [],
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/games/moderate.html", context)


def report(request: HttpRequest, done: list[str], refused: list[str]) -> None:
    if done:
        messages.success(request, "; ".join(done))
    for message in refused:
        messages.warning(request, message)


def bulk_action(kind: str, description: str | _StrPromise) -> Callable[..., Any]:
    """A list's action that asks for a reason, then records the act `kind` on each row."""

    def act(model_admin: Any, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        return model_admin._bulk(request, queryset, kind)

    act.__name__ = f"act_{kind}"
    return admin.action(description=description)(act)

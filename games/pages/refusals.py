"""Refusals the pages share, worded once, and the one place a domain refusal that a
view did not answer itself becomes an answer instead of a 500."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from games.common.errors import Refused
from games.common.http import error_response, notice
from games.engine.variants import VARIANTS
from games.tournaments.services import TournamentRefused


def unknown_variant(
    request: HttpRequest, *, variant: str, actions: list[tuple[str, str]]
) -> HttpResponse:
    """The page for a `?variant=` that names none: which variants there are."""
    return notice(
        request,
        status=400,
        title=_("Unknown variant"),
        message=_("“%(variant)s” is not a variant. Choose one of %(variants)s.")
        % {"variant": variant[:40], "variants": ", ".join(VARIANTS)},
        actions=actions,
    )


def refused_answer(request: HttpRequest, refused: Refused) -> HttpResponse:
    """A refusal as the page (or, under `/api/`, the JSON error) with its own status,
    400 when it has none, as the API's handler answers (games/api/api.py)."""
    status = getattr(refused, "status", 400)
    if request.path.startswith("/api/"):
        return error_response(
            status, refused.code, refused.message, retry_after=getattr(refused, "retry_after", None)
        )
    actions = [(_("Home"), "/")]
    if isinstance(refused, TournamentRefused):
        actions.append((_("Tournaments"), "/tournaments/"))
    response = notice(
        request,
        status=status,
        title=_("Not now"),
        message=refused.message[:1].upper() + refused.message[1:],
        actions=actions,
    )
    if (retry_after := getattr(refused, "retry_after", None)) is not None:
        response["Retry-After"] = str(retry_after)
    return response


class RefusalMiddleware:
    """A rule of another room (a tournament's entrant races only its races, a quota)
    may refuse deep inside a view that only knew its own room's refusals: the
    visitor is told why, never shown a server error."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Refused):
            return refused_answer(request, exception)
        return None

"""The django-ninja application: its routers, its one error shape, its schema and page.

django-ninja fits this codebase: its endpoints are plain functions taking a
Django request (like every view here), calling the rooms' selectors and
services, with typed pydantic shapes from which the OpenAPI schema is
generated. Nothing of Django's own request handling is replaced (no second
request, permission or serializer layer beside ours, as DRF would bring).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Redoc
from ninja.errors import AuthenticationError, ValidationError

from games.api import games, play, players, results
from games.common.errors import Refused
from games.common.http import error_response

DESCRIPTION = """Sultan's public API: read players, games, races and daily deals as a
visitor could, export your games, and race as a bot. Guide and examples: docs/api.md.

Send a personal access token (made on your account page) as
`Authorization: Bearer <token>`; without one, reads answer what anyone may see.
Errors are `{"type": "error", "code": ..., "message": ...}`; a spent quota is 429
with `Retry-After` (seconds)."""

api = NinjaAPI(
    title="Sultan",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api-v1",
    openapi_url="/schema",
    docs=Redoc(),
    docs_url=None,  # the readable page is /api/ (games/urls.py)
)
for module in (players, games, results, play):
    api.add_router("", module.router)


@api.exception_handler(Refused)
def refused(request: HttpRequest, exc: Refused) -> HttpResponse:
    status = getattr(exc, "status", 400)
    return error_response(
        status, exc.code, exc.message, retry_after=getattr(exc, "retry_after", None)
    )


@api.exception_handler(ValidationError)
def invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    where = [".".join(str(part) for part in error.get("loc", ())) for error in exc.errors]
    message = _("not valid: %(fields)s") % {"fields": ", ".join(where) or "?"}
    return error_response(400, "bad_request", message)


@api.exception_handler(AuthenticationError)
def unauthorized(request: HttpRequest, exc: Any) -> HttpResponse:
    response = error_response(401, "unauthorized", _("send a token: Authorization: Bearer <token>"))
    response["WWW-Authenticate"] = "Bearer"
    return response

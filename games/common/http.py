"""Answers over HTTP: one JSON error shape, one way to read a request body, and
refusals as a page (`notice`) with a status that says the same to machines."""

from __future__ import annotations

from typing import Any, Final

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.common import fields

MAX_BODY_BYTES: Final = 4096


def error_response(
    status: int, code: str, message: str, *, retry_after: int | None = None
) -> JsonResponse:
    response = JsonResponse({"type": "error", "code": code, "message": message}, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def client_ip(request: HttpRequest) -> str | None:
    """The visitor's address, when the request has one: Daphne's --proxy-headers
    puts nginx's X-Forwarded-For (the address nginx saw, deploy/nginx/nginx.conf)
    in REMOTE_ADDR. django-axes asks this too (AXES_CLIENT_IP_CALLABLE)."""
    address = request.META.get("REMOTE_ADDR")
    return str(address) if address else None


def client_address(request: HttpRequest) -> str:
    """As `client_ip`, never empty: a key for per-address quotas."""
    return client_ip(request) or "unknown"


def json_body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object; `BadInput` when it is too big or not one."""
    return fields.json_object(request.body, limit=MAX_BODY_BYTES, what=_("request body"))


def notice(
    request: HttpRequest,
    *,
    status: int,
    title: str,
    message: str,
    actions: list[tuple[str, str]] | None = None,
) -> HttpResponse:
    """A refusal as a page: what happened and where to go from here."""
    context = {"title": title, "message": message, "actions": actions or [(_("Home"), "/")]}
    return render(request, "notice.html", context, status=status)

"""JSON over HTTP: one error shape, one way to read a request body."""

from __future__ import annotations

from typing import Any, Final

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from games.common import fields

MAX_BODY_BYTES: Final = 4096


def error_response(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"type": "error", "code": code, "message": message}, status=status)


def json_body(request: HttpRequest) -> dict[str, Any]:
    """The request's JSON object; `BadInput` when it is too big or not one."""
    return fields.json_object(request.body, limit=MAX_BODY_BYTES, what=_("request body"))

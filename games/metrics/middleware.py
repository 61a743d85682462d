"""Times every HTTP request, labelled by the view that answered it."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

from games.metrics.definitions import REQUEST_SECONDS

# Methods outside these are folded into one label: a client picks the method.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def view_label(request: HttpRequest) -> str:
    """The route's name ("games:replay"), never the path (codes and ids would
    make a series per race)."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "unmatched"
    return match.view_name or "unnamed"


class RequestMetricsMiddleware:
    """First in MIDDLEWARE: the time includes every other middleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = self.get_response(request)
        method = request.method if request.method in METHODS else "other"
        REQUEST_SECONDS.labels(
            view=view_label(request), method=method, status=f"{response.status_code // 100}xx"
        ).observe(time.perf_counter() - started)
        return response

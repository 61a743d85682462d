"""The site's own "Page not found" for every unknown thing, `DEBUG` or not.

Django answers a 404 with its debug page under `DEBUG` (a yellow page whose inline
style the Content-Security-Policy refuses) and with `handler404` otherwise. This
middleware gives the site's page in both cases: for a view that raises `Http404`
(an unknown challenge, a malformed day) and for an address no pattern matches.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse

from games.pages.views import not_found


class SiteNotFoundMiddleware:
    """Listed after CommonMiddleware, so a missing slash is still redirected."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # No pattern matched: under DEBUG Django has drawn its own page.
        if response.status_code == 404 and settings.DEBUG and request.resolver_match is None:
            return not_found(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Http404):
            return not_found(request, exception)
        return None

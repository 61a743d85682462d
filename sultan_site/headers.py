"""Security headers Django's SecurityMiddleware does not send: the Content-Security-Policy.

Strict: scripts, styles, images, fonts and connections from this origin only,
no inline script or style and no `eval` (the pages are ES modules and
stylesheets; a value computed in JS is set through the CSSOM, which the
policy allows). `frame-ancestors 'none'` says what X-Frame-Options: DENY says,
for browsers that read only one of them. Referrer-Policy and
X-Content-Type-Options come from SecurityMiddleware (settings.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from django.http import HttpRequest, HttpResponseBase

CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        # Inline SVG sprites reference their own symbols; card faces are SVG files.
        "img-src 'self' data:",
        "font-src 'self'",
        # The race socket (ws:/wss: on the same host: 'self' covers them in CSP 3).
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response

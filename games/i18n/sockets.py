"""The language of a websocket: LocaleMiddleware never sees one.

The same choice as for a page: the switch's cookie, else the browser's
Accept-Language (sent with the handshake), else LANGUAGE_CODE.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header


def _supported(code: str) -> str | None:
    try:
        return get_supported_language_variant(code)
    except LookupError:
        return None


def scope_language(scope: dict[str, Any]) -> str:
    """The language a socket's human messages are worded in."""
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie and (chosen := _supported(cookie)):
        return chosen
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept[:500]):
        if code == "*":
            break
        if chosen := _supported(code):
            return chosen
    return _supported(settings.LANGUAGE_CODE) or settings.LANGUAGE_CODE

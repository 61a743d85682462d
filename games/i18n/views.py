"""The JavaScript catalogue, one URL per language so that a browser's cache
never hands one language's catalogue to a page in the other."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.decorators import method_decorator
from django.views.decorators.cache import cache_control
from django.views.decorators.http import last_modified
from django.views.i18n import JavaScriptCatalog

# Catalogues change only with a deploy, that is with a new process: a browser
# revalidates every time (no-cache) and gets a 304 until the next start.
_STARTED = timezone.now()


@method_decorator(cache_control(no_cache=True), name="get")
@method_decorator(last_modified(lambda request, **kwargs: _STARTED), name="get")
class SiteJavaScriptCatalog(JavaScriptCatalog):
    """Django's catalogue (gettext, ngettext, interpolate, formats) for the
    language named in the URL; base.html loads it before any module."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        language = kwargs.pop("language")
        if language not in dict(settings.LANGUAGES):
            raise Http404("no such language")
        with translation.override(language):
            return super().get(request, *args, **kwargs)

"""Refusals the pages share, worded once."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from games.common.http import notice
from games.engine.variants import VARIANTS


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

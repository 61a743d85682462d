"""Template helpers for every page: who is here, and times written for people."""

from __future__ import annotations

from datetime import timedelta
from typing import Final

from django import template
from django.template.context import Context

from games.accounts.selectors import player_for_request
from games.engine import VARIANTS
from games.models import Player

register = template.Library()


@register.simple_tag(takes_context=True)
def current_player(context: Context) -> Player | None:
    """The visitor's player for the top bar, whichever view rendered the page."""
    request = context.get("request")
    return player_for_request(request) if request is not None else None


@register.filter
def clock(value: timedelta | None) -> str:
    """A duration as a clock reads: 4:07, or 1:02:09 past the hour."""
    if value is None:
        return "—"
    seconds = max(0, int(value.total_seconds()))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


@register.filter
def ms_clock(value: int | None) -> str:
    """Milliseconds (a ranking's time) to the tenth, as the race's results show them: 4:07.3."""
    if value is None:
        return "—"
    tenths = max(0, value) // 100
    return f"{clock(timedelta(seconds=tenths // 10))}.{tenths % 10}"


# How pages name each variant; the code stays the protocol's word.
VARIANT_LABELS: Final = {
    "sultan": "Sultan",
    "sultan-8": "Sultan, 8 slots",
    "pysolfc": "Sultan (PySolFC)",
    "pysolfc-8": "Sultan + (PySolFC)",
}
STATUS_LABELS: Final = {
    "playing": "In play",
    "won": "Won",
    "lost": "No moves left",
    "resigned": "Resigned",
    "timeout": "Time ran out",
}


@register.simple_tag
def variant_choices() -> list[tuple[str, str]]:
    return [(variant, VARIANT_LABELS.get(variant, variant)) for variant in VARIANTS]


@register.filter
def variant_label(variant: str) -> str:
    return VARIANT_LABELS.get(variant, variant)


@register.filter
def status_label(status: str) -> str:
    return STATUS_LABELS.get(status, status)

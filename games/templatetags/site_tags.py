"""Template helpers for every page: who is here, and times written for people."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django import template
from django.template.context import Context
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import conditional_escape, format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import ngettext, pgettext

from games.accounts.names import nickname_suggestion
from games.accounts.selectors import player_for_request
from games.i18n import labels
from games.models import Player

register = template.Library()


@register.simple_tag(takes_context=True)
def current_player(context: Context) -> Player | None:
    """The visitor's player for the top bar, whichever view rendered the page."""
    request = context.get("request")
    return player_for_request(request) if request is not None else None


# A memorable name to offer a guest still under the site's default one (games.accounts).
register.simple_tag(nickname_suggestion, name="nickname_suggestion")


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


@register.simple_tag(takes_context=True)
def language_next(context: Context) -> str:
    """Where the language switch comes back to: this page, or for a page that
    answered a form (a POST, which a GET cannot repeat) the page of the form."""
    request = context.get("request")
    if request is None:
        return "/"
    if request.method in ("GET", "HEAD"):
        return str(request.get_full_path())
    referer = request.META.get("HTTP_REFERER", "")
    if url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()}):
        return str(urlsplit(referer)._replace(scheme="", netloc="").geturl() or "/")
    return "/"


# Names for people, in the request's language (games/i18n/labels.py).
register.simple_tag(labels.variant_choices, name="variant_choices")
register.filter("variant_label", labels.variant_label)
register.filter("status_label", labels.status_label)
register.filter("card_name", labels.card_name)


@register.filter(expects_localtime=True)
def when(value: datetime | None) -> str:
    """A moment as the language writes it: "1 Dec, 14:05", «1 декабря, 14:05»."""
    if value is None:
        return "—"
    return date_format(value, pgettext("date and time format", "j M, H:i"))


@register.filter(expects_localtime=True)
def when_with_year(value: datetime | None) -> str:
    """The same with the year: "1 Dec 2026, 14:05", «1 декабря 2026, 14:05»."""
    if value is None:
        return "—"
    return date_format(value, pgettext("date and time format", "j M Y, H:i"))


@register.filter
def minutes_label(seconds: int) -> str:
    """A race's time limit as its settings read: "5 min"."""
    minutes = max(1, round(seconds / 60))
    return ngettext("%(n)d min", "%(n)d min", minutes) % {"n": minutes}


@register.filter
def player_link(holder: Any) -> str:
    """A player's name, linked to their profile when they have one (accounts do;
    a guest's name links nowhere). A filter, not an include: a table has many."""
    if getattr(holder, "username", None):
        url = reverse("games:profile", args=[holder.username])
        return format_html('<a href="{}">{}</a>', url, holder.nickname)
    return conditional_escape(holder.nickname)

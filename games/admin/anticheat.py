"""The anti-cheat verdict in the game admin: a column, a filter, the evidence on the page."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.models import Game
from games.moderation.anticheat import Verdict
from games.moderation.flags import game_verdict, suspicious_ids


class SuspiciousFilter(admin.SimpleListFilter):
    """Games whose move timing no person produces, judged from their logs now.

    It reads the logs of every game the other filters leave, so on a large
    store narrow first (by date, kind, status); `manage.py flag_suspicious`
    records the verdicts as flags, which the "flagged" filter finds at once.
    """

    title = gettext_lazy("suspicious timing")
    parameter_name = "suspicious"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", _("suspicious")), ("no", _("not suspicious"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() not in ("yes", "no"):
            return queryset
        flagged = suspicious_ids(queryset)
        if self.value() == "yes":
            return queryset.filter(pk__in=flagged)
        return queryset.exclude(pk__in=flagged)


def verdict_cell(game: Game) -> str:
    verdict = game_verdict(game=game)
    if verdict.evidence is None:
        return "—"
    if not verdict.suspicious:
        return _("no")
    return format_html(
        '<strong title="{}">{}</strong>', "; ".join(verdict.reasons), _("suspicious")
    )


def verdict_detail(verdict: Verdict) -> str:
    if verdict.evidence is None:
        return verdict.summary()
    return format_html(
        "<p><strong>{}</strong></p><ul>{}</ul>",
        verdict.summary(),
        format_html_join("", "<li>{}</li>", ((line,) for line in verdict.evidence.lines())),
    )

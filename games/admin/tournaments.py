"""Tournaments and their races, listed for moderators; a race voided with a reason.

A void is an event of its own (TournamentVoid): the results stay as they were
kept, and the standings are folded again without the race.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.admin.base import ModerationOnlyAdmin, ReasonForm, moderator_of, reason_page, report
from games.tournaments.models import Tournament, TournamentRace
from games.tournaments.services import TournamentRefused, tournament_race_void


@admin.register(Tournament)
class TournamentAdmin(ModerationOnlyAdmin):
    list_display = ("code", "name", "variant", "created_by", "starts_at", "ends_at", "finished_at")
    list_filter = ("variant", "public")
    search_fields = ("code", "name", "created_by__nickname")
    list_select_related = ("created_by",)
    date_hierarchy = "starts_at"


@admin.register(TournamentRace)
class TournamentRaceAdmin(ModerationOnlyAdmin):
    list_display = ("race", "tournament", "created_at", "scored_at", "voided")
    search_fields = ("race__code", "tournament__code", "tournament__name")
    list_select_related = ("race", "tournament", "void")
    actions = ("void",)

    @admin.display(description=gettext_lazy("voided"), boolean=True)
    def voided(self, link: TournamentRace) -> bool:
        return hasattr(link, "void")

    @admin.action(description=gettext_lazy("Void the selected races (points recomputed)"))
    def void(self, request: HttpRequest, queryset: QuerySet[TournamentRace]) -> Any:
        links = list(queryset)
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if "apply" not in request.POST or not form.is_valid():
            return reason_page(request, title=_("Void tournament races"), targets=links, form=form)
        done, refused = [], []
        for link in links:
            try:
                tournament_race_void(
                    tournament_race=link,
                    moderator_name=moderator_of(request).get_username(),
                    reason=form.cleaned_data["reason"],
                )
                done.append(_("%(race)s voided") % {"race": link.race})
            except TournamentRefused as refused_void:
                refused.append(refused_void.message)
        report(request, done, refused)
        return None

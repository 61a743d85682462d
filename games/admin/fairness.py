"""Rehearsals for moderators (docs/anticheat.md, "What a moderator sees").

The unranked games, each beside the earlier game that showed its deal and whose it
was (another identity of the same browser is the rehearsal to look at), the
identities linked, and on the daily attempts two filters: the unranked ones, and
*scouting*: an attempt resigned after drawing through the stock with hardly a
card played, the look a second account takes before another plays for the board.
"""

from __future__ import annotations

from typing import Any, Final

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.admin.base import ModerationOnlyAdmin
from games.daily.models import DailyAttempt
from games.fairness.models import IdentityLink, UnrankedGame
from games.models import Game, GameStatus

# A scouting attempt: resigned after at least this many moves, with at most this many
# cards played (drawing through the 88 stock cards takes 88 moves; 30 see a third).
SCOUT_MOVES: Final = 30
SCOUT_CARDS: Final = 5


def _game_link(game: Game | None, *, whose: bool = True) -> SafeString | str:
    if game is None:
        return "—"
    url = reverse("admin:games_game_change", args=[game.pk])
    if not whose:
        return format_html('<a href="{}">{}</a>', url, game)
    return format_html('<a href="{}">{}</a> · {}', url, game, game.player)


@admin.register(UnrankedGame)
class UnrankedGameAdmin(ModerationOnlyAdmin):
    list_display = ("game_shown", "player", "reason", "seen_in_shown", "rehearsal", "created_at")
    list_filter = ("reason",)
    list_select_related = ("game__player", "seen_in__player")
    search_fields = ("game__player__nickname", "game__player__user__username", "=game__id")
    date_hierarchy = "created_at"
    fields = ("game_shown", "player", "reason", "seen_in_shown", "rehearsal", "created_at")
    readonly_fields = fields
    ordering = ("-created_at",)

    @admin.display(description=gettext_lazy("game"))
    def game_shown(self, unranked: UnrankedGame) -> SafeString | str:
        return _game_link(unranked.game, whose=False)

    @admin.display(description=gettext_lazy("player"))
    def player(self, unranked: UnrankedGame) -> str:
        return str(unranked.game.player)

    @admin.display(description=gettext_lazy("deal seen in"))
    def seen_in_shown(self, unranked: UnrankedGame) -> SafeString | str:
        return _game_link(unranked.seen_in)

    @admin.display(description=gettext_lazy("rehearsed by"))
    def rehearsal(self, unranked: UnrankedGame) -> str:
        """Whose game showed the deal: another identity is a rehearsal worth a look."""
        seen = unranked.seen_in
        if seen is None:
            return _("a guest's result carried into an account")
        if seen.player_id == unranked.game.player_id:
            return _("the same player")
        return _("another identity: %(player)s") % {"player": seen.player}


@admin.register(IdentityLink)
class IdentityLinkAdmin(ModerationOnlyAdmin):
    list_display = ("earlier", "later", "kind", "created_at")
    list_filter = ("kind",)
    list_select_related = ("earlier", "later")
    search_fields = ("earlier__nickname", "later__nickname", "later__user__username")
    date_hierarchy = "created_at"


class RehearsalFilter(admin.SimpleListFilter):
    """Daily attempts that a first sight did not rank, or that look like a scout's."""

    title = gettext_lazy("rehearsal")
    parameter_name = "rehearsal"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("unranked", gettext_lazy("unranked: deal seen before")),
            ("scouting", gettext_lazy("scouting: resigned after looking")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "unranked":
            return queryset.filter(game__unranked__isnull=False)
        if self.value() == "scouting":
            return scouting_attempts(queryset)
        return queryset


def scouting_attempts(attempts: QuerySet[DailyAttempt]) -> QuerySet[DailyAttempt]:
    return attempts.filter(
        game__status=GameStatus.RESIGNED,
        game__last_seq__gte=SCOUT_MOVES,
        game__cards_played__lte=SCOUT_CARDS,
    )

"""Players (accounts and guests), races and the moderation log: listed and searchable."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.admin.base import (
    CountingAdmin,
    ModerationOnlyAdmin,
    ReasonForm,
    moderator_of,
    reason_page,
    related_count,
    report,
)
from games.models import ModerationAction, Player, Race
from games.moderation import services as moderation
from games.moderation.services import ModerationRefused
from games.store.selectors import race_deal_public, race_opens_when


class PlayerKindFilter(admin.SimpleListFilter):
    title = gettext_lazy("kind")
    parameter_name = "kind"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("account", _("account")),
            ("guest", _("guest")),
            ("banned", _("banned")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        match self.value():
            case "account":
                return queryset.filter(user__isnull=False)
            case "guest":
                return queryset.filter(user__isnull=True)
            case "banned":
                return queryset.filter(banned_at__isnull=False)
        return queryset


@admin.register(Player)
class PlayerAdmin(CountingAdmin):
    list_display = ("id", "nickname", "user", "kind", "game_count", "created_at", "banned_at")
    list_filter = (PlayerKindFilter,)
    count_of = "games"
    search_fields = ("=id", "nickname", "user__username", "user__email")
    list_select_related = ("user",)
    fields = ("nickname", "user", "is_bot", "created_at", "banned_at")
    actions = ("ban", "unban")

    @admin.display(description=gettext_lazy("kind"))
    def kind(self, player: Player) -> str:
        if player.deleted_at is not None:
            return _("deleted")
        if player.is_bot:
            return _("bot")  # a program's account (games/bots/)
        return _("guest") if player.is_guest else _("account")

    @admin.display(description=gettext_lazy("games"), ordering="related_count")
    def game_count(self, player: Player) -> int:
        return related_count(player)

    def _act(self, request: HttpRequest, queryset: QuerySet[Player], unban: bool) -> Any:
        players = list(queryset)
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            act = moderation.player_unban if unban else moderation.player_ban
            done, refused = [], []
            for player in players:
                try:
                    act(
                        player=player,
                        moderator=moderator_of(request),
                        reason=form.cleaned_data["reason"],
                    )
                    done.append(
                        (_("%(player)s unbanned") if unban else _("%(player)s banned"))
                        % {"player": player}
                    )
                except ModerationRefused as error:
                    refused.append(str(error))
            report(request, done, refused)
            return None
        return reason_page(
            request,
            title=_("Lift the ban") if unban else _("Ban"),
            targets=players,
            form=form,
        )

    @admin.action(description=gettext_lazy("Ban the selected players"))
    def ban(self, request: HttpRequest, queryset: QuerySet[Player]) -> Any:
        return self._act(request, queryset, unban=False)

    @admin.action(description=gettext_lazy("Lift the ban on the selected players"))
    def unban(self, request: HttpRequest, queryset: QuerySet[Player]) -> Any:
        return self._act(request, queryset, unban=True)


@admin.register(Race)
class RaceAdmin(CountingAdmin):
    list_display = (
        "code",
        "host",
        "variant",
        "status",
        "seat_limit",
        "time_limit_s",
        "game_count",
        "created_at",
        "starts_at",
        "ends_at",
    )
    list_filter = ("status", "variant", "open_deal", "public", "rated")
    count_of = "games"
    search_fields = ("code", "host__nickname", "host__user__username")
    list_select_related = ("host",)
    date_hierarchy = "created_at"
    fields = (
        ("code", "host"),
        ("variant", "deal", "open_deal", "winnable_deal"),
        ("status", "version"),
        ("public", "rated"),
        ("time_limit_s", "seat_limit"),
        ("created_at", "starts_at", "ends_at", "finished_at"),
        "rematch_of",
    )
    readonly_fields = ("deal",)

    @admin.display(description=gettext_lazy("deal"))
    def deal(self, race: Race) -> str:
        # A secret deal stays secret from moderators too until the race ends:
        # a moderator may be racing, and the number tells every stock's order.
        return (
            str(race.seed)
            if race_deal_public(race=race)
            else _("secret until %(when)s") % {"when": race_opens_when(race=race)}
        )

    @admin.display(description=gettext_lazy("games"), ordering="related_count")
    def game_count(self, race: Race) -> int:
        return related_count(race)


@admin.register(ModerationAction)
class ModerationActionAdmin(ModerationOnlyAdmin):
    list_display = ("created_at", "moderator_name", "action", "game", "player", "reason")
    list_filter = ("action",)
    search_fields = ("moderator_name", "reason", "player__nickname", "=game__id")
    list_select_related = ("game", "player")
    date_hierarchy = "created_at"

"""Games in the admin: the log as a read-only inline, timing, records, moderation acts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import F, QuerySet, Window
from django.db.models.functions import Lag
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseForbidden,
    HttpResponseRedirect,
)
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.admin.anticheat import SuspiciousFilter, verdict_cell, verdict_detail
from games.admin.base import (
    ModerationOnlyAdmin,
    ReasonForm,
    TabularInline,
    bulk_action,
    can_moderate,
    moderator_of,
    reason_page,
    report,
)
from games.models import Game, Move
from games.moderation import services as moderation
from games.moderation.flags import game_verdict
from games.moderation.services import ModerationRefused
from games.store.records import RecordError, verify_record
from games.store.selectors import (
    RecordHidden,
    game_deal_open_to_moderators,
    game_record,
    game_timing,
    race_deal_public,
    race_opens_when,
)

MAX_RECORD_BYTES = 2_000_000


def replay_url(game_id: int, seq: int) -> str:
    # The replay viewer arrives in a later issue; its URL is fixed already.
    return f"/games/{game_id}/replay/#move={seq}"


def _opens_when(game: Game) -> str:
    if game.race is not None:
        return race_opens_when(race=game.race)
    return _("the game is over")


def _seconds(delta: timedelta | None) -> str:
    return "—" if delta is None else _("%(seconds).3f s") % {"seconds": delta.total_seconds()}


class MoveInline(TabularInline):
    model = Move
    fields = ("seq", "token", "automatic", "accepted_at", "gap", "client_move_id", "replay")
    readonly_fields = fields
    ordering = ("seq",)
    extra = 0
    can_delete = False
    show_change_link = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        previous = Window(Lag("accepted_at"), partition_by=F("game_id"), order_by=F("seq").asc())
        queryset: QuerySet[Any] = super().get_queryset(request)
        annotated: QuerySet[Any] = queryset.annotate(previous_at=previous)
        return annotated

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_moderate(request)

    @admin.display(description=gettext_lazy("gap"))
    def gap(self, move: Move) -> str:
        previous = getattr(move, "previous_at", None)
        return "—" if previous is None else _seconds(move.accepted_at - previous)

    @admin.display(description=gettext_lazy("replay"))
    def replay(self, move: Move) -> str:
        return format_html(
            '<a href="{}">{}</a>',
            replay_url(move.game_id, move.seq),
            _("move %(seq)d") % {"seq": move.seq},
        )


class GameKindFilter(admin.SimpleListFilter):
    title = gettext_lazy("kind")
    parameter_name = "kind"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("race", _("race")), ("practice", _("practice"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "race":
            return queryset.filter(race__isnull=False)
        if self.value() == "practice":
            return queryset.filter(race__isnull=True)
        return queryset


class RecordUploadForm(forms.Form):
    record = forms.FileField(
        label=gettext_lazy("Record"),
        help_text=gettext_lazy("A game record as described in docs/record-format.md."),
    )


@admin.register(Game)
class GameAdmin(ModerationOnlyAdmin):
    list_display = (
        "id",
        "player",
        "race",
        "variant",
        "status",
        "cards_played",
        "duration",
        "moves",
        "flags",
        "suspicious",
        "created_at",
    )
    # The suspicious filter reads logs: last, so that the others narrow what it reads.
    list_filter = ("status", "variant", GameKindFilter, "flagged", "voided", SuspiciousFilter)
    search_fields = ("=id", "player__nickname", "player__user__username", "race__code")
    list_select_related = ("player", "race")
    date_hierarchy = "created_at"
    inlines = (MoveInline,)
    fields = (
        ("player", "race"),
        ("variant", "deal"),
        ("created_at", "started_at", "finished_at"),
        ("status", "cards_played", "last_seq"),
        ("voided", "flagged"),
        "timing",
        "anticheat",
        "links",
    )
    readonly_fields = ("deal", "timing", "anticheat", "links")
    actions = (
        "verify_replays",
        "void_results",
        "reinstate_results",
        "flag_games",
        "clear_flags",
        "ban_players",
    )
    change_form_template = "admin/games/game/change_form.html"
    change_list_template = "admin/games/game/change_list.html"

    @admin.display(description=gettext_lazy("duration"))
    def duration(self, game: Game) -> str:
        if game.started_at is None or game.finished_at is None:
            return "—"
        return _seconds(game.finished_at - game.started_at)

    @admin.display(description=gettext_lazy("moves"), ordering="last_seq")
    def moves(self, game: Game) -> int:
        return game.last_seq

    @admin.display(description=gettext_lazy("flags"))
    def flags(self, game: Game) -> str:
        marks = [
            name for name, on in ((_("flagged"), game.flagged), (_("void"), game.voided)) if on
        ]
        return ", ".join(marks) or "—"

    @admin.display(description=gettext_lazy("move timing"))
    def timing(self, game: Game) -> str:
        return game_timing(game=game).summary()

    @admin.display(description=gettext_lazy("timing verdict"))
    def suspicious(self, game: Game) -> str:
        return verdict_cell(game)

    @admin.display(description=gettext_lazy("anti-cheat"))
    def anticheat(self, game: Game) -> str:
        return verdict_detail(game_verdict(game=game))

    @admin.display(description=gettext_lazy("deal"))
    def deal(self, game: Game) -> str:
        public = (
            race_deal_public(race=game.race)
            if game.race is not None
            else game_deal_open_to_moderators(game=game)
        )
        return (
            str(game.seed) if public else _("secret until %(when)s") % {"when": _opens_when(game)}
        )

    @admin.display(description=gettext_lazy("links"))
    def links(self, game: Game) -> str:
        if not game_deal_open_to_moderators(game=game):
            # The replay viewer refuses too; the record would carry the deal.
            return _("the replay and the record open when %(when)s") % {"when": _opens_when(game)}
        record = reverse("admin:games_game_record", args=[game.pk])
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            replay_url(game.pk, game.last_seq),
            _("replay at the last move"),
            record,
            _("download the record"),
        )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        game = self.get_object(request, object_id)
        # The record carries the deal: no link to it while someone may still play it.
        deal_open = game is not None and game_deal_open_to_moderators(game=game)
        context = {**(extra_context or {}), "deal_open": deal_open}
        return super().change_view(request, object_id, form_url, context)

    def get_urls(self) -> list[URLPattern]:
        wrap = self.admin_site.admin_view
        return [
            path("<int:game_id>/record/", wrap(self.record_view), name="games_game_record"),
            path(
                "<int:game_id>/moderate/<str:kind>/",
                wrap(self.moderate_view),
                name="games_game_moderate",
            ),
            path("verify-record/", wrap(self.verify_record_view), name="games_game_verify_record"),
            *super().get_urls(),
        ]

    # Views ---------------------------------------------------------------

    def _refuse_unless_moderator(self, request: HttpRequest) -> None:
        if not can_moderate(request):
            raise PermissionDenied

    def record_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        self._refuse_unless_moderator(request)
        game = get_object_or_404(Game.objects.select_related("player", "race"), pk=game_id)
        try:
            text = game_record(game=game, viewer=None, as_moderator=True)
        except RecordHidden:
            return HttpResponseForbidden(
                _(
                    "The record carries the deal: it opens when the game (a race game: its race)"
                    " is over."
                ),
                content_type="text/plain; charset=utf-8",
            )
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="sultan-game-{game.pk}.txt"'
        return response

    def moderate_view(self, request: HttpRequest, game_id: int, kind: str) -> HttpResponse:
        self._refuse_unless_moderator(request)
        game = get_object_or_404(Game.objects.select_related("player"), pk=game_id)
        if kind not in self._ACTS:
            raise Http404(_("no moderation act %(kind)r") % {"kind": kind})
        title = self._ACTS[kind][0]
        form = ReasonForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            self._apply(request, kind, [game], form.cleaned_data["reason"])
            return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.pk]))
        return reason_page(
            request,
            title=_("%(act)s: game #%(game)d") % {"act": title, "game": game.pk},
            targets=[game],
            form=form,
        )

    def verify_record_view(self, request: HttpRequest) -> HttpResponse:
        self._refuse_unless_moderator(request)
        form = RecordUploadForm(request.POST or None, request.FILES or None)
        outcome: dict[str, Any] = {}
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["record"]
            raw = upload.read(MAX_RECORD_BYTES + 1)
            try:
                if len(raw) > MAX_RECORD_BYTES:
                    raise RecordError(0, _("the file is larger than a record can be"))
                verified = verify_record(raw.decode("utf-8"))
            except UnicodeDecodeError:
                outcome = {"error": _("the file is not UTF-8 text")}
            except RecordError as error:
                outcome = {"error": str(error)}
            else:
                outcome = {"verified": verified}
        context = {
            **self.admin_site.each_context(request),
            "title": _("Verify a game record"),
            "form": form,
            "opts": self.model._meta,
            **outcome,
        }
        return TemplateResponse(request, "admin/games/game/verify_record.html", context)

    # Moderation acts -------------------------------------------------------

    # kind: (the page's title, the moderation service, what the report says was done)
    _ACTS: dict[str, tuple[Promise, str, Promise]] = {
        "verify": (
            gettext_lazy("Verify the replay"),
            "game_verify",
            gettext_lazy("replay verified"),
        ),
        "void": (gettext_lazy("Void the result"), "game_void", gettext_lazy("result voided")),
        "reinstate": (
            gettext_lazy("Reinstate the result"),
            "game_reinstate",
            gettext_lazy("result reinstated"),
        ),
        "flag": (gettext_lazy("Flag"), "game_flag", gettext_lazy("flagged")),
        "clear_flag": (
            gettext_lazy("Clear the flag"),
            "game_clear_flag",
            gettext_lazy("flag cleared"),
        ),
        "ban": (gettext_lazy("Ban the player"), "player_ban", gettext_lazy("player banned")),
    }

    def _apply(self, request: HttpRequest, kind: str, games: list[Game], reason: str) -> None:
        moderator = moderator_of(request)
        done: list[str] = []
        refused: list[str] = []
        for game in games:
            try:
                if kind == "verify":
                    _action, mismatches = moderation.game_verify(
                        game=game, moderator=moderator, reason=reason
                    )
                    if mismatches:
                        refused.extend(str(m) for m in mismatches)
                    else:
                        done.append(_("game #%(game)d: the replay matches") % {"game": game.pk})
                elif kind == "ban":
                    moderation.player_ban(player=game.player, moderator=moderator, reason=reason)
                    done.append(_("%(player)s banned") % {"player": game.player})
                else:
                    _title, service, outcome = self._ACTS[kind]
                    getattr(moderation, service)(game=game, moderator=moderator, reason=reason)
                    done.append(
                        _("game #%(game)d: %(outcome)s") % {"game": game.pk, "outcome": outcome}
                    )
            except ModerationRefused as error:
                refused.append(str(error))
        report(request, done, refused)

    def _bulk(
        self, request: HttpRequest, queryset: QuerySet[Game], kind: str
    ) -> TemplateResponse | None:
        games = list(queryset.select_related("player"))
        if "apply" in request.POST:
            form = ReasonForm(request.POST)
            if form.is_valid():
                self._apply(request, kind, games, form.cleaned_data["reason"])
                return None
        else:
            form = ReasonForm()
        return reason_page(
            request,
            title=str(self._ACTS[kind][0]),
            targets=games,
            form=form,
        )

    verify_replays = bulk_action("verify", gettext_lazy("Verify the replay of the selected games"))
    void_results = bulk_action("void", gettext_lazy("Void the results of the selected games"))
    reinstate_results = bulk_action(
        "reinstate", gettext_lazy("Reinstate the voided results of the selected games")
    )
    flag_games = bulk_action("flag", gettext_lazy("Flag the selected games"))
    clear_flags = bulk_action("clear_flag", gettext_lazy("Clear the flags of the selected games"))
    ban_players = bulk_action("ban", gettext_lazy("Ban the players of the selected games"))

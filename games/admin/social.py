"""Daily attempts, challenges and their attempts: listed for moderators to audit.

Nothing here edits history (ModerationOnlyAdmin: no add, change or delete);
a result is judged on its game's page, where the moderation acts are. No page
shows a deal's number before its time: a daily deal's until the day is over
for everyone, a challenge's while anyone may still race it unseen
(games.store.selectors, the deal's one rule).
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.admin.base import CountingAdmin, ModerationOnlyAdmin, related_count
from games.admin.fairness import RehearsalFilter
from games.challenges.models import Challenge, ChallengeAttempt
from games.daily.models import DailyAttempt
from games.models import Game
from games.store.selectors import game_deal_open_to_moderators

_BY_PLAYER = ("player__nickname", "player__user__username", "race__code", "=game__id")


def _deal(game: Game) -> str:
    if game_deal_open_to_moderators(game=game):
        return str(game.seed)
    return _("secret while it may still be played unseen")


def _result(game: Game) -> str:
    marks = [_("void")] if game.voided else []
    marks += [_("flagged")] if game.flagged else []
    marks += [_("unranked")] if hasattr(game, "unranked") else []
    shown = _("%(status)s, %(cards)d/95") % {"status": game.status, "cards": game.cards_played}
    return " · ".join([shown, *marks])


class _AttemptAdmin(ModerationOnlyAdmin):
    """What a daily attempt and a challenge attempt share: a race of one, its game."""

    date_hierarchy = "created_at"

    @admin.display(description=gettext_lazy("result"))
    def result(self, attempt: DailyAttempt | ChallengeAttempt) -> str:
        return _result(attempt.game)

    @admin.display(description=gettext_lazy("deal"))
    def deal(self, attempt: DailyAttempt | ChallengeAttempt) -> str:
        return _deal(attempt.game)


@admin.register(DailyAttempt)
class DailyAttemptAdmin(_AttemptAdmin):
    list_display = ("day", "variant", "player", "result", "game", "race", "created_at")
    list_filter = ("variant", "day", "game__status", "game__voided", RehearsalFilter)
    list_select_related = ("player", "game", "race", "game__unranked")
    search_fields = _BY_PLAYER
    fields = (("day", "variant"), "player", ("race", "game"), "result", "deal", "created_at")
    readonly_fields = ("result", "deal")
    ordering = ("-day", "variant", "player")


@admin.register(ChallengeAttempt)
class ChallengeAttemptAdmin(_AttemptAdmin):
    list_display = ("challenge", "player", "result", "game", "race", "created_at")
    list_filter = ("game__status", "game__voided")
    list_select_related = ("player", "game", "race", "challenge", "game__unranked")
    search_fields = ("challenge__code", *_BY_PLAYER)
    fields = ("challenge", "player", ("race", "game"), "result", "deal", "created_at")
    readonly_fields = ("result", "deal")
    ordering = ("-created_at",)


@admin.register(Challenge)
class ChallengeAdmin(CountingAdmin):
    list_display = ("code", "created_by", "recorded", "attempt_count", "created_at")
    list_select_related = ("created_by", "game", "game__player")
    count_of = "attempts"
    search_fields = ("code", "created_by__nickname", "created_by__user__username", "=game__id")
    date_hierarchy = "created_at"
    fields = ("code", "created_by", "game", "recorded", "deal", "created_at")
    readonly_fields = ("recorded", "deal")

    @admin.display(description=gettext_lazy("recorded game"))
    def recorded(self, challenge: Challenge) -> str:
        game = challenge.game
        return _("%(game)s by %(player)s: %(result)s") % {
            "game": game,
            "player": game.player,
            "result": _result(game),
        }

    @admin.display(description=gettext_lazy("attempts"), ordering="related_count")
    def attempt_count(self, challenge: Challenge) -> int:
        return related_count(challenge)

    @admin.display(description=gettext_lazy("deal"))
    def deal(self, challenge: Challenge) -> str:
        return _deal(challenge.game)

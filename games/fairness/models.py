"""The fairness room's tables (registered by games/apps.py)."""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class UnrankedReason(models.TextChoices):
    # The player, or an identity linked to them, had a game on this deal before.
    SEEN = "seen", _("deal seen before")
    # A guest's result carried into an account that already existed (docs/anticheat.md).
    CARRIED = "carried", _("guest result carried into an account")


class UnrankedGame(models.Model):
    """A game started where results are ranked (a daily attempt, a challenge
    attempt, a rated race) whose result is not ranked, and why. The game itself
    is untouched: it is played, kept and replayed like any other; rankings,
    streaks, records and ratings leave it out."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.PROTECT, related_name="unranked", verbose_name=_("game")
    )
    reason = models.CharField(_("reason"), max_length=12, choices=UnrankedReason.choices)
    # The earlier game on the same deal that showed it (for a moderator to compare).
    seen_in = models.ForeignKey(
        "games.Game",
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("deal seen in"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        app_label = "games"
        verbose_name = _("unranked game")
        verbose_name_plural = _("unranked games")
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(reason__in=UnrankedReason.values), name="unranked_reason_valid"
            ),
            models.CheckConstraint(condition=~Q(seen_in=F("game")), name="unranked_seen_elsewhere"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}: {self.reason}"


class IdentityKind(models.TextChoices):
    LOGIN = "login", _("a guest logged in to an account")
    LOGOUT = "logout", _("a new guest after a log-out")
    DELETION = "deletion", _("a new player after an account's deletion")


class IdentityLink(models.Model):
    """Two players one browser has been, so one person as far as the service can
    tell: what either has seen, the other has seen (games.fairness.rules)."""

    earlier = models.ForeignKey(
        "games.Player",
        on_delete=models.PROTECT,
        related_name="links_to_later",
        verbose_name=_("earlier player"),
    )
    later = models.ForeignKey(
        "games.Player",
        on_delete=models.PROTECT,
        related_name="links_to_earlier",
        verbose_name=_("later player"),
    )
    kind = models.CharField(_("kind"), max_length=12, choices=IdentityKind.choices)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        app_label = "games"
        verbose_name = _("identity link")
        verbose_name_plural = _("identity links")
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["earlier", "later"], name="identity_link_once"),
            models.CheckConstraint(condition=~Q(earlier=F("later")), name="identity_link_two"),
            models.CheckConstraint(
                condition=Q(kind__in=IdentityKind.values), name="identity_link_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.earlier_id} -> {self.later_id} ({self.kind})"

"""Personal access tokens: a program's key to its owner's account.

The secret is shown once, when the token is made; the table keeps only its
SHA-256 (a 256-bit random secret needs no slow hash: there is nothing to guess
from) and its first characters, to tell tokens apart on the account page. A
token is revoked, never deleted, so that the account page can say when.
"""

from __future__ import annotations

from typing import ClassVar, Final

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# What a token may do: `read` what its owner could, `play` races (the race
# socket, seats, marking the account as a bot). `play` includes `read`.
SCOPE_READ: Final = "read"
SCOPE_PLAY: Final = "play"
SCOPES: Final = (SCOPE_READ, SCOPE_PLAY)
SCOPE_CHOICES: Final = [(SCOPE_READ, _("Read")), (SCOPE_PLAY, _("Read and play"))]


class AccessToken(models.Model):
    player = models.ForeignKey(
        "games.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="access_tokens",
    )
    name = models.CharField(_("name"), max_length=60)
    digest = models.CharField(_("digest"), max_length=64, unique=True)
    prefix = models.CharField(_("prefix"), max_length=16)
    scope = models.CharField(_("scope"), max_length=8, choices=SCOPE_CHOICES)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("access token")
        verbose_name_plural = _("access tokens")
        constraints: ClassVar = [
            models.CheckConstraint(condition=Q(scope__in=SCOPES), name="token_scope_valid"),
            models.CheckConstraint(condition=~Q(name=""), name="token_name_not_empty"),
        ]
        indexes: ClassVar = [
            models.Index(fields=["player", "created_at"], name="token_by_player"),
        ]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name})"

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def allows(self, scope: str) -> bool:
        return self.scope == SCOPE_PLAY or scope == SCOPE_READ

"""The moderation log: who did what to which game or player, when and why."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.contrib.auth.models import User

from games.models.base import AppendOnlyModel, AppendOnlyQuerySet, optional_link
from games.models.games import Game
from games.models.players import Player

# The one permission the admin and the replay viewer ask about (declared on ModerationAction).
MODERATE_PERMISSION = "games.moderate"


class ModerationKind(models.TextChoices):
    VOID = "void", _("Void")
    REINSTATE = "reinstate", _("Reinstate")  # a voided result counts again
    FLAG = "flag", _("Flag")
    CLEAR_FLAG = "clear_flag", _("Clear flag")
    BAN = "ban", _("Ban")
    UNBAN = "unban", _("Unban")
    VERIFY = "verify", _("Verify")


# The acts that switch a game's projected flag, and to what: the latest of them
# for a field decides its value (games.moderation.services writes it, the replay check
# recomputes it).
GAME_SWITCHES: dict[str, tuple[str, bool]] = {
    ModerationKind.VOID: ("voided", True),
    ModerationKind.REINSTATE: ("voided", False),
    ModerationKind.FLAG: ("flagged", True),
    ModerationKind.CLEAR_FLAG: ("flagged", False),
}


class ModerationAction(AppendOnlyModel):
    """Who did what to which game or player, when and why: the moderation log.

    `moderator_name` keeps the name when the account is deleted (the foreign
    key then becomes null, the only change the database lets through).
    """

    Action = ModerationKind

    moderator: models.ForeignKey[User | None, User | None] = optional_link(
        models.ForeignKey,
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        _("moderator"),
        "moderation_actions",
    )
    moderator_name = models.CharField(_("moderator name"), max_length=150)
    action = models.CharField(_("action"), max_length=12, choices=ModerationKind.choices)
    game: models.ForeignKey[Game | None, Game | None] = optional_link(
        models.ForeignKey, Game, models.PROTECT, _("game"), "moderation_actions"
    )
    player: models.ForeignKey[Player | None, Player | None] = optional_link(
        models.ForeignKey, Player, models.PROTECT, _("player"), "moderation_actions"
    )
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        verbose_name = _("moderation action")
        verbose_name_plural = _("moderation actions")
        permissions: ClassVar = [("moderate", "Can moderate games, races and players")]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(game__isnull=False) | Q(player__isnull=False),
                name="moderation_has_target",
            ),
            models.CheckConstraint(
                condition=Q(action__in=ModerationKind.values), name="moderation_action_valid"
            ),
        ]
        indexes: ClassVar = [models.Index(fields=["-created_at"], name="moderation_recent")]

    def __str__(self) -> str:
        if self.game_id:
            target = _("game #%(id)s") % {"id": self.game_id}
        else:
            target = _("player #%(id)s") % {"id": self.player_id}
        return _("%(action)s %(target)s by %(moderator)s") % {
            "action": self.get_action_display(),
            "target": target,
            "moderator": self.moderator_name,
        }

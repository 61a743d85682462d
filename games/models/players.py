"""Who plays: an account's player, or a guest."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.contrib.auth.models import User

from games.models.base import optional_link

# What a deleted account's games show for its name (docs/store.md, "Deleting an account").
DELETED_NICKNAME = "deleted player"


class Player(models.Model):
    """Someone who plays: an account's player, or a guest.

    A guest has no user; it is reached only through the Django session that
    created it (the session stores its id). The nickname is a display name,
    never unique and never a key: picking a guest's nickname gives nothing.
    """

    user: models.OneToOneField[User | None, User | None] = optional_link(
        models.OneToOneField, settings.AUTH_USER_MODEL, models.SET_NULL, _("user"), "player"
    )
    nickname = models.CharField(_("nickname"), max_length=40)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    banned_at = models.DateTimeField(_("banned at"), null=True, blank=True)
    # The account was deleted (games.accounts.services.account_delete): the
    # player row stays for its games, with no user and DELETED_NICKNAME.
    deleted_at = models.DateTimeField(_("deleted at"), null=True, blank=True)
    # A program's account, marked once through its own token and for good
    # (games.bots.rules): shown as BOT wherever its name shows, rated among bots.
    is_bot = models.BooleanField(_("bot"), default=False)
    # False for a guest still under the name the site gave it ("Guest"): asked for
    # one before the name is first shown to others (games.accounts.services).
    nickname_chosen = models.BooleanField(_("nickname chosen"), default=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints: ClassVar = [
            models.CheckConstraint(condition=~Q(nickname=""), name="player_nickname_not_empty"),
            models.CheckConstraint(
                condition=Q(deleted_at__isnull=True)
                | (Q(user__isnull=True) & Q(nickname=DELETED_NICKNAME)),
                name="player_deleted_has_no_name",
            ),
            # Only an account becomes a bot: its token is how it does.
            models.CheckConstraint(
                condition=Q(is_bot=False) | Q(user__isnull=False) | Q(deleted_at__isnull=False),
                name="player_bot_is_an_account",
            ),
            # An account plays under its username: a name it chose.
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(nickname_chosen=True),
                name="player_account_name_chosen",
            ),
        ]

    def __str__(self) -> str:
        if self.deleted_at is not None:
            return _("%(nickname)s (deleted #%(id)s)") % {"nickname": self.nickname, "id": self.pk}
        if self.user_id is not None:
            return _("%(nickname)s (user #%(id)s)") % {"nickname": self.nickname, "id": self.pk}
        return _("%(nickname)s (guest #%(id)s)") % {"nickname": self.nickname, "id": self.pk}

    @property
    def is_guest(self) -> bool:
        return self.user_id is None

"""Deleting an account: the person goes, their games stay (docs/store.md, "Deleting an account").

The user row (username, e-mail, password hash) is deleted; the player row
that their games point at stays, without a user and under DELETED_NICKNAME.
Moves never name a player (a game's log is tokens and times; the player is
a column of the game), so no log is edited: the name was never in it. What
else carried the name is cleared in the same transaction: every session of
the account, the log-in attempts django-axes kept under the username, and
the admin's history entries that quoted the player or the user, and the
recent history of their races (the outbox's rows, which quote racers by name:
clients behind are then answered with a snapshot).
"""

from __future__ import annotations

import logging

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.accounts.selectors import SESSION_PLAYER_KEY
from games.common.errors import Refused
from games.models import DELETED_NICKNAME, Game, Player, Race, RaceStatus
from games.races.outbox import race_history_forget
from games.races.services import race_announce_racers

log = logging.getLogger(__name__)


class DeletionRefused(Refused):
    """This account cannot be deleted by its owner; nothing changed."""


def account_delete(*, user: User) -> Player | None:
    """Delete `user`, keeping their player (and so their games) as a deleted player.

    Staff accounts are refused: a moderator's name in the moderation log is
    the record of who decided what, and an administrator closes such an
    account deliberately (docs/store.md)."""
    if user.is_staff or user.is_superuser:
        raise DeletionRefused(
            "staff", _("a staff account is closed by an administrator, not from this page")
        )
    player_id = Player.objects.filter(user_id=user.pk).values_list("pk", flat=True).first()
    with transaction.atomic():
        user.delete()  # `user_deleted_forget` runs first, in this transaction
    return Player.objects.filter(pk=player_id).first() if player_id else None


def user_deleted_forget(*, instance: User, **_: object) -> None:
    """Everything that carried the user's name, forgotten as the user row goes.

    A `pre_delete` receiver (games/apps.py): deleting a user any other way (the
    admin, the shell) forgets the same, so no path leaves a name behind."""
    user = instance
    player = Player.objects.select_for_update().filter(user_id=user.pk).first()
    if player is not None:
        player.user = None
        player.nickname = DELETED_NICKNAME
        player.deleted_at = timezone.now()
        player.save(update_fields=["user", "nickname", "deleted_at"])
        _admin_history_forget(Player, player.pk)
    _sessions_end(user_id=user.pk, player_id=player.pk if player else None)
    username = user.get_username()
    for model in (AccessAttempt, AccessLog, AccessFailureLog):
        model.objects.filter(username=username).delete()
    _admin_history_forget(User, user.pk)
    if player is not None:
        raced = {
            *Race.objects.filter(entries__player=player).values_list("pk", flat=True),
            *Race.objects.filter(host=player).values_list("pk", flat=True),
            *Game.objects.filter(player=player, race__isnull=False).values_list(
                "race_id", flat=True
            ),
        }
        # The races' outbox rows quote the racers by name (docs/store.md).
        race_history_forget(race_ids=sorted(raced))
        # Races on show are told their racers again, this one as the deleted player.
        running = Race.objects.filter(pk__in=raced).exclude(status=RaceStatus.FINISHED)
        for race_id in running.values_list("pk", flat=True):
            race_announce_racers(race_id=race_id)
    log.info("user %s deleted; player #%s kept", user.pk, player.pk if player else None)


def _admin_history_forget(model: type[Player] | type[User], pk: int) -> None:
    """The admin's history quotes the object as it was named then: not any more."""
    content_type = ContentType.objects.get_for_model(model)
    LogEntry.objects.filter(content_type=content_type, object_id=str(pk)).update(
        object_repr=DELETED_NICKNAME, change_message=""
    )


def _sessions_end(*, user_id: int, player_id: int | None) -> None:
    """Every session signed in as the user, or holding the player as its guest.

    Sessions are signed blobs: each live one is decoded. A few thousand live
    sessions cost well under a second, and an account is deleted rarely.
    """
    ending = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        data = session.get_decoded()
        if data.get("_auth_user_id") == str(user_id) or (
            player_id is not None and data.get(SESSION_PLAYER_KEY) == player_id
        ):
            ending.append(session.pk)
    Session.objects.filter(pk__in=ending).delete()

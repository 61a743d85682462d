"""What makes an account a bot, and what a bot may not do that a person may.

An account becomes a bot through its own play-scoped token, before it has
raced: its ratings then never mix a person's races with a program's. There
is no way back (no service unmarks one): a bot's results stay a bot's.
"""

from __future__ import annotations

from typing import Any, Final

from django.db import transaction
from django.utils.translation import gettext as _

from games.common.errors import Refused
from games.models import Game, Player

# The house bot's account (games/bots/house.py makes it the first time it is needed).
HOUSE_USERNAME: Final = "sultan-bot"


def is_house_bot(*, user: Any) -> bool:
    """Is this user the house bot's account, the server's own client?"""
    return user is not None and user.is_authenticated and user.get_username() == HOUSE_USERNAME


class BotRefused(Refused):
    """`code`: not_account (a guest or a deleted account), has_games (it raced already)."""


def player_mark_bot(*, player: Player) -> Player:
    """Mark the account as a bot for good; marking a bot again changes nothing."""
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if locked.is_bot:
            return locked
        if locked.user_id is None or locked.deleted_at is not None:
            raise BotRefused("not_account", _("only an account can become a bot"))
        if Game.objects.filter(player=locked, race__isnull=False).exists():
            raise BotRefused(
                "has_games", _("an account that has raced cannot become a bot: make a new one")
            )
        locked.is_bot = True
        locked.save(update_fields=["is_bot"])
    return locked

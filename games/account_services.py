"""Writes for accounts: a guest's games follow them into the account they create.

A guest is reached only through its session; an account's player through its
user. Claiming moves the guest under the user, so everything the guest played
(practice, races, history) is the account's from then on, and the old session
key no longer reaches it (`player_for_session` looks up guests only).
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from games.models import Player
from games.services import MAX_NICKNAME


class ClaimRefused(Exception):
    """The guest could not be attached to the account; nothing was written."""


def player_claim_for_user(*, player: Player, user: AbstractBaseUser) -> Player:
    """Make the guest `player` the player of `user`, which must not have one yet.

    The nickname becomes the username, as for any account's player: the same
    name then shows in races whichever way the account was made.
    """
    with transaction.atomic():
        # Locked and read afresh: two sign-ups racing for one guest must not both win.
        guest = Player.objects.select_for_update().get(pk=player.pk)
        if guest.user_id is not None:
            raise ClaimRefused("this player already belongs to an account")
        if Player.objects.filter(user_id=user.pk).exists():
            raise ClaimRefused("this account already has a player")
        guest.user_id = user.pk
        guest.nickname = user.get_username()[:MAX_NICKNAME]
        guest.save(update_fields=["user", "nickname"])
    return guest


def player_rename(*, player: Player, nickname: str) -> Player:
    """A guest's new display name. Accounts keep their username."""
    cleaned = " ".join(nickname.split())[:MAX_NICKNAME]
    if not cleaned:
        raise ValueError("a nickname needs at least one visible character")
    if not player.is_guest:
        raise ValueError("an account plays under its username")
    player.nickname = cleaned
    player.save(update_fields=["nickname"])
    return player

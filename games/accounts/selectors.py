"""Reads for accounts: who the visitor is. Nothing here creates a player."""

from __future__ import annotations

from typing import Final

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest

from games.common.http import client_address
from games.models import Player

# The session key that is a guest's only way in.
SESSION_PLAYER_KEY: Final = "sultan_player_id"
# Who this browser was before a log-out or an account's deletion: [[player id, kind], ...].
# The next player it becomes (a guest, a log-in, a sign-up) is linked to them
# (games.fairness: one browser is one person, as far as rankings can tell).
SESSION_EARLIER_KEY: Final = "sultan_earlier_players"


def session_earlier(*, session: SessionBase) -> list[tuple[int, str]]:
    """The players this browser was before (see SESSION_EARLIER_KEY), well-formed only."""
    kept = session.get(SESSION_EARLIER_KEY, [])
    if not isinstance(kept, list):
        return []
    return [
        (entry[0], entry[1])
        for entry in kept
        if isinstance(entry, list)
        and len(entry) == 2
        and isinstance(entry[0], int)
        and isinstance(entry[1], str)
    ]


def player_who_browses(*, request: HttpRequest) -> Player | None:
    """Whom a ranking judges the visitor as: their player, else the player this browser
    was before a log-out (a guest made now would be linked to them)."""
    player = player_for_request(request)
    if player is not None:
        return player
    earlier = session_earlier(session=request.session)
    return Player.objects.filter(pk=earlier[0][0]).first() if earlier else None


def player_for_request(request: HttpRequest) -> Player | None:
    """The account's player when signed in, else the session's guest, else None."""
    return player_for_session(user=request.user, session=request.session)


def work_identity(request: HttpRequest) -> tuple[int | None, str]:
    """Whom a request's quota-bound work (the solver's) counts against: the visitor's
    player id, None without one, and their address (games.quotas)."""
    player = player_for_request(request)
    return (player.pk if player else None), client_address(request)


def player_for_session(
    *, user: AbstractBaseUser | AnonymousUser | None, session: SessionBase
) -> Player | None:
    """As `player_for_request`, from a user and a session (a websocket's scope has both)."""
    if user is not None and user.is_authenticated:
        # Signing up or logging in made it (`player_on_login`).
        return Player.objects.filter(user_id=user.pk).first()
    player_id = session.get(SESSION_PLAYER_KEY)
    if not isinstance(player_id, int):
        return None
    # A guest later claimed by an account is no longer reachable by a session.
    return Player.objects.filter(pk=player_id, user__isnull=True, deleted_at__isnull=True).first()

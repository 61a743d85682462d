"""Writes for access tokens: make one (its secret shown once), revoke one, note its use."""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Final

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.api.models import SCOPES, AccessToken
from games.common.errors import BadInput, Refused
from games.common.names import display_name
from games.models import Player

# Every secret starts so: a leaked one is recognisable in a log or a repository.
SECRET_PREFIX: Final = "sultan_"
MAX_TOKENS: Final = 20  # live tokens an account may hold
MAX_NAME: Final = 60
# `last_used_at` is written at most this often per token: an API request is a read.
USE_NOTED_EVERY: Final = timedelta(minutes=1)

logger = logging.getLogger(__name__)


def token_group(token_id: int) -> str:
    """The channel-layer group of a token's open sockets, in every process (sockets.py)."""
    return f"token-{token_id}"


class TokenRefused(Refused):
    """`code`: not_account, bad_name, bad_scope, too_many, not_found."""


@dataclass(frozen=True, slots=True)
class NewToken:
    token: AccessToken
    secret: str  # shown once, never stored


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def token_create(*, player: Player, name: str, scope: str) -> NewToken:
    """A new token for an account; the secret is in the answer and nowhere else."""
    if player.user_id is None or player.deleted_at is not None:
        raise TokenRefused("not_account", _("only an account has access tokens"))
    try:
        name = display_name(name, what=_("A token's name"), limit=MAX_NAME)
    except BadInput as bad:  # the one name rule: the account page shows it
        raise TokenRefused(bad.code, bad.message) from None
    if scope not in SCOPES:
        raise TokenRefused("bad_scope", _("a token's scope is read or play"))
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()
        live = AccessToken.objects.filter(player=player, revoked_at__isnull=True).count()
        if live >= MAX_TOKENS:
            raise TokenRefused(
                "too_many",
                _("at most %(n)d tokens at once: revoke one first") % {"n": MAX_TOKENS},
            )
        return token_issue(player=player, name=name, scope=scope)


def token_issue(*, player: Player, name: str, scope: str) -> NewToken:
    """The token itself, without the account page's checks: also the house bot's
    token for one race (games.bots.house), revoked when its race is over."""
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    token = AccessToken.objects.create(
        player=player,
        name=name,
        scope=scope,
        digest=token_digest(secret),
        prefix=secret[: len(SECRET_PREFIX) + 4],
    )
    return NewToken(token, secret)


def token_revoke(*, player: Player, token_id: int) -> AccessToken:
    """Revoke one of the player's own tokens; a revoked one stays revoked."""
    with transaction.atomic():
        token = AccessToken.objects.select_for_update().filter(pk=token_id, player=player).first()
        if token is None:
            raise TokenRefused("not_found", _("no such token of yours"))
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
            # Its open sockets close at once, in whichever process holds them.
            token_id = token.pk
            transaction.on_commit(lambda: _announce_revoked(token_id))
    return token


def _announce_revoked(token_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(token_group(token_id), {"type": "token.revoked"})
    except Exception:
        # The revocation stands; the sockets re-read their token (sockets.RECHECK_S).
        logger.warning(
            "token %s: its sockets were not told of its revocation", token_id, exc_info=True
        )


def token_note_use(*, token: AccessToken) -> None:
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= USE_NOTED_EVERY:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now

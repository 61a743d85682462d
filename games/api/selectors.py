"""Reads for the API: a token from its secret, an account's tokens, a player's games."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.api.models import AccessToken
from games.api.services import SECRET_PREFIX, token_digest
from games.models import Game, GameStatus, Player, RaceStatus
from games.store.tally import ANNOTATION, moves_on_table


def token_for_secret(*, secret: str) -> AccessToken | None:
    """The live token with this secret, of an account that still exists; else None."""
    if not secret.startswith(SECRET_PREFIX) or len(secret) > 100:
        return None
    return (
        AccessToken.objects.select_related("player", "player__user")
        .filter(
            digest=token_digest(secret),
            revoked_at__isnull=True,
            player__user__isnull=False,
            player__deleted_at__isnull=True,
        )
        .first()
    )


def token_live(*, token_id: int) -> bool:
    """Whether the token may still be used: not revoked, its account still there."""
    return AccessToken.objects.filter(
        pk=token_id,
        revoked_at__isnull=True,
        player__user__isnull=False,
        player__deleted_at__isnull=True,
    ).exists()


def tokens_of(*, player: Player) -> list[AccessToken]:
    return list(AccessToken.objects.filter(player=player).order_by("-created_at", "-pk"))


def player_by_username(*, username: str) -> Player | None:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        return None
    return Player.objects.filter(user=user, deleted_at__isnull=True).first()


def player_finished_games(
    *,
    player: Player,
    viewer: Player | None,
    variant: str | None = None,
    since: date | None = None,
    until: date | None = None,
) -> QuerySet[Game]:
    """The player's finished games the viewer may see, newest first.

    Anyone: race games whose race has ended (a sealed daily deal's too: its
    result is public, its cards are not — the record says so itself). The
    player alone: their practice games as well. Voided games are left out.
    """
    games = Game.objects.filter(player=player, voided=False).exclude(status=GameStatus.PLAYING)
    raced = Q(race__status=RaceStatus.FINISHED)
    games = games.filter(raced | Q(race__isnull=True)) if viewer == player else games.filter(raced)
    if variant is not None:
        games = games.filter(variant=variant)
    if since is not None:
        games = games.filter(finished_at__gte=_midnight(since))
    if until is not None:
        games = games.filter(finished_at__lt=_midnight(until + timedelta(days=1)))
    games = games.annotate(**{ANNOTATION: moves_on_table()})
    return games.select_related("race", "player", "player__user").order_by("-finished_at", "-pk")


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=timezone.get_current_timezone())

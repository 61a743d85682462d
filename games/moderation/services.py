"""Moderation as an event log: every act is a ModerationAction row first.

The game's `voided` and `flagged` and the player's `banned_at` are its
projection, written here in the same transaction as the event; after the
commit, ratings are replayed from the game's race (games.ratings). Nothing here
touches a game's moves: moderators judge a log, they never edit it.
"""

from __future__ import annotations

from typing import Final

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.daily.records import daily_records_refold
from games.models import GAME_SWITCHES, Game, ModerationAction, ModerationKind, Player
from games.ratings.services import ratings_game_judged
from games.store.selectors import Mismatch, game_projection_mismatches


class ModerationRefused(ValueError):
    pass


def _record(
    *, moderator: AbstractBaseUser, action: ModerationKind, reason: str, target: Game | Player
) -> ModerationAction:
    reason = reason.strip()
    if not reason:
        raise ModerationRefused(_("a moderation action needs a reason"))
    on: dict[str, Game | Player] = {"game" if isinstance(target, Game) else "player": target}
    return ModerationAction.objects.create(
        moderator_id=moderator.pk,
        moderator_name=moderator.get_username(),
        action=action,
        reason=reason,
        **on,
    )


_ALREADY: Final = {
    ("voided", True): gettext_lazy("game #%(game)d is already void"),
    ("voided", False): gettext_lazy("game #%(game)d is not void"),
    ("flagged", True): gettext_lazy("game #%(game)d is already flagged"),
    ("flagged", False): gettext_lazy("game #%(game)d is not flagged"),
}


def _switch_game(
    *, game: Game, moderator: AbstractBaseUser, reason: str, action: ModerationKind
) -> ModerationAction:
    """Record `action`, then set the game field it switches; refused when already so."""
    field, on = GAME_SWITCHES[action]
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if getattr(locked, field) == on:
            raise ModerationRefused(_ALREADY[field, on] % {"game": game.pk})
        recorded = _record(moderator=moderator, action=action, reason=reason, target=locked)
        Game.objects.filter(pk=game.pk).update(**{field: on})
        # A void or a flag holds the game out of ratings, a reinstatement or a
        # cleared flag lets it back in: its race and every later one are rated again.
        transaction.on_commit(lambda: ratings_game_judged(game_id=game.pk))
        if action in (ModerationKind.VOID, ModerationKind.REINSTATE):
            # A daily attempt's records are keyed on the newest of these acts.
            transaction.on_commit(lambda: daily_records_refold(game_id=game.pk), robust=True)
    return recorded


def game_void(*, game: Game, moderator: AbstractBaseUser, reason: str) -> ModerationAction:
    """Void a game's result: it stays in the store, counted for nothing."""
    return _switch_game(game=game, moderator=moderator, reason=reason, action=ModerationKind.VOID)


def game_reinstate(*, game: Game, moderator: AbstractBaseUser, reason: str) -> ModerationAction:
    """Take back a void: the void stays in the log, and the result counts again."""
    return _switch_game(
        game=game, moderator=moderator, reason=reason, action=ModerationKind.REINSTATE
    )


def game_flag(*, game: Game, moderator: AbstractBaseUser, reason: str) -> ModerationAction:
    return _switch_game(game=game, moderator=moderator, reason=reason, action=ModerationKind.FLAG)


def game_clear_flag(*, game: Game, moderator: AbstractBaseUser, reason: str) -> ModerationAction:
    return _switch_game(
        game=game, moderator=moderator, reason=reason, action=ModerationKind.CLEAR_FLAG
    )


def game_verify(
    *, game: Game, moderator: AbstractBaseUser, reason: str = "replay check"
) -> tuple[ModerationAction, list[Mismatch]]:
    """Replay the log against the projection and record the outcome."""
    mismatches = game_projection_mismatches(game=game)
    outcome = "; ".join(str(m) for m in mismatches) if mismatches else "the replay matches"
    action = _record(
        moderator=moderator,
        action=ModerationKind.VERIFY,
        reason=f"{reason.strip() or 'replay check'}: {outcome}",
        target=game,
    )
    return action, mismatches


def player_ban(*, player: Player, moderator: AbstractBaseUser, reason: str) -> ModerationAction:
    """Ban a player: the append path refuses their moves from now on."""
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if locked.banned_at is not None:
            raise ModerationRefused(_("%(player)s is already banned") % {"player": player})
        action = _record(
            moderator=moderator, action=ModerationKind.BAN, reason=reason, target=locked
        )
        Player.objects.filter(pk=player.pk).update(banned_at=action.created_at)
    return action


def player_unban(*, player: Player, moderator: AbstractBaseUser, reason: str) -> ModerationAction:
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if locked.banned_at is None:
            raise ModerationRefused(_("%(player)s is not banned") % {"player": player})
        action = _record(
            moderator=moderator, action=ModerationKind.UNBAN, reason=reason, target=locked
        )
        Player.objects.filter(pk=player.pk).update(banned_at=None)
    return action


__all__ = [
    "ModerationRefused",
    "game_clear_flag",
    "game_flag",
    "game_reinstate",
    "game_verify",
    "game_void",
    "player_ban",
    "player_unban",
]

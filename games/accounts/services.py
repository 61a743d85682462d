"""Writes for accounts: guests, an account's player, and a guest's games following them into
the account they sign in to.

A guest is reached only through its session; an account's player through its
user. Claiming moves the guest under the user, so everything the guest played
(practice, races, history) is the account's from then on, and the old session
key no longer reaches it (`player_for_session` looks up guests only). An
account that already has a player takes the guest's games into it instead, as
history: their ranked results stay out of its rankings (docs/anticheat.md).
Guests are throttled per address; every name is checked by `nickname_clean`.
"""

from __future__ import annotations

import logging
import unicodedata
from typing import Final

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest
from django.utils.translation import gettext as _

from games.accounts.selectors import (
    SESSION_EARLIER_KEY,
    SESSION_PLAYER_KEY,
    player_for_session,
    session_earlier,
)
from games.accounts.signals import player_games_changed_after_commit
from games.common import names
from games.common.errors import BadInput, Refused
from games.common.http import client_address
from games.fairness.models import IdentityKind
from games.fairness.services import games_unranked_carried, identity_link, ranked_games
from games.models import (
    Game,
    Player,
    Race,
    RaceEntry,
    RaceStatus,
)
from games.quotas.quotas import QuotaExceeded, quota_take
from games.races.services import race_announce_racers

log = logging.getLogger(__name__)

MAX_NICKNAME: Final = 40
_EARLIER_KEPT: Final = 16


class GuestRefused(Refused):
    """No new guest, nothing written: `code` bad_name (400) or quota (429, after
    `retry_after` seconds)."""

    def __init__(self, code: str, message: str, *, status: int, retry_after: int = 0) -> None:
        super().__init__(code, message)
        self.status = status
        self.retry_after = retry_after


def nickname_clean(nickname: object) -> str:
    """The one check of a nickname (games.common.names.display_name), for every path
    that names a player: `BadInput` with a clear message when it is refused."""
    return names.display_name(nickname, what=_("A nickname"), limit=MAX_NICKNAME)


def player_create_guest(*, nickname: str) -> Player:
    """A new guest. Nicknames are not unique: two guests may share one."""
    return Player.objects.create(nickname=nickname_clean(nickname))


def player_for_user(*, user: AbstractBaseUser) -> Player:
    """The account's player, created on first use with the username as nickname."""
    name = unicodedata.normalize("NFC", user.get_username())[:MAX_NICKNAME]
    player, _ = Player.objects.get_or_create(user_id=user.pk, defaults={"nickname": name})
    return player


def player_start_guest_session(
    *, request: HttpRequest, nickname: str, chosen: bool = True
) -> Player:
    """Create a guest and bind it to this browser's session (the session is its only key).
    `chosen` is False for the site's default name (practice without one): the guest is
    asked for a name before it is first shown to others (`player_identify`).

    Guests are counted per address (games.quotas, kind `guest`): a guest is free,
    and a fresh one is a fresh sight of every deal, so a flood of them is refused."""
    try:
        name = nickname_clean(nickname)
    except BadInput as bad:
        raise GuestRefused(bad.code, bad.message, status=400) from None
    try:
        quota_take(kind="guest", player_id=None, address=client_address(request))
    except QuotaExceeded as refused:
        raise GuestRefused(
            refused.code, refused.message, status=refused.status, retry_after=refused.retry_after
        ) from None
    player = Player.objects.create(nickname=name, nickname_chosen=chosen)
    request.session.cycle_key()
    request.session[SESSION_PLAYER_KEY] = player.pk
    session_link_earlier(session=request.session, player=player)
    return player


def session_remember_earlier(*, session: SessionBase, player_id: int, kind: str) -> None:
    """After a log-out or an account's deletion: the browser was this player."""
    kept = [[pk, k] for pk, k in session_earlier(session=session) if pk != player_id]
    session[SESSION_EARLIER_KEY] = [[player_id, kind], *kept][:_EARLIER_KEPT]


def session_link_earlier(*, session: SessionBase, player: Player) -> int:
    """Link `player` to every player this browser was before; returns how many games
    that left unranked (ratings replay for them)."""
    unranked = 0
    for player_id, kind in session_earlier(session=session):
        earlier = Player.objects.filter(pk=player_id).first()
        if earlier is not None and kind in IdentityKind.values:
            unranked += identity_link(earlier=earlier, later=player, kind=kind)
    if unranked:
        player_games_changed_after_commit(player_id=player.pk)
    return unranked


class ClaimRefused(Refused):
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
            raise ClaimRefused("claimed", _("this player already belongs to an account"))
        if Player.objects.filter(user_id=user.pk).exists():
            raise ClaimRefused("has_player", _("this account already has a player"))
        guest.user_id = user.pk
        guest.nickname = unicodedata.normalize("NFC", user.get_username())[:MAX_NICKNAME]
        guest.nickname_chosen = True
        guest.save(update_fields=["user", "nickname", "nickname_chosen"])
        player_games_changed_after_commit(player_id=guest.pk)
    return guest


def player_take_guest_games(*, guest: Player, user: AbstractBaseUser) -> int:
    """On logging in: the guest's games, seats and hosted races become the account's.

    Returns how many games moved. An account without a player yet claims the
    guest whole (a sign-up claims before this, and keeps the guest's ranked
    results: one identity became another). An account that exists already takes the guest's games as
    history, never its ranked results: a guest's attempts and rated races come
    in unranked (docs/anticheat.md, "Identities"), so an account cannot keep
    the best of any number of guests' tries. The two are linked, so what either
    saw, both saw. A race the account already plays (or sits in) stays with the
    guest, as one player plays a race once. A banned guest keeps everything:
    logging in must not shed a ban. Moves are not touched: a game's log is the
    same whoever's name is on it.
    """
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=guest.pk)
        if locked.user_id is not None or locked.banned_at is not None:
            return 0
        account = Player.objects.select_for_update().filter(user_id=user.pk).first()
        if account is None:
            # An account made elsewhere (the admin, the shell) that never played: the
            # guest becomes its player, but a log-in is no sign-up: its results come in
            # unranked all the same.
            games_unranked_carried(
                games=list(Game.objects.filter(ranked_games(), player=locked).distinct())
            )
            player_claim_for_user(player=locked, user=user)
            return Game.objects.filter(player=locked).count()
        raced = Game.objects.filter(player=account, race__isnull=False)
        seated = RaceEntry.objects.filter(player=account)
        shared = {
            *raced.values_list("race_id", flat=True),
            *seated.values_list("race_id", flat=True),
            *_attempts_the_account_has(locked, account),
        }
        moving = Race.objects.filter(
            Q(host=locked) | Q(entries__player=locked) | Q(games__player=locked)
        ).exclude(pk__in=shared)
        races = set(moving.values_list("pk", flat=True))
        games = Game.objects.filter(player=locked).exclude(race_id__in=shared)
        games_unranked_carried(games=list(games.filter(ranked_games()).distinct()))
        moved = games.update(player=account)
        RaceEntry.objects.filter(player=locked, race_id__in=races).update(player=account)
        Race.objects.filter(host=locked, pk__in=races).update(host=account)
        # Through the reverse names (store/attempts.RaceOfOne): accounts imports no room
        # that imports it.
        locked.dailyattempts.filter(race_id__in=races).update(player=account)
        locked.challengeattempts.filter(race_id__in=races).update(player=account)
        unranked = identity_link(earlier=locked, later=account, kind=IdentityKind.LOGIN)
        if moved or unranked:
            player_games_changed_after_commit(player_id=account.pk)
        # Races still on show the new name: their racers are announced again.
        for race_id in (
            Race.objects.filter(pk__in=races)
            .exclude(status=RaceStatus.FINISHED)
            .values_list("pk", flat=True)
        ):
            race_announce_racers(race_id=race_id)
    return moved


def _attempts_the_account_has(guest: Player, account: Player) -> set[int]:
    """The guest's daily and challenge attempts (races of one) the account has its
    own of: one attempt per day and variant, and per challenge, so those stay."""
    days = account.dailyattempts.values_list("day", "variant")
    taken = set(days)
    daily = guest.dailyattempts.values_list("race_id", "day", "variant")
    challenges = set(account.challengeattempts.values_list("challenge_id", flat=True))
    raced = guest.challengeattempts.filter(challenge_id__in=challenges)
    return {
        *(race for race, day, variant in daily if (day, variant) in taken),
        *raced.values_list("race_id", flat=True),
    }


def player_rename(*, player: Player, nickname: str) -> Player:
    """A guest's new display name (`BadInput` when refused). Accounts keep their username."""
    if not player.is_guest:
        raise ValueError("an account plays under its username")
    player.nickname = nickname_clean(nickname)
    player.nickname_chosen = True
    player.save(update_fields=["nickname", "nickname_chosen"])
    return player


def player_on_login(*, request: HttpRequest | None, user: AbstractBaseUser, **_: object) -> None:
    """Every signed-in account has its player (a `user_logged_in` receiver, so the
    admin's log-in too): the session's guest brings its games along
    (`player_take_guest_games`), and pages then only read who the visitor is."""
    guest_id = request.session.get(SESSION_PLAYER_KEY) if request is not None else None
    guest = None
    if isinstance(guest_id, int):
        guest = Player.objects.filter(
            pk=guest_id, user__isnull=True, deleted_at__isnull=True
        ).first()
    if guest is not None:
        moved = player_take_guest_games(guest=guest, user=user)
        log.info("guest #%s: %s games into user %s", guest.pk, moved, user.pk)
    player = player_for_user(user=user)
    if request is not None:
        session_link_earlier(session=request.session, player=player)


def player_identify(*, request: HttpRequest, nickname: str | None) -> Player | None:
    """The visitor's player, about to be shown to others (a race's seat, a challenge,
    a daily board's row): a new guest bound to this session when they give a
    nickname; a guest still under the site's default name takes the one given, or
    is refused (`name_needed`) without one. `GuestRefused` when the nickname or the
    address's guest quota says no."""
    player = player_for_session(user=request.user, session=request.session)
    if player is not None and not player.nickname_chosen:
        if not (nickname and nickname.strip()):
            raise GuestRefused(
                "name_needed",
                _("Pick a nickname first: others will see it beside your game."),
                status=400,
            )
        try:
            return player_rename(player=player, nickname=nickname)
        except BadInput as bad:
            raise GuestRefused(bad.code, bad.message, status=400) from None
    if player is not None:
        return player
    if nickname and nickname.strip():
        return player_start_guest_session(request=request, nickname=nickname)
    return None

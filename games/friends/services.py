"""Writes about players' relations: follow, block, the invitation setting, invitations.

Every refusal is a `FriendRefused` (a `Refused`): nothing is written. What the
other player must learn (an invitation, its answer) is told after commit, to
their site sockets' group in whatever process holds them (notify.py).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Final

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.common.errors import Refused
from games.friends import protocol
from games.friends.models import (
    INVITE_CHOICES,
    Block,
    Follow,
    Invitation,
    InvitationStatus,
    InvitePrivacy,
)
from games.friends.notify import site_tell_now
from games.friends.presence import presence_online
from games.friends.selectors import blocks, follows, friends_are, invite_refusal
from games.models import Player, Race, RaceEntry, RaceStatus
from games.quotas.quotas import quota_take
from games.races.selectors import race_seats_left
from games.races.services import RaceRefused, race_close_if_alone, race_create, race_join

INVITATION_TTL: Final = timedelta(minutes=2)
MAX_INVITEES: Final = 7  # a race seats 8


class FriendRefused(Refused):
    """A follow, block or invitation the rules do not allow."""


def _account(player: Player) -> None:
    if player.is_guest or player.deleted_at is not None:
        raise FriendRefused("not_account", _("only account players have friends: log in first"))


def follow_create(*, follower: Player, followee: Player) -> None:
    """`follower` follows `followee` (again: no change). Refused for guests, oneself, and
    someone who blocks the follower."""
    _account(follower)
    _account(followee)
    if blocks(blocker=followee, blocked=follower):
        raise FriendRefused("blocked", _("this player does not accept follows from you"))
    try:
        with transaction.atomic():
            _row, made = Follow.objects.get_or_create(follower=follower, followee=followee)
            if made and follows(follower=followee, followee=follower):
                _tell_presence_shared(follower, followee, shared=True)
    except IntegrityError:  # follow_not_oneself: the one case get_or_create cannot meet
        raise FriendRefused("oneself", _("you cannot follow yourself")) from None


def follow_delete(*, follower: Player, followee: Player) -> None:
    with transaction.atomic():
        deleted, _rows = Follow.objects.filter(follower=follower, followee=followee).delete()
        if deleted and follows(follower=followee, followee=follower):
            _tell_presence_shared(follower, followee, shared=False)


def block_create(*, blocker: Player, blocked: Player) -> None:
    """Block: both follows between them go, and so do their pending invitations."""
    _account(blocker)
    try:
        with transaction.atomic():
            Block.objects.get_or_create(blocker=blocker, blocked=blocked)
            were_friends = friends_are(a=blocker, b=blocked)
            Follow.objects.filter(
                Q(follower=blocker, followee=blocked) | Q(follower=blocked, followee=blocker)
            ).delete()
            if were_friends:
                _tell_presence_shared(blocker, blocked, shared=False)
            pending = Invitation.objects.filter(
                Q(inviter=blocker, invitee=blocked) | Q(inviter=blocked, invitee=blocker),
                status=InvitationStatus.PENDING,
            )
            race_ids = set(pending.values_list("race_id", flat=True))
            pending.update(status=InvitationStatus.DECLINED, answered_at=timezone.now())
            for race_id in sorted(race_ids):
                _lobby_close_if_unwanted(race_id)
    except IntegrityError:
        raise FriendRefused("oneself", _("you cannot block yourself")) from None


def block_delete(*, blocker: Player, blocked: Player) -> None:
    Block.objects.filter(blocker=blocker, blocked=blocked).delete()


def privacy_set(*, player: Player, invitations: str) -> None:
    _account(player)
    if invitations not in dict(INVITE_CHOICES):
        raise FriendRefused("bad_request", _("choose friends only, anyone or no one"))
    InvitePrivacy.objects.update_or_create(player=player, defaults={"invitations": invitations})


def _refusal_message(code: str, nickname: str) -> str:
    messages = {
        "not_account": _("%(name)s has no account to be invited to"),
        "blocked": _("%(name)s cannot be invited by you"),
        "no_invitations": _("%(name)s accepts invitations from no one"),
        "friends_only": _("%(name)s accepts invitations from friends only"),
    }
    return messages[code] % {"name": nickname}


def invitation_send(
    *,
    inviter: Player,
    invitees: list[Player],
    address: str,
    race: Race | None = None,
    variant: str = "sultan",
    automatic_moves: bool = False,
    time_limit_s: int = 900,
) -> list[Invitation]:
    """Invite `invitees` to `race` (the inviter's own lobby) or to a new race of the
    settings given. All or nothing: one invitee who may not be invited refuses the lot.

    The inviter's quota is taken only once every refusal has been ruled out: a refused
    invitation spends none of it (`QuotaExceeded` itself is the one refusal that does)."""
    _account(inviter)
    if not invitees or len(invitees) > MAX_INVITEES:
        raise FriendRefused("bad_request", _("invite 1 to 7 players"))
    for invitee in invitees:
        if invitee.pk == inviter.pk:
            raise FriendRefused("oneself", _("you cannot invite yourself"))
        refusal = invite_refusal(inviter=inviter, invitee=invitee)
        if refusal is not None:
            raise FriendRefused(refusal, _refusal_message(refusal, invitee.nickname))
    with transaction.atomic():
        if race is None:
            race = _invitation_lobby(
                inviter=inviter,
                invitees=invitees,
                variant=variant,
                automatic_moves=automatic_moves,
                time_limit_s=time_limit_s,
            )
        elif (
            race.status != RaceStatus.LOBBY
            or not RaceEntry.objects.filter(
                race=race, player=inviter, left_at__isnull=True
            ).exists()
        ):
            raise FriendRefused("not_open", _("invite to a lobby you are seated in"))
        elif not _seats_for(race, invitees):
            # Their Accept could only be refused as "this race is full".
            raise FriendRefused("full", _("this lobby has no seat left for them"))
        # Last before the writes: every refusal above spent nothing. The count is one
        # atomic increment in the cache; over quota, the exception rolls back the lobby
        # made or withdrawn above, so nothing is written.
        quota_take(kind="invite", player_id=inviter.pk, address=address)
        now = timezone.now()
        made = []
        for invitee in invitees:
            invitation, _new = Invitation.objects.update_or_create(
                race=race,
                invitee=invitee,
                defaults={
                    "inviter": inviter,
                    "created_at": now,
                    "expires_at": now + INVITATION_TTL,
                    "status": InvitationStatus.PENDING,
                    "answered_at": None,
                },
            )
            invitation.race = race
            invitation.inviter = inviter
            made.append(invitation)
        payloads = [(i.invitee_id, protocol.invitation_payload(i)) for i in made]
        transaction.on_commit(lambda: _tell_all(payloads))
    return made


def _invitation_lobby(
    *,
    inviter: Player,
    invitees: list[Player],
    variant: str,
    automatic_moves: bool,
    time_limit_s: int,
) -> Race:
    """Where a new invitation seats its invitees: the inviter's open invitation lobby of
    these settings that has a seat for each of them, else a new one. Each invitation once
    made a lobby of its own with its inviter seated as host, and one inviter collected
    six, each keeping them out of tournaments (#37). An older invitation lobby of other
    settings where they sit alone is withdrawn (its pending invitations dropped, the lobby
    closed) before the new one opens; one someone joined is a real race and stays.

    A lobby of these settings without seats for the invitees (most often others joined
    it: a host alone in an eight-seat lobby has room for the most one invitation asks) is
    left as it is, and the invitees go to a new lobby: they were asked to race, and an
    Accept into a full lobby would only be refused. Pending invitations hold no seat: as
    with a race's link, seats go to whoever accepts first.

    Runs inside the sender's transaction, holding the inviter's row until it commits:
    two invitations sent at once both looked, found none, and each opened a lobby."""
    Player.objects.select_for_update().filter(pk=inviter.pk).first()
    lobbies = list(
        Race.objects.filter(
            host=inviter,
            status=RaceStatus.LOBBY,
            public=False,
            entries__player=inviter,
            entries__left_at__isnull=True,
            invitations__inviter=inviter,
        )
        .distinct()
        .order_by("-created_at")
    )
    wanted = (variant, automatic_moves, time_limit_s)
    others = []
    for lobby in lobbies:
        if (lobby.variant, lobby.automatic_moves, lobby.time_limit_s) != wanted:
            others.append(lobby)
        elif _seats_for(lobby, invitees):
            return lobby
    for lobby in others:
        _lobby_withdraw(lobby)
    return race_create(
        host=inviter, variant=variant, automatic_moves=automatic_moves, time_limit_s=time_limit_s
    )


def _seats_for(lobby: Race, invitees: list[Player]) -> bool:
    """Whether `lobby`'s free seats take the invitees, one seat each: an invitee seated
    there already needs no other."""
    wanted = {p.pk for p in invitees}
    there = RaceEntry.objects.filter(race=lobby, left_at__isnull=True, player_id__in=wanted)
    return len(wanted) - there.count() <= race_seats_left(race=lobby)


def _lobby_withdraw(lobby: Race) -> None:
    """Close an invitation lobby its host sits in alone, dropping its pending invitations
    from the invitees' pages (status `withdrawn`: no note, their inviter moved on)."""
    if (
        RaceEntry.objects.filter(race=lobby, left_at__isnull=True)
        .exclude(player_id=lobby.host_id)
        .exists()
    ):
        return
    pending = list(
        Invitation.objects.select_for_update()
        .select_related("invitee")
        .filter(race=lobby, status=InvitationStatus.PENDING)
    )
    Invitation.objects.filter(pk__in=[i.pk for i in pending]).update(
        status=InvitationStatus.DECLINED, answered_at=timezone.now()
    )
    race_close_if_alone(race_id=lobby.pk)

    def tell() -> None:
        for invitation in pending:
            site_tell_now(
                invitation.invitee_id,
                "invitation_closed",
                id=invitation.pk,
                status="withdrawn",
                who=invitation.invitee.nickname,
                side="invitee",
            )

    transaction.on_commit(tell)


def invitation_answer(*, invitation_id: int, player: Player, accept: bool) -> Invitation:
    """The invitee's answer, once. Accepting seats them in the race's lobby."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .select_related("race", "inviter", "invitee")
            .filter(pk=invitation_id, invitee=player)
            .first()
        )
        if invitation is None:
            raise FriendRefused("not_found", _("no such invitation"))
        if invitation.status != InvitationStatus.PENDING:
            raise FriendRefused("answered", _("this invitation was already answered"))
        if invitation.expires_at <= timezone.now():
            raise FriendRefused("expired", _("this invitation has expired"))
        if accept:
            try:
                race_join(race=invitation.race, player=player)
            except RaceRefused as refused:
                raise FriendRefused(refused.code, refused.message) from None
        invitation.status = InvitationStatus.ACCEPTED if accept else InvitationStatus.DECLINED
        invitation.answered_at = timezone.now()
        invitation.save(update_fields=["status", "answered_at"])
        _tell_closed(invitation, invitation.status)
        if not accept:
            _lobby_close_if_unwanted(invitation.race_id)
    return invitation


def invitations_expire(*, player: Player) -> int:
    """Close `player`'s pending invitations (sent or received) whose time is up, telling
    both sides; each is closed once, whichever socket of either player gets there first."""
    now = timezone.now()
    due = Invitation.objects.filter(
        Q(inviter=player) | Q(invitee=player),
        status=InvitationStatus.PENDING,
        expires_at__lte=now,
    ).select_related("inviter", "invitee")
    closed = 0
    for invitation in due:
        with transaction.atomic():
            taken = Invitation.objects.filter(
                pk=invitation.pk, status=InvitationStatus.PENDING
            ).update(status=InvitationStatus.DECLINED, answered_at=now)
            if taken:
                closed += 1
                _tell_closed(invitation, "expired")
                _lobby_close_if_unwanted(invitation.race_id)
    return closed


def _tell_closed(invitation: Invitation, status: str) -> None:
    """Both sides hear it, each as theirs: the inviter is told who answered and how; the
    invitee's other tabs only drop the invitation (their answer is no news to them)."""
    who = invitation.invitee.nickname
    sides = ((invitation.inviter_id, "inviter"), (invitation.invitee_id, "invitee"))

    def tell() -> None:
        for pid, side in sides:
            site_tell_now(
                pid, "invitation_closed", id=invitation.pk, status=status, who=who, side=side
            )

    transaction.on_commit(tell)


def _lobby_close_if_unwanted(race_id: int) -> None:
    """The lobby an invitation seated its inviter in closes once no invitation to it is
    pending or accepted and its host sits there alone: an unanswered invitation never
    leaves its inviter hosting an empty lobby (which would keep them out of tournaments)."""
    wanted = Invitation.objects.filter(
        Q(status=InvitationStatus.ACCEPTED)
        | Q(status=InvitationStatus.PENDING, expires_at__gt=timezone.now()),
        race_id=race_id,
    )
    if not wanted.exists():
        race_close_if_alone(race_id=race_id)


def _tell_all(payloads: list[tuple[int, dict[str, Any]]]) -> None:
    for player_id, payload in payloads:
        site_tell_now(player_id, "invitation", invitation=payload)


def _username(player: Player) -> str:
    return player.user.username if player.user is not None else ""


def _tell_presence_shared(a: Player, b: Player, *, shared: bool) -> None:
    """Presence is between friends only: when two become friends each is told the other
    is online (if so); when they stop, each online one is shown to the other as gone."""

    def tell() -> None:
        online = presence_online(player_ids=[a.pk, b.pk])
        for viewer, other in ((a, b), (b, a)):
            if other.pk in online:
                site_tell_now(viewer.pk, "presence", player=_username(other), online=shared)

    transaction.on_commit(tell)

"""Reads about players' relations: follows, followers, friends, blocks, invitations, who may
invite, and what a friend is doing (racing now, their last daily)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Final

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from games.daily.selectors import DailyResult, daily_last_results, daily_results_among
from games.friends.models import (
    INVITE_ANYONE,
    INVITE_FRIENDS,
    INVITE_NOBODY,
    Block,
    Follow,
    Invitation,
    InvitationStatus,
    InvitePrivacy,
)
from games.friends.presence import presence_online
from games.models import Player, Race, RaceEntry, RaceStatus
from games.races.selectors import Standing


def follows(*, follower: Player, followee: Player) -> bool:
    return Follow.objects.filter(follower=follower, followee=followee).exists()


def friends_are(*, a: Player, b: Player) -> bool:
    """Mutual follows."""
    return follows(follower=a, followee=b) and follows(follower=b, followee=a)


def blocks_between(*, a: Player, b: Player) -> bool:
    """Either blocks the other."""
    return Block.objects.filter(Q(blocker=a, blocked=b) | Q(blocker=b, blocked=a)).exists()


def blocks(*, blocker: Player, blocked: Player) -> bool:
    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()


def invite_privacy(*, player: Player) -> str:
    row = InvitePrivacy.objects.filter(player=player).first()
    return row.invitations if row is not None else INVITE_FRIENDS


def invite_refusal(*, inviter: Player, invitee: Player) -> str | None:
    """Why `inviter` may not invite `invitee` (a code), or None when they may."""
    if invitee.is_guest or invitee.deleted_at is not None:
        return "not_account"
    if blocks_between(a=inviter, b=invitee):
        return "blocked"
    privacy = invite_privacy(player=invitee)
    if privacy == INVITE_NOBODY:
        return "no_invitations"
    if privacy != INVITE_ANYONE and not friends_are(a=inviter, b=invitee):
        return "friends_only"
    return None


@dataclass(frozen=True, slots=True)
class Followed:
    player: Player
    username: str
    friend: bool  # they follow back
    online: bool
    invitable: bool = False  # their setting lets `player` invite them (invite_refusal)


def followed_players(*, player: Player) -> list[Followed]:
    """Whom `player` follows, friends first; a friend with whether they are online now.

    Presence is shared between friends only: a follow needs no consent, so one who
    does not follow back is never shown online (docs/pages.md, *Friends*)."""
    back = Follow.objects.filter(follower=OuterRef("followee"), followee=player)
    rows = list(
        Follow.objects.filter(follower=player)
        .select_related("followee__user")
        .annotate(back=Exists(back))
        .order_by("-back", "followee__nickname", "followee_id")
    )
    online = presence_online(player_ids=[r.followee_id for r in rows if r.back])
    # Who may be invited, as invite_refusal decides it, in one query: a followed player
    # is never blocked either way (a block deletes the follows and refuses new ones).
    settings = dict(
        InvitePrivacy.objects.filter(player_id__in=[r.followee_id for r in rows]).values_list(
            "player_id", "invitations"
        )
    )

    def invitable(row: Follow) -> bool:
        if row.followee.is_guest or row.followee.deleted_at is not None:
            return False
        setting = settings.get(row.followee_id, INVITE_FRIENDS)
        back = bool(getattr(row, "back", False))  # the query's annotation
        return setting == INVITE_ANYONE or (setting == INVITE_FRIENDS and back)

    return [
        Followed(
            r.followee,
            r.followee.user.username if r.followee.user is not None else "",
            r.back,
            r.followee_id in online,
            invitable(r),
        )
        for r in rows
    ]


def friend_ids(*, player: Player) -> list[int]:
    """Mutual follows' player ids: those told when `player` comes and goes."""
    back = Follow.objects.filter(follower=OuterRef("followee"), followee=player)
    return list(
        Follow.objects.filter(follower=player)
        .filter(Exists(back))
        .values_list("followee_id", flat=True)
    )


def blocked_players(*, player: Player) -> QuerySet[Block]:
    return Block.objects.filter(blocker=player).select_related("blocked__user")


def invitations_pending(*, invitee: Player) -> QuerySet[Invitation]:
    return (
        Invitation.objects.filter(
            invitee=invitee, status=InvitationStatus.PENDING, expires_at__gt=timezone.now()
        )
        .select_related("inviter", "race")
        .order_by("created_at", "pk")
    )


def online_friend_usernames(*, player: Player) -> list[str]:
    return [f.username for f in followed_players(player=player) if f.online]


@dataclass(frozen=True, slots=True)
class Relation:
    """What a profile's visitor sees of their relation to its player, and may do."""

    following: bool
    follows_you: bool
    blocked: bool  # the visitor blocks them
    may_invite: bool = False  # their setting lets the visitor invite them (invite_refusal)


def relation_of(*, viewer: Player | None, other: Player) -> Relation | None:
    """None: no buttons (a guest, nobody, or one's own profile)."""
    if viewer is None or viewer.is_guest or viewer.pk == other.pk:
        return None
    return Relation(
        following=follows(follower=viewer, followee=other),
        follows_you=follows(follower=other, followee=viewer),
        blocked=blocks(blocker=viewer, blocked=other),
        may_invite=invite_refusal(inviter=viewer, invitee=other) is None,
    )


def friends_daily(*, player: Player, day: date, variant: str) -> list[Standing]:
    """The day's results of `player` and their friends, in the board's order."""
    ids = [player.pk, *friend_ids(player=player)]
    return daily_results_among(day=day, variant=variant, player_ids=ids)


def lobby_invitable(*, player: Player, race: Race) -> list[Followed]:
    """Whom `player` follows and may invite, not seated in `race`: whom its lobby may invite."""
    seated = set(
        RaceEntry.objects.filter(race=race, left_at__isnull=True).values_list(
            "player_id", flat=True
        )
    )
    return [f for f in followed_players(player=player) if f.invitable and f.player.pk not in seated]


@dataclass(frozen=True, slots=True)
class Follower:
    player: Player
    username: str
    friend: bool  # `player` follows them back
    online: bool  # a friend only: presence is never shown to one who is not


def followers_of(*, player: Player) -> list[Follower]:
    """Who follows `player`, those not followed back first (they are the news); friends
    with whether they are online, as `followed_players` shows them."""
    back = Follow.objects.filter(follower=player, followee=OuterRef("follower"))
    rows = list(
        Follow.objects.filter(followee=player)
        .select_related("follower__user")
        .annotate(back=Exists(back))
        .order_by("back", "follower__nickname", "follower_id")
    )
    online = presence_online(player_ids=[r.follower_id for r in rows if r.back])
    return [
        Follower(
            r.follower,
            r.follower.user.username if r.follower.user is not None else "",
            r.back,
            r.follower_id in online,
        )
        for r in rows
    ]


@dataclass(frozen=True, slots=True)
class Racing:
    """A friend's race now. `code` is None for a private race the viewer may not see:
    they learn their friend is busy, never the race (whose page its code opens)."""

    code: str | None
    status: str
    public: bool


_LIVE: Final = (RaceStatus.LOBBY, RaceStatus.COUNTDOWN, RaceStatus.RUNNING)


def friends_racing(*, viewer: Player, player_ids: list[int]) -> dict[int, Racing]:
    """The races `player_ids` are seated in now, by player id, in one query. A race of
    one (a daily or challenge attempt) is no race with anyone: its deal may be sealed.
    A private race is named only to a viewer seated in it or invited to it."""
    seated = RaceEntry.objects.filter(race=OuterRef("race"), player=viewer)
    invited = Invitation.objects.filter(
        race=OuterRef("race"),
        invitee=viewer,
        status=InvitationStatus.PENDING,
        expires_at__gt=timezone.now(),
    )
    rows = (
        RaceEntry.objects.filter(
            player_id__in=player_ids,
            left_at__isnull=True,
            race__status__in=_LIVE,
            race__dailyattempt__isnull=True,
            race__challengeattempt__isnull=True,
        )
        .annotate(viewer_seated=Exists(seated), viewer_invited=Exists(invited))
        .order_by("joined_at", "pk")  # the newest seat wins below
        .values_list(
            "player_id",
            "race__code",
            "race__status",
            "race__public",
            "viewer_seated",
            "viewer_invited",
        )
    )
    return {
        player: Racing(code if public or seated or invited else None, status, public)
        for player, code, status, public, seated, invited in rows
    }


@dataclass(frozen=True, slots=True)
class FriendNow:
    racing: Racing | None
    daily: DailyResult | None  # their newest daily result, as the day's board shows it


def friends_now(*, viewer: Player, friends: list[int]) -> dict[int, FriendNow]:
    """What each of `friends` is doing, for /friends/: two queries for the whole list."""
    racing = friends_racing(viewer=viewer, player_ids=friends)
    daily = daily_last_results(player_ids=friends)
    return {pk: FriendNow(racing.get(pk), daily.get(pk)) for pk in friends}

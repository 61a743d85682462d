"""Race now: seat a player in the next open public race of a kind, or open one.

Two clicks at once land in the same race. Joining locks the race's row
(`race_join`); opening one relies on the database: at most one public lobby
exists per variant and time limit (the `race_one_public_lobby_per_kind`
constraint), so of two concurrent openings one insert fails, its transaction
rolls back, and that caller tries again and joins the other's race.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Final

from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from games.engine import VARIANTS
from games.models import Player, Race, RaceEntry, RaceStatus
from games.races.services import (
    PUBLIC_LAST_SEAT_S,
    RaceRefused,
    race_create,
    race_join,
    race_leave,
)

# The time limits "Race now" offers, in minutes: the same few for everyone, so
# that strangers wanting a race find each other.
PUBLIC_MINUTES: Final = (3, 5, 10, 15)
_ATTEMPTS: Final = 3


@dataclass(frozen=True, slots=True)
class Seat:
    race: Race
    version: int
    new: bool  # this call seated the player (False: they already had the seat)
    running: bool  # the race's games are dealt: every socket on it needs a fresh snapshot
    left: tuple[int, ...] = ()  # public lobbies of other kinds the player left for this one


def race_now(*, player: Player, variant: str, minutes: int) -> Seat:
    """Seat `player` in the public race of `variant` and `minutes` that starts
    soonest and has a seat, or open one."""
    if player.banned_at is not None:
        raise RaceRefused("banned", gettext("this player is banned"))
    if variant not in VARIANTS:
        raise RaceRefused(
            "bad_request", gettext("unknown variant %(variant)r") % {"variant": variant}
        )
    if minutes not in PUBLIC_MINUTES:
        raise RaceRefused("bad_request", gettext("public races last 3, 5, 10 or 15 minutes"))
    left = _leave_other_lobbies(player=player, variant=variant, time_limit_s=minutes * 60)
    for _ in range(_ATTEMPTS):
        try:
            with transaction.atomic():
                seat = _seat(player=player, variant=variant, time_limit_s=minutes * 60)
            return replace(seat, left=left)
        except IntegrityError:
            continue  # another click opened the lobby first: join it
    raise RaceRefused("busy", gettext("many racers are being seated at once: try again"))


def _leave_other_lobbies(*, player: Player, variant: str, time_limit_s: int) -> tuple[int, ...]:
    """One public lobby at a time: a racer seated in two would start both races, and be
    absent, and rated last, in one of them. Each leave is its own transaction, before
    the seat's: two racers swapping kinds at once never hold each other's lobby."""
    others = (
        RaceEntry.objects.filter(
            player=player, left_at__isnull=True, race__public=True, race__status=RaceStatus.LOBBY
        )
        .exclude(race__variant=variant, race__time_limit_s=time_limit_s)
        .select_related("race")
    )
    left = []
    for entry in others:
        try:
            race_leave(race=entry.race, player=player)
        except RaceRefused:
            continue  # it started meanwhile: the seat there is the player's to play
        left.append(entry.race_id)
    return tuple(left)


def _seat(*, player: Player, variant: str, time_limit_s: int) -> Seat:
    seating = _seating(variant=variant, time_limit_s=time_limit_s)
    candidates = list(seating.exclude(_meets_a_block(player)))
    for race in candidates:
        if RaceEntry.objects.filter(race=race, player=player, left_at__isnull=True).exists():
            return Seat(race, race.version, new=False, running=race.status != RaceStatus.LOBBY)
    for race in candidates:
        try:
            version = race_join(race=race, player=player)
        except RaceRefused as refused:
            if refused.code in ("full", "not_open"):
                continue  # filled or started since it was listed
            raise
        race.refresh_from_db()
        return Seat(race, version, new=True, running=race.status != RaceStatus.LOBBY)
    if seating.filter(status=RaceStatus.LOBBY).exists():
        # The kind's one lobby seats someone this player blocks or is blocked by.
        raise RaceRefused(
            "no_seat", gettext("no public race of this kind can seat you: try another")
        )
    # Up to MAX_SEATS, race_create's default: a public race fills as far as a race can.
    race = race_create(host=player, variant=variant, time_limit_s=time_limit_s, public=True)
    return Seat(race, race.version, new=True, running=False)


def _meets_a_block(player: Player) -> Q:
    """Races seating someone who blocks `player` or whom `player` blocks (games/friends):
    strangers who blocked each other never share a public race's seat list."""
    seated = RaceEntry.objects.filter(left_at__isnull=True).filter(
        Q(player__blocking__blocked=player) | Q(player__blocked_by__blocker=player)
    )
    return Q(pk__in=seated.values("race_id"))


def _seating(*, variant: str, time_limit_s: int) -> QuerySet[Race]:
    """Public races of the kind still seating: those counting down (soonest first), then
    the lobby."""
    last_seat = timezone.now() + timedelta(seconds=PUBLIC_LAST_SEAT_S)
    return (
        Race.objects.filter(public=True, variant=variant, time_limit_s=time_limit_s)
        .filter(Q(status=RaceStatus.LOBBY) | Q(status=RaceStatus.RUNNING, starts_at__gt=last_seat))
        .order_by("-status", "starts_at", "pk")  # "running" sorts after "lobby": reversed
    )


@dataclass(frozen=True, slots=True)
class PublicRace:
    race: Race
    racers: int
    state: str  # waiting (lobby), starting (counting down, still seating), running


def public_races_live(*, limit: int = 20) -> list[PublicRace]:
    """Public races anyone may watch: waiting for racers, counting down, or running."""
    now = timezone.now()
    races = (
        Race.objects.filter(public=True)
        .exclude(status=RaceStatus.FINISHED)
        .annotate(racers=Count("entries", filter=Q(entries__left_at__isnull=True)))
        .filter(racers__gt=0)
        .order_by("status", "-starts_at", "-pk")[:limit]
    )
    rows = []
    for race in races:
        if race.status == RaceStatus.LOBBY:
            state = "waiting"
        elif race.starts_at is not None and race.starts_at > now:
            state = "starting"
        elif race.ends_at is not None and race.ends_at <= now:
            continue  # over, though no socket has closed it yet
        else:
            state = "running"
        rows.append(PublicRace(race, race.racers, state))
    return rows

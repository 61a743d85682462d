"""Writes for races: the lobby, the start, rematches, a race of one. A race's moves
and its end are games/races/moves.py's.

Every change other racers must learn about takes the race's next version and
writes its announcement in the same transaction (games/races/outbox.py): it
is announced because it was committed, whoever asked for it and whether or
not their socket is still open.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Final

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games.common.errors import Refused
from games.engine import DEFAULT_VARIANT, SEED_LIMIT, VARIANTS
from games.engine.solver.winnable import winnable_seed
from games.fairness.services import game_judge
from games.models import Game, Player, Race, RaceEntry, RaceStatus
from games.quotas.solver import SolverBusy, solver_run
from games.races import protocol
from games.races.outbox import race_change
from games.races.seating import seat_check
from games.races.selectors import race_racers, race_seats_left
from games.store.services import game_create

MIN_RACERS: Final = 2
MAX_SEATS: Final = 8
TIME_LIMITS_S: Final = (60, 24 * 3600)
# A public race stops seating this long before its start: a racer seated at the
# last moment still gets their page up before the first move counts.
PUBLIC_LAST_SEAT_S: Final = 2
# A public lobby's racer with no page open this long is unseated when a second
# racer comes: the race would otherwise start with them absent, and rated.
PUBLIC_ABSENT_S: Final = 30


class RaceRefused(Refused):
    """A race action the rules of the race do not allow; nothing was written.

    `code`: not_found, not_open, full, not_host, too_few, not_racer, banned, bad_request.
    """


def race_announce_racers(*, race_id: int) -> int:
    """A new version telling everyone the racers as they are now (a name changed, a seat)."""
    race = Race.objects.get(pk=race_id)
    return race_change(
        race_id=race_id,
        message=lambda v: protocol.lobby(version=v, racers=race_racers(race=race)),
    )


def _winnable_seed(*, variant: str) -> int | None:
    """A winnable deal's seed, drawn in a solver process; `busy` when no slot is free."""
    try:
        return solver_run("winnable", winnable_seed, variant=variant)
    except SolverBusy as busy:
        raise RaceRefused(busy.code, busy.message) from None


def race_create(
    *,
    host: Player,
    variant: str = DEFAULT_VARIANT,
    time_limit_s: int = 900,
    seat_limit: int = MAX_SEATS,
    deal: int | None = None,
    winnable: bool = False,
    automatic_moves: bool = False,
    rated: bool = False,
    public: bool = False,
    rematch_of: Race | None = None,
) -> Race:
    """A new race in its lobby with the host seated. `deal` makes it an open deal;
    `winnable` draws secret deals until the solver proves one winnable;
    `automatic_moves` has the server play every racer's safe moves; `rated`
    lets its results move ratings (a secret deal only)."""
    if host.banned_at is not None:
        raise RaceRefused("banned", _("this player is banned"))
    if variant not in VARIANTS:
        raise RaceRefused("bad_request", _("unknown variant %(variant)r") % {"variant": variant})
    if not MIN_RACERS <= seat_limit <= MAX_SEATS:
        raise RaceRefused("bad_request", _("a race seats 2 to 8 racers"))
    if not TIME_LIMITS_S[0] <= time_limit_s <= TIME_LIMITS_S[1]:
        raise RaceRefused("bad_request", _("the time limit is 1 minute to 24 hours"))
    if deal is not None and not 0 <= deal < SEED_LIMIT:
        raise RaceRefused("bad_request", _("a deal number is 0 to 2**63 - 1"))
    if deal is not None and winnable:
        raise RaceRefused(
            "bad_request", _("an open deal is chosen, not drawn: drop one of the two")
        )
    if deal is not None and rated:
        raise RaceRefused(
            "bad_request",
            _("a rated race deals a secret deal: an open one can be studied first"),
        )
    seed = secrets.randbelow(SEED_LIMIT) if deal is None else deal
    if winnable:
        found = _winnable_seed(variant=variant)
        if found is None:
            raise RaceRefused("no_winnable", _("no winnable deal was found in time: try again"))
        seed = found
    return _race_insert(
        host=host,
        variant=variant,
        seed=seed,
        open_deal=deal is not None,
        winnable_deal=winnable,
        automatic_moves=automatic_moves,
        rated=rated or public,
        public=public,
        time_limit_s=time_limit_s,
        seat_limit=seat_limit,
        rematch_of=rematch_of,
    )


def _race_insert(*, host: Player, rematch_of: Race | None, **fields: object) -> Race:
    seat_check(player=host, race=None)
    with transaction.atomic():
        race = Race.objects.create(host=host, rematch_of=rematch_of, **fields)
        RaceEntry.objects.create(race=race, player=host)
    return race


def race_join(*, race: Race, player: Player) -> int:
    """Seat `player` in the lobby (again, after leaving). Returns the new version.

    A public race also seats during its countdown (the racer's game is dealt at
    once), and starts its countdown when a second racer is in.
    """
    if player.banned_at is not None:
        raise RaceRefused("banned", _("this player is banned"))
    with transaction.atomic():
        locked = Race.objects.select_for_update().get(pk=race.pk)
        entry = RaceEntry.objects.filter(race=locked, player=player).first()
        if entry is not None and entry.seated:
            return locked.version
        seat_check(player=player, race=locked)
        now = timezone.now()
        if locked.status != RaceStatus.LOBBY and not race_seating_public(race=locked, now=now):
            raise RaceRefused("not_open", _("this race has already started"))
        if locked.public and locked.status == RaceStatus.LOBBY:
            RaceEntry.objects.filter(
                race=locked,
                left_at__isnull=True,
                connections=0,
                joined_at__lt=now - timedelta(seconds=PUBLIC_ABSENT_S),
            ).update(left_at=now, ready=False)
        seats_left = race_seats_left(race=locked)
        if seats_left <= 0:
            raise RaceRefused(
                "full", _("this race is full (%(seats)d racers)") % {"seats": locked.seat_limit}
            )
        if entry is None:
            RaceEntry.objects.create(race=locked, player=player)
        else:
            RaceEntry.objects.filter(pk=entry.pk).update(left_at=None, ready=False)
        if locked.status == RaceStatus.RUNNING:
            # Seated in a public race's countdown: the newcomer's game is dealt, and
            # every socket builds its snapshot afresh, as at a start.
            _deal_rated(locked, game_create(player=player, variant=locked.variant, race=locked))
            return race_change(race_id=locked.pk, message=lambda v: protocol.started(version=v))
        # The seats taken before, and the newcomer's.
        seated = locked.seat_limit - seats_left + 1
        if locked.public and seated >= MIN_RACERS:
            _race_begin(locked, countdown_s=settings.RACE_PUBLIC_COUNTDOWN_S)
            return race_change(race_id=locked.pk, message=lambda v: protocol.started(version=v))
        return race_announce_racers(race_id=locked.pk)


def race_seating_public(*, race: Race, now: datetime) -> bool:
    """A public race seats newcomers in its lobby and in its countdown, until shortly
    before its start."""
    if not race.public:
        return False
    if race.status == RaceStatus.LOBBY:
        return True
    return (
        race.status == RaceStatus.RUNNING
        and race.starts_at is not None
        and now < race.starts_at - timedelta(seconds=PUBLIC_LAST_SEAT_S)
    )


def race_leave(*, race: Race, player: Player) -> int:
    """Give up a seat in the lobby. The host cannot leave their own race's lobby."""
    with transaction.atomic():
        locked = Race.objects.select_for_update().get(pk=race.pk)
        if locked.status != RaceStatus.LOBBY:
            raise RaceRefused("not_open", _("the race has started: resign instead"))
        if locked.host_id == player.pk and not locked.public:
            raise RaceRefused("not_host", _("the host stays in the lobby"))
        left = RaceEntry.objects.filter(race=locked, player=player, left_at__isnull=True).update(
            left_at=timezone.now(), ready=False
        )
        if not left:
            raise RaceRefused("not_racer", _("you are not in this race"))
        return race_announce_racers(race_id=locked.pk)


def race_close(*, race: Race, player: Player) -> int:
    """The host closes their private lobby: every seat is given up and nobody may join.

    A closed lobby is a race that finished without starting (no games, no results,
    no `race_finished` signal: nothing was played to rate or rank); its page says so.
    """
    with transaction.atomic():
        locked = Race.objects.select_for_update().get(pk=race.pk)
        if locked.host_id != player.pk or locked.public:
            raise RaceRefused("not_host", _("only the host closes the lobby"))
        if locked.status != RaceStatus.LOBBY:
            raise RaceRefused("not_open", _("the race has started: resign instead"))
        return _lobby_close(locked)


def race_close_if_alone(*, race_id: int) -> bool:
    """Close a private lobby whose host sits alone in it (their invitations declined or
    expired, nobody come by the link); True if this call closed it."""
    with transaction.atomic():
        locked = Race.objects.select_for_update().filter(pk=race_id).first()
        if locked is None or locked.status != RaceStatus.LOBBY or locked.public:
            return False
        seated = list(
            RaceEntry.objects.filter(race=locked, left_at__isnull=True).values_list(
                "player_id", flat=True
            )
        )
        if seated not in ([], [locked.host_id]):
            return False
        _lobby_close(locked)
    return True


def _lobby_close(locked: Race) -> int:
    now = timezone.now()
    RaceEntry.objects.filter(race=locked, left_at__isnull=True).update(left_at=now, ready=False)
    locked.status = RaceStatus.FINISHED
    locked.finished_at = now
    locked.save(update_fields=["status", "finished_at"])
    return race_change(race_id=locked.pk, message=lambda v: protocol.closed(version=v))


def race_set_ready(*, race: Race, player: Player, ready: bool) -> int:
    with transaction.atomic():
        locked = Race.objects.select_for_update().get(pk=race.pk)
        if locked.status != RaceStatus.LOBBY:
            raise RaceRefused("not_open", _("the race has started"))
        changed = RaceEntry.objects.filter(race=locked, player=player, left_at__isnull=True).update(
            ready=ready
        )
        if not changed:
            raise RaceRefused("not_racer", _("you are not in this race"))
        return race_announce_racers(race_id=locked.pk)


def race_connection(*, race: Race, player: Player, delta: int) -> bool:
    """Count a racer's socket opening (+1) or closing (-1); True if they are seated.

    Presence is no versioned change: the publisher tells the race who is here,
    throttled (games/races/publisher.py).
    """
    entries = RaceEntry.objects.filter(race=race, player=player)
    if delta < 0:
        entries = entries.filter(connections__gt=0)
    return bool(entries.update(connections=F("connections") + delta))


def race_start(*, race: Race, player: Player, countdown_s: int | None = None) -> int:
    """The host starts: one game per seated racer, all starting at one moment ahead."""
    if countdown_s is None:
        countdown_s = settings.RACE_COUNTDOWN_S
    with transaction.atomic():
        locked = Race.objects.select_for_update().get(pk=race.pk)
        if locked.public:
            raise RaceRefused("not_host", _("a public race starts by itself with a second racer"))
        if locked.host_id != player.pk:
            raise RaceRefused("not_host", _("only the host starts the race"))
        if locked.status != RaceStatus.LOBBY:
            raise RaceRefused("not_open", _("the race has already started"))
        _race_begin(locked, countdown_s=countdown_s)
        return race_change(race_id=locked.pk, message=lambda v: protocol.started(version=v))


def race_create_started(
    *,
    racers: list[Player],
    variant: str,
    time_limit_s: int,
    automatic_moves: bool,
    rated: bool,
) -> Race:
    """A race of `racers` (the first its host) on a fresh secret deal, started now:
    what a pairing does (tournaments). The checks of `race_create` and `race_join`
    for each racer, then every seat, the deal and the start in one transaction and
    one announcement, instead of a lobby announcing each racer to nobody (each
    join cost a lock, three reads and an announcement; bench/arena.py's profile)."""
    host, *others = racers
    with transaction.atomic():
        race = race_create(
            host=host,
            variant=variant,
            time_limit_s=time_limit_s,
            seat_limit=len(racers),
            automatic_moves=automatic_moves,
            rated=rated,
        )
        for racer in others:
            if racer.banned_at is not None:
                raise RaceRefused("banned", _("this player is banned"))
            # Checked as the host is: each racer of a race being made (race=None).
            seat_check(player=racer, race=None)
        RaceEntry.objects.bulk_create([RaceEntry(race=race, player=racer) for racer in others])
        _race_begin(race, countdown_s=settings.RACE_COUNTDOWN_S)
        race_change(race_id=race.pk, message=lambda v: protocol.started(version=v))
    return race


def _race_begin(locked: Race, *, countdown_s: int) -> None:
    """Deal every seated racer's game; the race runs from `countdown_s` ahead.

    The caller holds the race's lock and announces the start.
    """
    seated = list(
        RaceEntry.objects.filter(race=locked, left_at__isnull=True).select_related("player")
    )
    if len(seated) < MIN_RACERS:
        raise RaceRefused("too_few", _("a race needs at least %(n)d racers") % {"n": MIN_RACERS})
    starts_at = timezone.now() + timedelta(seconds=countdown_s)
    locked.status = RaceStatus.RUNNING
    locked.starts_at = starts_at
    locked.ends_at = starts_at + timedelta(seconds=locked.time_limit_s)
    locked.save(update_fields=["status", "starts_at", "ends_at"])
    for entry in seated:
        _deal_rated(locked, game_create(player=entry.player, variant=locked.variant, race=locked))


def _deal_rated(race: Race, game: Game) -> None:
    """A rated race's game on a deal its racer had seen is played unranked (games.fairness)."""
    if race.rated:
        game_judge(game=game)


def race_rematch(*, race: Race, player: Player) -> Race:
    """A new race like this one with a new secret deal; the same one for every asker."""
    # The solver runs before any lock is taken: on SQLite a transaction holds the whole file.
    wanted = race.winnable_deal and not Race.objects.filter(rematch_of=race).exists()
    seed_drawn = _winnable_seed(variant=race.variant) if wanted else None
    with transaction.atomic():
        locked = Race.objects.select_for_update().get(pk=race.pk)
        if locked.status != RaceStatus.FINISHED:
            raise RaceRefused("not_open", _("a rematch follows a finished race"))
        if not RaceEntry.objects.filter(race=locked, player=player).exists():
            raise RaceRefused("not_racer", _("only racers of this race ask for a rematch"))
        existing = Race.objects.filter(rematch_of=locked).first()
        if existing is not None:
            race_join(race=existing, player=player)
            # A new version for the announcement that takes this racer there:
            # clients drop a version they have seen.
            _announce_rematch(locked, existing)
            return existing
        if locked.winnable_deal:
            seed = seed_drawn
            if seed is None:
                raise RaceRefused("no_winnable", _("no winnable deal was found in time: try again"))
        else:
            seed = secrets.randbelow(SEED_LIMIT)
        rematch = _race_insert(
            host=player,
            variant=locked.variant,
            seed=seed,
            open_deal=False,
            winnable_deal=locked.winnable_deal,
            automatic_moves=locked.automatic_moves,
            rated=locked.rated,
            time_limit_s=locked.time_limit_s,
            seat_limit=locked.seat_limit,
            rematch_of=locked,
        )
        _announce_rematch(locked, rematch)
        return rematch


def _announce_rematch(race: Race, rematch: Race) -> None:
    race_change(race_id=race.pk, message=lambda v: protocol.rematch(version=v, code=rematch.code))

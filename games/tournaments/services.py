"""Writes for tournaments: creating and scheduling them, joining, pausing, coming
back, scoring a race that ended, and a moderator's void.

Every change the standings show bumps the tournament's version and sends the
new table to the tournament's sockets, after the commit
(games/tournaments/announce.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime, time, timedelta
from itertools import groupby
from typing import Final

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.common.errors import BadInput, Refused
from games.common.names import display_name
from games.engine import VARIANTS
from games.fairness.worth import (
    MIN_PLACED_MOVES,
    Pair,
    Racer,
    games_own_moves,
    is_placed,
    opponents_counted,
    pairs_met,
    utc_day,
)
from games.i18n.labels import variant_label
from games.models import Game, GameStatus, Player, Race, RaceStatus
from games.races.models import RaceStanding
from games.tournaments.announce import tournament_changed
from games.tournaments.models import (
    Tournament,
    TournamentEntry,
    TournamentRace,
    TournamentResult,
    TournamentVoid,
)
from games.tournaments.selectors import entrant_active, player_racing_elsewhere

SEATS: Final = (2, 8)
NAME_LIMIT: Final = 60  # Tournament.name's max_length
# A player's tournament starts at once or within a day.
STARTS_WITHIN_MIN: Final = 24 * 60

# Set while the pairing creates a tournament's race (the one race its entrants may create).
_pairing: ContextVar[bool] = ContextVar("tournament_pairing", default=False)


@contextmanager
def pairing_seats() -> Iterator[None]:
    token = _pairing.set(True)
    try:
        yield
    finally:
        _pairing.reset(token)


class TournamentRefused(Refused):
    """A tournament action the rules do not allow; nothing was written.

    `code`: bad_request, bad_name, not_account, banned, over, not_entrant, racing, in_tournament.
    """


def tournament_create(
    *,
    creator: Player,
    name: str,
    variant: str,
    minutes: int,
    seat_limit: int,
    automatic_moves: bool,
    public: bool,
    starts_in_min: int = 0,
    now: datetime | None = None,
) -> Tournament:
    """A player's tournament (account players only: a guest's would outlive its maker)."""
    if creator.user_id is None:
        raise TournamentRefused("not_account", _("log in to create a tournament"))
    if creator.banned_at is not None:
        raise TournamentRefused("banned", _("this player is banned"))
    try:
        name = display_name(name, what=_("A tournament's name"), limit=NAME_LIMIT)
    except BadInput as bad:  # the one name rule: it is shown on the public list
        raise TournamentRefused(bad.code, bad.message) from None
    if variant not in VARIANTS:
        raise TournamentRefused(
            "bad_request", _("unknown variant %(variant)r") % {"variant": variant}
        )
    low, high = settings.TOURNAMENT_MINUTES
    if not low <= minutes <= high:
        raise TournamentRefused(
            "bad_request",
            _("a tournament lasts %(low)d to %(high)d minutes") % {"low": low, "high": high},
        )
    if not SEATS[0] <= seat_limit <= SEATS[1]:
        raise TournamentRefused("bad_request", _("a race seats 2 to 8 racers"))
    if not 0 <= starts_in_min <= STARTS_WITHIN_MIN:
        raise TournamentRefused("bad_request", _("a tournament starts within a day"))
    starts_at = (now or timezone.now()) + timedelta(minutes=starts_in_min)
    return Tournament.objects.create(
        name=name,
        variant=variant,
        created_by=creator,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=minutes),
        seat_limit=seat_limit,
        race_time_limit_s=settings.TOURNAMENT_RACE_S,
        automatic_moves=automatic_moves,
        public=public,
    )


def tournaments_schedule_daily(*, now: datetime | None = None) -> int:
    """The site's daily arena of every variant, today's (and tomorrow's once today's has
    started), made if missing
    (idempotent: the unique constraint on a site tournament's start is the last word).
    Returns how many were made."""
    when = now or timezone.now()
    made = 0
    today = datetime.combine(when.date(), time(settings.TOURNAMENT_DAILY_HOUR_UTC), tzinfo=UTC)
    # Today's, and tomorrow's once today's has started: one arena ahead per variant.
    starts = [today, today + timedelta(days=1)] if when >= today else [today]
    for starts_at in starts:
        for variant in VARIANTS:
            if Tournament.objects.filter(
                created_by__isnull=True, variant=variant, starts_at=starts_at
            ).exists():
                continue
            try:
                with transaction.atomic():
                    Tournament.objects.create(
                        # Stored in English; the pages show a site arena's name in the
                        # reader's language (tournament_name in views).
                        name=f"Daily {variant} arena",
                        variant=variant,
                        starts_at=starts_at,
                        ends_at=starts_at + timedelta(minutes=settings.TOURNAMENT_DAILY_MINUTES),
                        seat_limit=4,
                        race_time_limit_s=settings.TOURNAMENT_RACE_S,
                        public=True,
                    )
                made += 1
            except IntegrityError:
                continue  # another process made it first
    return made


def tournament_display_name(tournament: Tournament) -> str:
    if tournament.created_by_id is None:
        return _("Daily arena: %(variant)s") % {"variant": variant_label(tournament.variant)}
    return tournament.name


def _changed(tournament_id: int) -> None:
    tournament_changed(tournament_id=tournament_id)


def tournament_join(*, tournament: Tournament, player: Player) -> TournamentEntry:
    """Enter the queue (again, after a pause). Refused once the tournament has ended,
    and while the player is seated in a race outside it."""
    if player.banned_at is not None:
        raise TournamentRefused("banned", _("this player is banned"))
    now = timezone.now()
    if now >= tournament.ends_at or tournament.finished_at is not None:
        raise TournamentRefused("over", _("this tournament is over"))
    elsewhere = player_racing_elsewhere(player=player, tournament=tournament)
    if elsewhere is not None:
        raise TournamentRefused(
            "racing",
            # A host has no Leave: their lobby is closed (the lobby's Close, #37).
            _(
                "you are in race %(code)s: finish it, leave it or close its lobby"
                " before joining a tournament"
            )
            % {"code": elsewhere},
        )
    other = entrant_active(player=player, now=now)
    if other is not None and other.pk != tournament.pk:
        raise TournamentRefused(
            "in_tournament",
            _("you are in the tournament %(name)s: pause it first")
            % {"name": tournament_display_name(other)},
        )
    with transaction.atomic():
        entry, made = TournamentEntry.objects.get_or_create(
            tournament=tournament, player=player, defaults={"waiting_since": now}
        )
        if not made and entry.paused:
            entry.paused, entry.waiting_since = False, now
            entry.save(update_fields=["paused", "waiting_since"])
        _changed(tournament.pk)
    return entry


def tournament_pause(*, tournament: Tournament, player: Player) -> TournamentEntry:
    """Leave the queue: a race under way is finished and counts; no new one seats them."""
    with transaction.atomic():
        entry = TournamentEntry.objects.filter(tournament=tournament, player=player).first()
        if entry is None:
            raise TournamentRefused("not_entrant", _("you have not joined this tournament"))
        if not entry.paused:
            entry.paused = True
            entry.save(update_fields=["paused"])
            _changed(tournament.pk)
    return entry


def tournament_withdraw(*, tournament_id: int, player_ids: list[int]) -> int:
    """Absent racers out of the pairing (paused, as if they had pressed Pause): a
    racer with no move of their own in the time allowed (pairing.py). Their points
    stay; Come back seats them again. The caller announces."""
    return TournamentEntry.objects.filter(
        tournament_id=tournament_id, player_id__in=player_ids, paused=False
    ).update(paused=True)


def tournament_race_score(*, tournament_race: TournamentRace, now: datetime) -> bool:
    """Write the results of a finished race of the tournament, once; frees its racers.

    Places are among the race's ranked games (the first-sight rule, games.fairness:
    an unranked game earns nothing and pushes nobody down), and among the opponents
    each result counts against (games.fairness.worth); a moderator's voided game is
    left out the same way. Scoring claims the race (its row locked, SKIP
    LOCKED, `scored_at` unset): of the race's end and the pairing's sweep, one
    writes its results and the other waits for nothing. The caller announces."""
    race = tournament_race.race
    if tournament_race.scored_at is not None or race.status != RaceStatus.FINISHED:
        return False
    with transaction.atomic():
        # SKIP LOCKED: a race being scored by someone else is theirs; nobody waits on it.
        claimed = (
            TournamentRace.objects.select_for_update(skip_locked=True)
            .filter(pk=tournament_race.pk, scored_at__isnull=True)
            .values_list("pk", flat=True)
        )
        if not list(claimed):
            return False
        TournamentRace.objects.filter(pk=tournament_race.pk).update(scored_at=now)
        tournament_race.scored_at = now
        _results_write(tournament_race, now)
    return True


def _results_write(tournament_race: TournamentRace, now: datetime) -> None:
    """Each racer's place among the opponents their result counts against
    (games.fairness.worth: placed, and a pair not met too often that day), and how
    many those are, plus themselves: what the points rule reads."""
    race = tournament_race.race
    standings = list(
        RaceStanding.objects.filter(race=race)
        .select_related("game", "game__unranked")
        .order_by("rank")
    )
    moves = games_own_moves(game_ids=[s.game_id for s in standings])
    # Withdrawn: no event of their own in the log (a short race's time ran out first).
    absent = [
        s.game.player_id
        for s in standings
        if not moves[s.game_id] and s.game.status == GameStatus.TIMEOUT
    ]
    tournament_withdraw(tournament_id=tournament_race.tournament_id, player_ids=absent)
    rest_over = now + timedelta(seconds=settings.TOURNAMENT_REST_S)
    if not any(moves.values()):
        # Nobody played: the race counts for no one (no result, no race in anyone's
        # list); its racers are free again after the rest, as after any race.
        _rest(tournament_race, [s.game.player_id for s in standings], rest_over)
        return
    ranked = [s for s in standings if _ranked(s.game)]
    racers = [Racer(s.game.player_id, s.place, moves[s.game_id]) for s in ranked]
    counted = dict(
        zip(
            (s.pk for s in ranked),
            opponents_counted(racers, met_today=_met_today(now), need_established=False),
            strict=True,
        )
    )
    rows = []
    for standing in standings:
        game = standing.game
        counts = _ranked(game)
        opponents = [ranked[j] for j in counted.get(standing.pk, ())]
        better = sum(1 for other in opponents if other.place < standing.place)
        rows.append(
            TournamentResult(
                tournament_race=tournament_race,
                player_id=game.player_id,
                game=game,
                ranked=counts,
                placed=is_placed(moves[game.pk]),
                place=better + 1 if counts else standing.place,
                racers=len(opponents) + 1 if counts else len(standings),
                won=game.status == GameStatus.WON,
                cards_played=game.cards_played,
            )
        )
    TournamentResult.objects.bulk_create(rows)
    _rest(tournament_race, [row.player_id for row in rows], rest_over)


def _rest(tournament_race: TournamentRace, player_ids: list[int], until: datetime) -> None:
    """The race's racers are free to be seated again once `until` has come: time to
    read their results and pause (`TOURNAMENT_REST_S`; the race page counts it down)."""
    TournamentEntry.objects.filter(
        tournament_id=tournament_race.tournament_id, player_id__in=player_ids
    ).update(waiting_since=until)


def _met_today(now: datetime) -> Counter[Pair]:
    """How often each pair met (both placed, both ranked) in tournament races scored
    earlier the same UTC day, in any tournament (games.fairness.worth's pair limit)."""
    start = datetime.combine(utc_day(now), time(0), tzinfo=UTC)
    rows = (
        TournamentResult.objects.filter(
            placed=True, ranked=True, tournament_race__scored_at__gte=start
        )
        .order_by("tournament_race_id")
        .values_list("tournament_race_id", "player_id")
    )
    met: Counter[Pair] = Counter()
    for _race, group in groupby(rows, key=lambda row: row[0]):
        met.update(pairs_met(Racer(player, 1, MIN_PLACED_MOVES) for _race, player in group))
    return met


def _ranked(game: Game) -> bool:
    return not game.voided and getattr(game, "unranked", None) is None


def tournament_race_finished(*, race_id: int) -> bool:
    """A race ended: if it is a tournament's, score it now (the standings move at once;
    the pairing loop's sweep scores any this missed)."""
    link = TournamentRace.objects.filter(race_id=race_id, scored_at__isnull=True).first()
    if link is None:
        return False
    link = TournamentRace.objects.select_related("race").get(pk=link.pk)
    scored = tournament_race_score(tournament_race=link, now=timezone.now())
    if scored:
        _changed(link.tournament_id)
    return scored


def tournament_race_void(
    *, tournament_race: TournamentRace, moderator_name: str, reason: str
) -> TournamentVoid:
    """A moderator voids a race of the tournament: a new event; every point is folded
    again without it (games/tournaments/points.py). Voiding twice is refused."""
    reason = (reason or "").strip()
    if not reason:
        raise TournamentRefused("bad_request", _("say why the race is voided"))
    with transaction.atomic():
        if TournamentVoid.objects.filter(tournament_race=tournament_race).exists():
            raise TournamentRefused("bad_request", _("this race is already voided"))
        void = TournamentVoid.objects.create(
            tournament_race=tournament_race, moderator_name=moderator_name, reason=reason
        )
        _changed(tournament_race.tournament_id)
    return void


def tournament_seat_check(player: Player, race: Race | None) -> None:
    """Registered with games.races.seating: an entrant races only the tournament's races."""
    if race is not None and TournamentRace.objects.filter(race=race).exists():
        return  # the pairing seats them there (games/tournaments/pairing.py)
    if race is None and _pairing.get():
        return
    tournament = entrant_active(player=player)
    if tournament is not None:
        raise TournamentRefused(
            "in_tournament",
            _("you are in the tournament %(name)s: pause it to race elsewhere")
            % {"name": tournament_display_name(tournament)},
        )

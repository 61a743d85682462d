"""Seating a tournament's waiting entrants into races (docs/tournaments.md, "Pairing").

`pairing_tick` runs every `TOURNAMENT_TICK_MS` in each web process (loop.py).
Each tournament is paired under a transaction-scoped PostgreSQL advisory lock
on its id (`pg_try_advisory_xact_lock`): of two processes ticking at once, one
pairs a tournament and the other passes it by, so nobody is seated twice
(SQLite has one writer anyway). An advisory lock, not the row's: the row takes
version bumps from scoring and joins meanwhile, which must not wait for a
tick. Under that lock a tick, for one tournament:

1. withdraws absent racers: in its running races, a racer with no move of their
   own `TOURNAMENT_IDLE_S` after the start gets a `timeout` and is paused; a race
   left with no game open ends (and, nobody having played, counts for no one);
   then closes its races whose time is up (nobody's socket may be left to do it);
2. scores its finished races not yet scored (the race's end scores them at
   once, games/tournaments/receivers.py; this is the sweep behind it);
3. before the end, seats the waiting entrants: joined, not paused, in no race
   of the tournament or elsewhere, past their rest after a race
   (`TOURNAMENT_REST_S`). Ordered by the standings, they are cut into races of
   the tournament's seats, every race on a fresh secret deal
   (`races.services.race_create_started`: a fresh `secrets` deal, every seat
   and the start in one transaction) and rated; the first racer is its host.
   Full races start at once; a last, smaller race (2 or more) once its longest
   waiter has waited `TOURNAMENT_GATHER_S`; one left alone waits for the next
   tick. When choosing a race's next racer among the next `2 × seats` in the
   standings, the first who did not race any of those already chosen in their
   last race is taken (so the same racers do not meet twice running while
   others near them wait);
4. after the end, once every race it seated is scored, marks it finished.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.fairness.worth import own_move
from games.models import Game, GameStatus, Move, Player, RaceEntry, RaceStatus
from games.races.moves import race_close_if_over, race_game_time_out
from games.races.services import RaceRefused, race_create_started
from games.tournaments.announce import tournament_changed
from games.tournaments.models import Tournament, TournamentEntry, TournamentRace
from games.tournaments.selectors import tournament_scores
from games.tournaments.services import pairing_seats, tournament_race_score, tournament_withdraw

logger = logging.getLogger(__name__)

MIN_RACERS: Final = 2
# The advisory locks' first key: the tournaments' own (the second is a tournament's id).
ADVISORY_SPACE: Final = 25


@dataclass(frozen=True, slots=True)
class Tick:
    seated: int = 0  # racers seated into new races
    races: int = 0  # races started
    scored: int = 0
    finished: int = 0


def pairing_tick(*, now: datetime | None = None) -> Tick:
    """One pass over every tournament that has started and is not finished."""
    when = now or timezone.now()
    total = Tick()
    ids = Tournament.objects.filter(finished_at__isnull=True, starts_at__lte=when).values_list(
        "pk", flat=True
    )
    for tournament_id in list(ids):
        done = tournament_pair(tournament_id=tournament_id, now=when)
        total = Tick(
            total.seated + done.seated,
            total.races + done.races,
            total.scored + done.scored,
            total.finished + done.finished,
        )
    return total


def tournament_pair(*, tournament_id: int, now: datetime) -> Tick:
    with transaction.atomic():
        if not _leader(tournament_id):
            return Tick()  # another process pairs it this tick
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None or tournament.finished_at is not None:
            return Tick()
        withdrawn = _withdraw_absent(tournament, now)
        scored = _close_and_score(tournament, now)
        seated = races = finished = 0
        if now < tournament.ends_at:
            groups = pairing_groups(tournament=tournament, now=now)
            for group in groups:
                if _race_seat(tournament, group):
                    seated += len(group)
                    races += 1
        elif not TournamentRace.objects.filter(
            tournament=tournament, scored_at__isnull=True
        ).exists():
            Tournament.objects.filter(pk=tournament.pk).update(finished_at=now)
            finished = 1
        if withdrawn or scored or races or finished:
            tournament_changed(tournament_id=tournament.pk)
    return Tick(seated, races, scored, finished)


def _leader(tournament_id: int) -> bool:
    """This transaction pairs the tournament: no other process does until it ends."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [ADVISORY_SPACE, tournament_id])
        (taken,) = cursor.fetchone()
    return bool(taken)


def _withdraw_absent(tournament: Tournament, now: datetime) -> int:
    """Racers of the tournament's running races with no move of their own
    `TOURNAMENT_IDLE_S` after the start: their game times out (a `timeout` event
    in its log) and they are paused, out of the pairing until they come back. A
    race left with no game open ends now (`race_game_time_out`). One query a tick
    finds them. Returns how many were withdrawn."""
    idle_since = now - timedelta(seconds=settings.TOURNAMENT_IDLE_S)
    absent = list(
        Game.objects.filter(
            race__tournament_race__tournament=tournament,
            race__tournament_race__scored_at__isnull=True,
            race__status=RaceStatus.RUNNING,
            race__starts_at__lte=idle_since,
            status=GameStatus.PLAYING,
        )
        .exclude(Exists(Move.objects.filter(own_move(), game=OuterRef("pk"))))
        .values_list("race_id", "pk", "player_id")
    )
    withdrawn = 0
    for race_id, game_id, player_id in absent:
        if race_game_time_out(race_id=race_id, game_id=game_id):
            withdrawn += 1
            tournament_withdraw(tournament_id=tournament.pk, player_ids=[player_id])
    return withdrawn


def _close_and_score(tournament: Tournament, now: datetime) -> int:
    unscored = list(
        TournamentRace.objects.filter(tournament=tournament, scored_at__isnull=True).select_related(
            "race"
        )
    )
    scored = 0
    for link in unscored:
        race = link.race
        if race.status == RaceStatus.RUNNING and race.ends_at is not None and race.ends_at <= now:
            race_close_if_over(race_id=race.pk)
            race.refresh_from_db()
        scored += tournament_race_score(tournament_race=link, now=now)
    return scored


def _waiting(tournament: Tournament, now: datetime) -> list[TournamentEntry]:
    """Entrants free to be seated: in the queue, and seated in no race that is still on.

    A race of the tournament that has ended but is not scored yet still holds its racers:
    its scoring gives them their rest (`waiting_since`). A tick reads the races it scores
    before it pairs, so a race that ended in between (its last racer resigned) was over
    for the pairing and unscored for the rest: its racers were seated again at once, with
    no rest and no chance to pause (seen in the browser suite, PostgreSQL under load)."""
    still_on = Q(race__status__in=[RaceStatus.LOBBY, RaceStatus.RUNNING])
    unscored = Q(
        race__tournament_race__tournament=tournament,
        race__tournament_race__scored_at__isnull=True,
    )
    busy = RaceEntry.objects.filter(
        still_on | unscored,
        left_at__isnull=True,
        player__tournament_entries__tournament=tournament,
    ).values_list("player_id", flat=True)
    return list(
        TournamentEntry.objects.filter(
            tournament=tournament,
            paused=False,
            player__banned_at__isnull=True,
            waiting_since__lte=now,  # after a race, once its rest is over
        )
        .exclude(player_id__in=set(busy))
        .select_related("player")
    )


def _last_opponents(tournament: Tournament, players: Iterable[int]) -> dict[int, set[int]]:
    """Each player's opponents in their latest race of the tournament."""
    latest: dict[int, int] = {}
    for player_id, race_id in (
        RaceEntry.objects.filter(
            race__tournament_race__tournament=tournament, player_id__in=list(players)
        )
        .order_by("race_id")
        .values_list("player_id", "race_id")
    ):
        latest[player_id] = race_id
    racers: dict[int, set[int]] = {}
    for player_id, race_id in RaceEntry.objects.filter(
        race_id__in=set(latest.values())
    ).values_list("player_id", "race_id"):
        racers.setdefault(race_id, set()).add(player_id)
    return {player: racers.get(race, set()) - {player} for player, race in latest.items()}


def pairing_groups(*, tournament: Tournament, now: datetime) -> list[list[Player]]:
    """The races to start now, each a list of racers (the module's docstring, step 3)."""
    waiting = _waiting(tournament, now)
    if len(waiting) < MIN_RACERS:
        return []
    order = {
        score.player: rank for rank, score in enumerate(tournament_scores(tournament=tournament))
    }
    waiting.sort(key=lambda entry: (order.get(entry.player_id, len(order)), entry.joined_at))
    last = _last_opponents(tournament, [entry.player_id for entry in waiting])
    seats = tournament.seat_limit
    gathered = now - timedelta(seconds=settings.TOURNAMENT_GATHER_S)
    queue = list(waiting)
    groups: list[list[Player]] = []
    while len(queue) >= MIN_RACERS:
        if len(queue) < seats and min(entry.waiting_since for entry in queue) > gathered:
            break  # a short race waits for more, a few seconds at most
        group = [queue.pop(0)]
        while len(group) < seats and queue:
            met = set().union(*(last.get(entry.player_id, set()) for entry in group))
            window = queue[: 2 * seats]
            pick = next((e for e in window if e.player_id not in met), window[0])
            queue.remove(pick)
            group.append(pick)
        groups.append([entry.player for entry in group])
    return groups


def _race_seat(tournament: Tournament, racers: list[Player]) -> bool:
    """One race of the tournament for `racers`, started; False if races refused it
    (a racer banned meanwhile): nothing of it is kept, they wait for the next tick."""
    try:
        with transaction.atomic(), pairing_seats():
            race = race_create_started(
                racers=racers,
                variant=tournament.variant,
                time_limit_s=tournament.race_time_limit_s,
                automatic_moves=tournament.automatic_moves,
                rated=True,
            )
            TournamentRace.objects.create(tournament=tournament, race=race)
    except RaceRefused as refused:
        logger.warning("tournament %s: a race was not seated: %s", tournament.pk, refused)
        return False
    return True

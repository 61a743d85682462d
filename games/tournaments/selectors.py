"""Reads for tournaments: the lists, one tournament's standings, a player's races."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from games.models import Player, RaceEntry, RaceStatus
from games.tournaments.models import Tournament, TournamentEntry, TournamentRace, TournamentResult
from games.tournaments.points import RaceResult, Score, scores_fold

UPCOMING: Final = "upcoming"
RUNNING: Final = "running"
ENDING: Final = "ending"  # over, but races seated before the end still run
FINISHED: Final = "finished"
LIST_LIMIT: Final = 20
LOBBY_FRESH: Final = timedelta(hours=1)


def tournament_by_code(*, code: str) -> Tournament | None:
    return Tournament.objects.filter(code=code).first()


def tournament_phase(*, tournament: Tournament, now: datetime | None = None) -> str:
    when = now or timezone.now()
    if tournament.finished_at is not None:
        return FINISHED
    if when < tournament.starts_at:
        return UPCOMING
    return RUNNING if when < tournament.ends_at else ENDING


@dataclass(frozen=True, slots=True)
class TournamentLists:
    upcoming: list[Tournament]
    running: list[Tournament]
    finished: list[Tournament]


def tournaments_listed(*, now: datetime | None = None) -> TournamentLists:
    """The public tournaments: upcoming soonest first, running, the latest finished."""
    when = now or timezone.now()
    public = Tournament.objects.filter(public=True).select_related("created_by")
    return TournamentLists(
        upcoming=list(public.filter(starts_at__gt=when).order_by("starts_at")[:LIST_LIMIT]),
        running=list(
            public.filter(starts_at__lte=when, finished_at__isnull=True).order_by("ends_at")[
                :LIST_LIMIT
            ]
        ),
        finished=list(public.filter(finished_at__isnull=False).order_by("-ends_at")[:LIST_LIMIT]),
    )


def results_counted(*, tournament: Tournament) -> QuerySet[TournamentResult]:
    """The results that count (their race not voided), in the order their races were scored."""
    return TournamentResult.objects.filter(
        tournament_race__tournament=tournament, tournament_race__void__isnull=True
    ).order_by("tournament_race__scored_at", "tournament_race_id", "pk")


def tournament_scores(*, tournament: Tournament) -> list[Score]:
    """Every entrant's score, ranked (games/tournaments/points.py)."""
    joined = dict(
        TournamentEntry.objects.filter(tournament=tournament).values_list("player_id", "joined_at")
    )
    rows = results_counted(tournament=tournament).values_list(
        "player_id",
        "place",
        "racers",
        "won",
        "cards_played",
        "ranked",
        "tournament_race__scored_at",
        "placed",
    )
    results = (
        RaceResult(player, place, racers, won, cards, ranked, ended_at, placed)
        for player, place, racers, won, cards, ranked, ended_at, placed in rows
        if ended_at is not None  # a result is written with its race's scoring: always set
    )
    return scores_fold(joined=joined, results=results)


def racing_now(*, tournament: Tournament) -> dict[int, str]:
    """Entrants seated in a race of the tournament that has not finished: their race's code."""
    entries = RaceEntry.objects.filter(
        race__tournament_race__tournament=tournament, left_at__isnull=True
    ).exclude(race__status=RaceStatus.FINISHED)
    return dict(entries.values_list("player_id", "race__code"))


def tournament_standings(*, tournament: Tournament) -> list[dict[str, Any]]:
    """The table as the page and the socket show it (docs/protocol.md, "Tournament socket")."""
    scores = tournament_scores(tournament=tournament)
    entries = TournamentEntry.objects.filter(tournament=tournament).select_related("player")
    by_player = {entry.player_id: entry for entry in entries}
    racing = racing_now(tournament=tournament)
    rows = []
    for rank, score in enumerate(scores, start=1):
        entry = by_player[score.player]
        rows.append(
            {
                "rank": rank,
                "player": score.player,
                "nickname": entry.player.nickname,
                "bot": entry.player.is_bot,
                "points": score.points,
                "races": score.races,
                "firsts": score.firsts,
                "streak": score.streak,
                "fire": score.on_fire,
                "race": racing.get(score.player),
                "paused": entry.paused,
            }
        )
    return rows


@dataclass(frozen=True, slots=True)
class RaceRacer:
    """One racer of a race, as a finished tournament's page names them."""

    player: int
    nickname: str
    game: int
    place: int
    placed: bool  # ranked and made five moves: the place counts (points.py)
    points: int | None  # None: the race was voided


@dataclass(frozen=True, slots=True)
class PlayedRace:
    code: str
    game: int
    place: int
    racers: int
    won: bool
    cards_played: int
    points: int | None  # None: the race was voided
    ranked: bool
    # Everyone the race seated, this player included, best place first.
    seated: tuple[RaceRacer, ...] = ()


def tournament_races_played(*, tournament: Tournament) -> dict[int, list[PlayedRace]]:
    """Each player's races of the tournament in order, each naming all its racers with
    their places, points and games. Two queries whatever the number of players or races
    (the entries and the results): the page lists every player's races at once."""
    joined = dict(
        TournamentEntry.objects.filter(tournament=tournament).values_list("player_id", "joined_at")
    )
    results = list(
        TournamentResult.objects.filter(tournament_race__tournament=tournament)
        .select_related("player", "tournament_race__race", "tournament_race__void")
        .order_by("tournament_race__scored_at", "tournament_race_id", "pk")
    )
    counted = [
        r
        for r in results
        if r.tournament_race.scored_at is not None and not hasattr(r.tournament_race, "void")
    ]
    # The fold's race_points are in the order it was given the results: hand them back
    # to the results in that same order.
    scores = scores_fold(joined=joined, results=(_race_result(r) for r in counted))
    pending = {score.player: iter(score.race_points) for score in scores}
    points: dict[int, int] = {}
    for result in counted:
        points[result.pk] = next(pending.get(result.player_id, iter(())), 0)
    fields: dict[int, list[RaceRacer]] = {}
    for result in results:
        fields.setdefault(result.tournament_race_id, []).append(
            RaceRacer(
                player=result.player_id,
                nickname=result.player.nickname,
                game=result.game_id,
                place=result.place,
                placed=result.ranked and result.placed,
                points=points.get(result.pk),
            )
        )
    for racers in fields.values():
        racers.sort(key=lambda r: (not r.placed, r.place, r.nickname))
    played: dict[int, list[PlayedRace]] = {}
    for result in results:
        played.setdefault(result.player_id, []).append(
            PlayedRace(
                code=result.tournament_race.race.code,
                game=result.game_id,
                place=result.place,
                racers=result.racers,
                won=result.won,
                cards_played=result.cards_played,
                points=points.get(result.pk),
                ranked=result.ranked,
                seated=tuple(fields[result.tournament_race_id]),
            )
        )
    return played


def _race_result(result: TournamentResult) -> RaceResult:
    ended_at = result.tournament_race.scored_at
    assert ended_at is not None  # only scored races are folded
    return RaceResult(
        result.player_id,
        result.place,
        result.racers,
        result.won,
        result.cards_played,
        result.ranked,
        ended_at,
        result.placed,
    )


def tournament_player_races(*, tournament: Tournament, player: Player) -> list[PlayedRace]:
    """A player's races of the tournament in order, with the points each earned."""
    return tournament_races_played(tournament=tournament).get(player.pk, [])


def tournament_of_race(*, race_id: int) -> Tournament | None:
    link = TournamentRace.objects.filter(race_id=race_id).select_related("tournament").first()
    return link.tournament if link is not None else None


def entrant_active(*, player: Player, now: datetime | None = None) -> Tournament | None:
    """A tournament `player` is in the queue of (joined, not paused) while it runs, or
    one whose race they are in now: no other race may seat them meanwhile."""
    when = now or timezone.now()
    queued = TournamentEntry.objects.filter(
        player=player, paused=False, tournament__finished_at__isnull=True
    ).filter(Q(tournament__ends_at__gt=when))
    entry = queued.select_related("tournament").first()
    if entry is not None:
        return entry.tournament
    racing = (
        RaceEntry.objects.filter(
            player=player, left_at__isnull=True, race__tournament_race__isnull=False
        )
        .exclude(race__status=RaceStatus.FINISHED)
        .values_list("race_id", flat=True)
        .first()
    )
    return tournament_of_race(race_id=racing) if racing is not None else None


def player_racing_elsewhere(*, player: Player, tournament: Tournament) -> str | None:
    """The code of a race outside `tournament` that `player` is seated in: running and
    not out of time, or a lobby of the last hour (an older one is taken as abandoned)."""
    now = timezone.now()
    live = Q(race__status=RaceStatus.RUNNING, race__ends_at__gt=now) | Q(
        race__status=RaceStatus.LOBBY, race__created_at__gt=now - LOBBY_FRESH
    )
    return (
        RaceEntry.objects.filter(live, player=player, left_at__isnull=True)
        .exclude(race__tournament_race__tournament=tournament)
        .values_list("race__code", flat=True)
        .first()
    )


@dataclass(frozen=True, slots=True)
class NextRace:
    """What a tournament race's page tells its racer about the next race
    (docs/tournaments.md, "Carried into the next race")."""

    tournament: Tournament
    paused: bool
    over: bool  # no new race: the tournament has ended
    # How long until the pairing may seat them: the rest after this race. Counted
    # from the race's end when it has not ended yet.
    free_in_ms: int


def next_race_for(*, race_id: int, player: Player | None) -> NextRace | None:
    """For a racer of this tournament race whose latest race of it this is; None for
    anyone else (a spectator, or a racer looking back at an earlier race)."""
    if player is None:
        return None
    link = TournamentRace.objects.filter(race_id=race_id).select_related("tournament").first()
    if link is None:
        return None
    tournament = link.tournament
    entry = TournamentEntry.objects.filter(tournament=tournament, player=player).first()
    latest = (
        RaceEntry.objects.filter(player=player, race__tournament_race__tournament=tournament)
        .order_by("-race_id")
        .values_list("race_id", flat=True)
        .first()
    )
    if entry is None or latest != race_id:
        return None
    now = timezone.now()
    rest_ms = settings.TOURNAMENT_REST_S * 1000
    if link.scored_at is not None:
        rest_ms = max(0, int((entry.waiting_since - now).total_seconds() * 1000))
    return NextRace(
        tournament=tournament,
        paused=entry.paused,
        over=tournament.finished_at is not None or now >= tournament.ends_at,
        free_in_ms=rest_ms,
    )

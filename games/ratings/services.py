"""Ratings as a projection: replay a variant's rated races, in the order they finished.

Every change goes through `ratings_replay(variant, since=race)`: it drops what
the races from `since` onwards did (RatingChange rows), puts each player back
where their last earlier race left them, and rates those races again from their
kept rankings. A race that just finished is the newest, so this rates it alone
(or, should a race that finished before it be committed after it, both); a
void, a flag or its clearing on an old race replays every race since; `since=None`
is the rebuild. One path, so the incremental ratings and a rebuild agree.

What counts (docs/ratings.md): a finished rated race's games whose player has an
account, not voided, not flagged and not unranked (a deal seen before); a race
with fewer than two of them moves no rating. Against farming, a racer who made
almost no move, or whose account is new, moves nobody else's rating
(`_skills_after`). Replays of a variant are serialized (an advisory lock on PostgreSQL;
SQLite's writers queue anyway).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby

from django.db import connection, transaction
from django.db.models import Count, Q, QuerySet

from games.engine import VARIANTS
from games.engine.positions import RESIGN, TIMEOUT
from games.models import Race, RaceStanding, RaceStatus
from games.races.services import race_standings_write
from games.ratings.models import Rating, RatingChange
from games.ratings.skill import (
    ESTABLISHED_RACES,
    MIN_RATED_MOVES,
    START,
    Skill,
    shown,
    skills_after_race,
)
from games.ratings.writes import ratings_write


@dataclass(slots=True)
class _Standing:
    skill: Skill
    races: int
    last_race_at: datetime | None


def ratings_replay(*, variant: str, since: Race | None = None) -> int:
    """Rate again every rated race of `variant` from `since` (every race: None) on.
    Returns how many races moved ratings."""
    with transaction.atomic():
        _lock(variant)
        changes = RatingChange.objects.filter(variant=variant)
        races = Race.objects.filter(variant=variant, rated=True, status=RaceStatus.FINISHED)
        if since is None:
            RatingChange.objects.filter(variant=variant).delete()
            Rating.objects.filter(variant=variant).delete()
            table: dict[int, _Standing] = {}
        else:
            assert since.finished_at is not None, "only a finished race is rated"
            # (at, race) >= (since's): a range on the moment the indexes can use, less
            # the races of that same moment with a smaller id.
            changes = changes.filter(at__gte=since.finished_at).exclude(
                at=since.finished_at, race_id__lt=since.pk
            )
            races = races.filter(finished_at__gte=since.finished_at).exclude(
                finished_at=since.finished_at, pk__lt=since.pk
            )
            undone = set(changes.values_list("player_id", flat=True))
            changes.delete()
            table = _restore(variant, undone)
        rated = 0
        new_changes: list[tuple[object, ...]] = []
        touched: set[int] = set()
        fields = list(_fields(races))
        _load(variant, table, {entrant.player for _, _, entrants in fields for entrant in entrants})
        for race_id, at, entrants in fields:
            if len(entrants) < 2:
                continue
            rated += 1
            before = [table.get(e.player) or _Standing(START, 0, None) for e in entrants]
            after = _skills_after(entrants, before)
            for rank, (entrant, old, skill) in enumerate(
                zip(entrants, before, after, strict=True), start=1
            ):
                table[entrant.player] = _Standing(skill, old.races + 1, at)
                touched.add(entrant.player)
                delta = shown(skill) - shown(old.skill)
                player, game = entrant.player, entrant.game
                new_changes.append(
                    (player, variant, race_id, game, at, *skill, shown(skill), delta, rank)
                )
        ratings_write(
            changes=new_changes,
            ratings=[_rating_row(variant, player, table[player]) for player in touched],
        )
    return rated


def _rating_row(variant: str, player: int, standing: _Standing) -> tuple[object, ...]:
    skill = standing.skill
    return (player, variant, *skill, shown(skill), standing.races, standing.last_race_at)


def _lock(variant: str) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s)", [zlib.crc32(f"ratings:{variant}".encode())]
            )


@dataclass(frozen=True, slots=True)
class _Entrant:
    game: int
    player: int
    place: int
    moves: int  # the racer's own moves: no resignation, time-out or automatic move


def _skills_after(entrants: list[_Entrant], before: list[_Standing]) -> list[Skill]:
    """Each racer's skill after the race (docs/ratings.md, "Farming").

    A racer *weighs* when they made MIN_RATED_MOVES moves of their own and had
    ESTABLISHED_RACES rated races before this one. Racers who weigh are rated
    among themselves only: beating a throwaway account that resigns at once, or
    a fresh one, gives nothing. Racers who do not weigh are rated against the
    whole field, as before: a newcomer still learns from everyone, and resigning
    at once still loses."""
    everyone = skills_after_race([s.skill for s in before], [e.place for e in entrants])
    weighing = [
        i
        for i, (entrant, standing) in enumerate(zip(entrants, before, strict=True))
        if entrant.moves >= MIN_RATED_MOVES and standing.races >= ESTABLISHED_RACES
    ]
    if len(weighing) == len(entrants):
        return everyone
    among: dict[int, Skill] = {}
    if len(weighing) >= 2:
        rated = skills_after_race(
            [before[i].skill for i in weighing], [entrants[i].place for i in weighing]
        )
        among = dict(zip(weighing, rated, strict=True))
    elif weighing:
        among = {weighing[0]: before[weighing[0]].skill}  # nobody to be rated against
    return [among.get(i, skill) for i, skill in enumerate(everyone)]


def _fields(races: QuerySet[Race]) -> Iterator[tuple[int, datetime, list[_Entrant]]]:
    """(race, finished at, entrants best first) for each race, in replay order: only
    the games that count (accounts' games, not voided, not flagged, not unranked:
    a first sight of the deal, games.fairness)."""
    own = Q(game__moves__automatic=False) & ~Q(game__moves__token__in=(RESIGN, TIMEOUT))
    rows = (
        RaceStanding.objects.filter(race__in=races)
        .filter(game__voided=False, game__flagged=False, game__player__user__isnull=False)
        .filter(game__unranked__isnull=True)
        .annotate(own_moves=Count("game__moves", filter=own))
        .order_by("race__finished_at", "race_id", "rank")
        .values_list(
            "race_id",
            "race__finished_at",
            "game_id",
            "game__player_id",
            "place",
            "own_moves",
            "game__player__is_bot",
            "race__public",
            "race__host__is_bot",
        )
    )
    for (race_id, at), group in groupby(rows.iterator(chunk_size=5000), key=lambda r: (r[0], r[1])):
        entrants = list(group)
        bots = {row[3] for row in entrants if row[6]}
        # Bots are rated among bots, unless a person invited them: the host of a
        # private race (docs/ratings.md). In a public race, or a bot's own, a
        # person and a bot never move each other's ratings.
        public, bot_host = entrants[0][7], entrants[0][8]
        if bots and len(bots) < len(entrants) and (public or bot_host):
            entrants = [row for row in entrants if row[3] not in bots]
        yield race_id, at, [_Entrant(*row[2:6]) for row in entrants]


def _restore(variant: str, players: set[int]) -> dict[int, _Standing]:
    """Where each player's races before the replay left them; forget those with none."""
    kept = (
        RatingChange.objects.filter(variant=variant, player_id__in=players)
        .order_by("player_id", "-at", "-race_id")
        .values_list("player_id", "mu", "sigma", "at")
    )
    table: dict[int, _Standing] = {}
    for player, group in groupby(kept.iterator(chunk_size=5000), key=lambda row: row[0]):
        rows = list(group)
        _, mu, sigma, at = rows[0]
        table[player] = _Standing((mu, sigma), len(rows), at)
    Rating.objects.filter(variant=variant, player_id__in=players - set(table)).delete()
    return table


def _load(variant: str, table: dict[int, _Standing], players: set[int]) -> None:
    """Add the current ratings of players the replay meets and has not restored."""
    wanted = players - set(table)
    for rating in Rating.objects.filter(variant=variant, player_id__in=wanted).iterator():
        table[rating.player_id] = _Standing(
            (rating.mu, rating.sigma), rating.races, rating.last_race_at
        )


# What calls in -------------------------------------------------------------


def ratings_race_finished(*, race_id: int) -> int:
    """A race just finished: rate it (a no-op for an unrated one)."""
    race = Race.objects.filter(pk=race_id, rated=True, status=RaceStatus.FINISHED).first()
    if race is None:
        return 0
    return ratings_replay(variant=race.variant, since=race)


def ratings_game_judged(*, game_id: int) -> int:
    """A moderator voided, reinstated, flagged or cleared a game: replay from its race."""
    race = Race.objects.filter(games__pk=game_id, rated=True, status=RaceStatus.FINISHED).first()
    if race is None:
        return 0  # not rated, or not finished yet (its end will read the game's marks)
    return ratings_replay(variant=race.variant, since=race)


def ratings_player_changed(*, player_id: int) -> int:
    """A guest's games became an account's: replay from the first rated race they were in."""
    moved = 0
    for variant in VARIANTS:
        first = (
            Race.objects.filter(
                variant=variant, rated=True, status=RaceStatus.FINISHED, games__player_id=player_id
            )
            .order_by("finished_at", "pk")
            .first()
        )
        if first is not None:
            moved += ratings_replay(variant=variant, since=first)
    return moved


@dataclass(frozen=True, slots=True)
class RebuildReport:
    reranked: int  # races whose ranking was written afresh from their logs
    rated: dict[str, int]  # races that moved ratings, per variant


def ratings_rebuild(*, rerank: bool = False) -> RebuildReport:
    """Every rating from the start. The rankings kept at each race's end are used as they
    are (a finished race's logs cannot change), written from the logs where one is
    missing; `rerank` writes every one afresh from the logs."""
    finished = Race.objects.filter(rated=True, status=RaceStatus.FINISHED)
    if not rerank:
        finished = finished.annotate(kept=Count("standings")).filter(kept=0)
    reranked = 0
    for race in finished.order_by("pk").iterator(chunk_size=500):
        with transaction.atomic():
            race_standings_write(race=race)
        reranked += 1
    return RebuildReport(reranked, {v: ratings_replay(variant=v, since=None) for v in VARIANTS})

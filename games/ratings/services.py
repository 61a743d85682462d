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
with fewer than two of them moves no rating. Against farming, each racer is
rated only against the opponents games.fairness.worth counts for them: placed
(five moves of their own), established (enough distinct opponents), and a pair
not met too often that day (`_skills_after`). Replays of a variant are
serialized (an advisory lock on PostgreSQL; SQLite's writers queue anyway).
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from itertools import groupby

from django.db import connection, transaction
from django.db.models import Count, QuerySet

from games.engine import VARIANTS
from games.fairness.worth import (
    MIN_PLACED_MOVES,
    Meetings,
    Pair,
    Racer,
    is_established,
    opponents_counted,
    own_move,
    pairs_met,
    utc_day,
)
from games.models import Race, RaceStatus
from games.races.models import RaceStanding
from games.races.moves import race_standings_write
from games.ratings.models import Rating, RatingChange
from games.ratings.skill import START, Skill, shown, skills_after_race
from games.ratings.writes import ratings_write


@dataclass(slots=True)
class _Standing:
    skill: Skill
    races: int
    last_race_at: datetime | None
    established: bool
    # Distinct placed opponents met while not yet established (then no longer kept).
    met: set[int] = field(default_factory=set)


def _newcomer() -> _Standing:
    return _Standing(START, 0, None, is_established(0))


def ratings_replay(*, variant: str, since: Race | None = None) -> int:
    """Rate again every rated race of `variant` from `since` (every race: None) on.
    Returns how many races moved ratings."""
    with transaction.atomic():
        _lock(variant)
        changes = RatingChange.objects.filter(variant=variant)
        races = Race.objects.filter(variant=variant, rated=True, status=RaceStatus.FINISHED)
        meetings = Meetings()
        if since is None:
            RatingChange.objects.filter(variant=variant).delete()
            Rating.objects.filter(variant=variant).delete()
            table: dict[int, _Standing] = {}
            undone: set[int] = set()
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
            _meetings_restore(variant, since.finished_at, meetings)
        rated = 0
        new_changes: list[tuple[object, ...]] = []
        # A player whose changes were undone gets their row again even if no race
        # replayed now rates them (their game voided): restored to their last earlier race.
        touched: set[int] = undone & set(table)
        fields = list(_fields(races))
        _load(variant, table, {entrant.player for _, _, entrants in fields for entrant in entrants})
        for race_id, at, entrants in fields:
            if len(entrants) < 2:
                continue
            rated += 1
            before = [table.get(e.player) or _newcomer() for e in entrants]
            racers = [
                Racer(e.player, e.place, e.moves, old.established)
                for e, old in zip(entrants, before, strict=True)
            ]
            after = _skills_after(racers, [old.skill for old in before], meetings.today(at))
            met = pairs_met(racers)
            meetings.add(at, met)
            for rank, (racer, entrant, old, skill) in enumerate(
                zip(racers, entrants, before, after, strict=True), start=1
            ):
                standing = _Standing(skill, old.races + 1, at, old.established)
                if not old.established:
                    partners = {
                        a if b == racer.player else b for a, b in met if racer.player in (a, b)
                    }
                    standing.met = old.met | partners
                    standing.established = is_established(len(standing.met))
                    if standing.established:
                        standing.met = set()
                table[entrant.player] = standing
                touched.add(entrant.player)
                delta = shown(skill) - shown(old.skill)
                player, game = entrant.player, entrant.game
                new_changes.append(
                    (
                        player,
                        variant,
                        race_id,
                        game,
                        at,
                        *skill,
                        shown(skill),
                        delta,
                        rank,
                        racer.placed,
                        standing.established,
                    )
                )
        ratings_write(
            changes=new_changes,
            ratings=[_rating_row(variant, player, table[player]) for player in touched],
        )
    return rated


def _rating_row(variant: str, player: int, standing: _Standing) -> tuple[object, ...]:
    skill = standing.skill
    return (
        player,
        variant,
        *skill,
        shown(skill),
        standing.races,
        standing.last_race_at,
        standing.established,
    )


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


def _skills_after(
    racers: list[Racer], skills: list[Skill], met_today: Counter[Pair]
) -> list[Skill]:
    """Each racer's skill after the race (docs/ratings.md, "Farming"): each racer is
    rated in a race of their own against the opponents their result counts against
    (games.fairness.worth), and keeps their skill when there are none. When every
    racer counts against every other, that is the whole race, rated once."""
    counted = opponents_counted(racers, met_today=met_today)
    rated: dict[tuple[int, ...], list[Skill]] = {}
    after = []
    for i, opponents in enumerate(counted):
        if not opponents:
            after.append(skills[i])
            continue
        race = tuple(sorted((i, *opponents)))  # still best first
        if race not in rated:
            rated[race] = skills_after_race(
                [skills[k] for k in race], [racers[k].place for k in race]
            )
        after.append(rated[race][race.index(i)])
    return after


def _fields(races: QuerySet[Race]) -> Iterator[tuple[int, datetime, list[_Entrant]]]:
    """(race, finished at, entrants best first) for each race, in replay order: only
    the games that count (accounts' games, not voided, not flagged, not unranked:
    a first sight of the deal, games.fairness)."""
    own = own_move("game__moves__")
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
        .values_list("player_id", "mu", "sigma", "at", "established")
    )
    table: dict[int, _Standing] = {}
    for player, group in groupby(kept.iterator(chunk_size=5000), key=lambda row: row[0]):
        rows = list(group)
        _, mu, sigma, at, established = rows[0]
        table[player] = _Standing((mu, sigma), len(rows), at, established)
    Rating.objects.filter(variant=variant, player_id__in=players - set(table)).delete()
    _met_restore(variant, table)
    return table


def _load(variant: str, table: dict[int, _Standing], players: set[int]) -> None:
    """Add the current ratings of players the replay meets and has not restored."""
    wanted = players - set(table)
    loaded: dict[int, _Standing] = {}
    for rating in Rating.objects.filter(variant=variant, player_id__in=wanted).iterator():
        loaded[rating.player_id] = _Standing(
            (rating.mu, rating.sigma), rating.races, rating.last_race_at, rating.established
        )
    _met_restore(variant, loaded)
    table.update(loaded)


def _met_restore(variant: str, table: dict[int, _Standing]) -> None:
    """The opponents met by the players not yet established, from their kept changes."""
    newcomers = {player for player, standing in table.items() if not standing.established}
    if not newcomers:
        return
    theirs = RatingChange.objects.filter(variant=variant, placed=True, player_id__in=newcomers)
    rows = (
        RatingChange.objects.filter(
            variant=variant, placed=True, race_id__in=theirs.values("race_id")
        )
        .order_by("race_id")
        .values_list("race_id", "player_id")
    )
    for _, group in groupby(rows, key=lambda row: row[0]):
        present = {player for _, player in group}
        for player in present & newcomers:
            table[player].met |= present - {player}


def _meetings_restore(variant: str, at: datetime, meetings: Meetings) -> None:
    """The pairs met earlier on the day of `at` (the changes from `at` on are undone)."""
    start = datetime.combine(utc_day(at), time(0), tzinfo=UTC)
    rows = (
        RatingChange.objects.filter(variant=variant, placed=True, at__gte=start)
        .order_by("at", "race_id")
        .values_list("race_id", "player_id", "at")
    )
    for (_, when), group in groupby(rows, key=lambda row: (row[0], row[2])):
        players = [Racer(player, 1, MIN_PLACED_MOVES) for _, player, _ in group]
        meetings.add(when, pairs_met(players))


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

"""The record between two players: the races they both ran, who finished ahead, the deals.

"You and bob: 12 races, you ahead in 7, bob in 5" counts finished races both
ran, from their kept standings (games/races/models.py: a finished race's
ranking, written once); a tie in place counts for neither. The deals listed
are those races and the daily deals both played on days that are over (a
running day's attempts are sealed, docs/anticheat.md), each with both
replays.

`race_records` counts it for one player against many at once (a race's
results, a challenge's attempters), in one query whatever their number;
`head_to_head` is the profile's, with the deals. Only accounts have a record
shown (a guest has no profile to link it to, and is one browser's for a
while); bots are accounts, and count.

The one query walks the first player's race games by the partial index
`game_player_race` (player, race) and finds the other's game in the same race
by the unique (race, player) index; bench/head_to_head.py measures it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Final

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery

from games.daily.models import DailyAttempt
from games.daily.rules import daily_last_day_over
from games.models import Game, Player

RECENT_DEALS: Final = 10


@dataclass(frozen=True, slots=True)
class SharedDeal:
    mine: int  # my game's id (its replay)
    theirs: int
    variant: str
    finished: object  # when: a race's finish, a day's date
    daily: date | None = None
    my_place: int | None = None
    their_place: int | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """Meetings counted, and how many `me` (the asker) finished ahead in and behind in."""

    played: int = 0
    ahead: int = 0
    behind: int = 0

    def __add__(self, other: Record) -> Record:
        return Record(
            self.played + other.played, self.ahead + other.ahead, self.behind + other.behind
        )


@dataclass(frozen=True, slots=True)
class HeadToHead:
    races: int
    ahead: int
    behind: int
    deals: list[SharedDeal]


def _shared_races(me: Player, others: Iterable[int]) -> QuerySet[Game]:
    """My standing games in races where one of `others` has a standing game too: one
    join (the same `race__games` in one filter call is one alias), their game and place
    beside. Only finished races have standings: nothing of a running race is counted."""
    return Game.objects.filter(
        player=me,
        race__isnull=False,
        standing__isnull=False,
        race__games__player_id__in=[pk for pk in others if pk != me.pk],
        race__games__standing__isnull=False,
    ).annotate(
        their_game=F("race__games__id"),
        their_place=F("race__games__standing__place"),
    )


def race_records(*, me: Player, others: Iterable[int]) -> dict[int, Record]:
    """`me`'s record against each of `others` (player ids) over the races both ran:
    the counting rule's one home. One query; a player never met is absent."""
    rows = (
        _shared_races(me, others)
        .order_by()
        .values("race__games__player_id")
        .annotate(
            races=Count("pk"),
            ahead=Count("pk", filter=Q(standing__place__lt=F("their_place"))),
            behind=Count("pk", filter=Q(standing__place__gt=F("their_place"))),
        )
    )
    return {
        row["race__games__player_id"]: Record(row["races"], row["ahead"], row["behind"])
        for row in rows
    }


def head_to_head(*, me: Player, other: Player) -> HeadToHead:
    shared = _shared_races(me, [other.pk])
    totals = race_records(me=me, others=[other.pk]).get(other.pk, Record())
    recent = shared.select_related("race", "standing").order_by("-race__finished_at", "-pk")
    deals = [
        SharedDeal(
            mine=g.pk,
            theirs=g.their_game,  # type: ignore[attr-defined]
            variant=g.variant,
            finished=g.race.finished_at if g.race is not None else None,
            my_place=g.standing.place,
            their_place=g.their_place,  # type: ignore[attr-defined]
        )
        for g in recent[:RECENT_DEALS]
    ]
    return HeadToHead(totals.played, totals.ahead, totals.behind, deals + _shared_days(me, other))


def _shared_days(me: Player, other: Player) -> list[SharedDeal]:
    """Daily deals both played, on days that are over only."""
    theirs = DailyAttempt.objects.filter(
        day=OuterRef("day"), variant=OuterRef("variant"), player=other
    )
    rows = (
        DailyAttempt.objects.filter(player=me, day__lte=daily_last_day_over())
        .annotate(their_game=Subquery(theirs.values("game_id")[:1]))
        .filter(their_game__isnull=False)
        .order_by("-day")[:RECENT_DEALS]
    )
    return [
        SharedDeal(
            mine=a.game_id, theirs=a.their_game, variant=a.variant, finished=a.day, daily=a.day
        )
        for a in rows
    ]


@dataclass(frozen=True, slots=True)
class Opponent:
    """A player met, and `me`'s record against them (its profile at `username`)."""

    player: int
    nickname: str
    username: str
    record: Record


def opponents_with_records(*, me: Player, players: QuerySet[Player]) -> list[Opponent]:
    """`me`'s record against each account among `players` (not `me`), by nickname: two
    queries however many. A guest has no profile to link a record to, and is left out."""
    accounts = (
        players.filter(user__isnull=False)
        .exclude(pk=me.pk)
        .distinct()
        .order_by("nickname", "pk")
        .values_list("pk", "nickname", "user__username")
    )
    met = list(accounts)
    records = race_records(me=me, others=[pk for pk, _, _ in met])
    return [
        Opponent(pk, nickname, username, records.get(pk, Record()))
        for pk, nickname, username in met
    ]

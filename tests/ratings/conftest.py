"""Rated races finished through the services, as the race socket would drive them."""

from __future__ import annotations

import itertools
from typing import Any

from games.models import Player, Race
from games.races.models import RaceStanding
from games.races.services import race_create, race_join, race_start
from games.ratings.models import Rating, RatingChange
from tests.pages.conftest import race_play, race_resign

# Deals where every one of the first 8 moves of `race_play` plays a card: a racer with
# more moves is ranked higher, whatever the random deal would have been. A race takes
# the next one: a racer who raced a deal before races it again unranked (games.fairness),
# and no seed is in both lists (a seed is the same shuffle in every variant).
DEALS = {
    "sultan": (6068, 20232, 33449, 49735, 50936, 52342, 54791, 57537, 58631, 69871, 72967),
    "sultan-8": (2310, 6602, 10613, 12382, 17604, 18822, 19827, 22003, 26128, 27776),
}
_next_deal = itertools.count()


def fresh_deal(variant: str) -> int:
    deals = DEALS[variant]
    return deals[next(_next_deal) % len(deals)]


def finish_race(
    players: list[Player], *, rated: bool = True, variant: str = "sultan", moves: list[int]
) -> Race:
    """A race of `players`, each making their number of `moves` (a card each), then all
    resigning."""
    race = race_create(host=players[0], variant=variant, rated=rated)
    Race.objects.filter(pk=race.pk).update(seed=fresh_deal(variant))
    race.refresh_from_db()
    for player in players[1:]:
        race_join(race=race, player=player)
    race_start(race=race, player=players[0], countdown_s=0)
    race.refresh_from_db()
    for player, count in zip(players, moves, strict=True):
        race_play(race, player, count)
    for player in players:
        race_resign(race, player)
    race.refresh_from_db()
    return race


def ranking(race: Race) -> list[int]:
    """The race's players, best first, as kept at its end."""
    return list(
        RaceStanding.objects.filter(race=race)
        .order_by("rank")
        .values_list("game__player", flat=True)
    )


def projection() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every rating and every rating change, comparable across rebuilds."""
    ratings = Rating.objects.order_by("player", "variant").values_list(
        "player", "variant", "mu", "sigma", "rating", "races", "last_race_at", "established"
    )
    changes = RatingChange.objects.order_by("variant", "at", "race", "rank").values_list(
        "player",
        "variant",
        "race",
        "game",
        "at",
        "mu",
        "sigma",
        "rating",
        "delta",
        "rank",
        "placed",
        "established",
    )
    return list(ratings), list(changes)

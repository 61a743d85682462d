"""Results: a race's (as its socket's `end` has them), and a daily deal's day that is over."""

from __future__ import annotations

from typing import Final

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router

from games.api import auth
from games.api.auth import PUBLIC, ApiRefused
from games.api.schemas import (
    DailyOut,
    DailyRow,
    IsoDay,
    RaceOut,
    ResultRow,
    VariantCode,
    player_ref,
    refusals,
)
from games.daily.rules import daily_day_over, daily_seed
from games.daily.selectors import daily_leaderboard
from games.engine import DEFAULT_VARIANT, VARIANTS
from games.models import Player, RaceEntry, RaceStatus
from games.races.selectors import race_by_code, race_info, race_results, standings_as_dicts

router = Router(tags=["results"])
DAILY_TOP: Final = 1000


@router.get(
    "/races/{code}",
    response={200: RaceOut, **refusals(401, 404, 429)},
    auth=auth.read,
    summary="A race",
    openapi_extra=PUBLIC,
)
def race(request: HttpRequest, code: str) -> RaceOut:
    """The race's settings and racers; its results once it is over. The deal's
    number only once it may be known (an open deal's at once)."""
    found = race_by_code(code=code)
    if found is None:
        raise ApiRefused(404, "not_found", _("no race has this code"))
    entries = RaceEntry.objects.filter(race=found).select_related("player", "player__user")
    results = None
    if found.status == RaceStatus.FINISHED:
        results = [ResultRow(**row) for row in standings_as_dicts(race_results(race=found))]
    return RaceOut(
        race=race_info(race=found),
        racers=[player_ref(entry.player) for entry in entries if entry.seated],
        results=results,
    )


@router.get(
    "/daily/{day}",
    response={200: DailyOut, **refusals(400, 401, 403, 429)},
    auth=auth.read,
    summary="A daily deal's results",
    openapi_extra=PUBLIC,
)
def daily(request: HttpRequest, day: IsoDay, variant: VariantCode = DEFAULT_VARIANT) -> DailyOut:
    """The day's leaderboard (its first thousand) and deal, once the day is over
    for everyone; before that its results would tell who may still play it."""
    if variant not in VARIANTS:
        raise ApiRefused(
            400, "bad_request", _("unknown variant %(variant)r") % {"variant": variant[:40]}
        )
    if not daily_day_over(day=day):
        raise ApiRefused(403, "day_not_over", _("this day's deal is still being played"))
    standings = daily_leaderboard(day=day, variant=variant)[:DAILY_TOP]
    players = Player.objects.select_related("user").in_bulk([s.player for s in standings])
    return DailyOut(
        day=day,
        variant=variant,
        deal=str(daily_seed(day=day, variant=variant)),
        results=[
            DailyRow(
                rank=rank,
                player=player_ref(players[s.player]),
                game=s.game,
                status=s.status,
                cards_played=s.cards_played,
                time_ms=s.time_ms,
            )
            for rank, s in enumerate(standings, start=1)
        ],
    )

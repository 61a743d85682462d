"""A race of one: a daily deal's attempt, or a challenge's against its recorded game.

It never sits in a lobby: it starts at once (a countdown ahead), nobody may
join it, and its one game is the host's. Its moves and its end are any race's
(games/races/moves.py).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, Player, Race, RaceEntry, RaceStatus
from games.races.seating import seat_check
from games.races.services import MIN_RACERS, RaceRefused
from games.store.services import game_create


def race_start_solo(
    *,
    host: Player,
    variant: str,
    seed: int,
    time_limit_s: int,
    secret_until: datetime | None = None,
    ghost: Game | None = None,
) -> Race:
    """A race of one on a chosen secret deal, started at once (a countdown ahead):
    a daily deal's attempt, or a challenge's against its recorded `ghost`.

    Nobody may join it (it is never in the lobby); its game is the host's.
    """
    if host.banned_at is not None:
        raise RaceRefused("banned", _("this player is banned"))
    seat_check(player=host, race=None)
    starts_at = timezone.now() + timedelta(seconds=settings.RACE_COUNTDOWN_S)
    with transaction.atomic():
        race = Race.objects.create(
            host=host,
            variant=variant,
            seed=seed,
            time_limit_s=time_limit_s,
            seat_limit=MIN_RACERS,
            status=RaceStatus.RUNNING,
            starts_at=starts_at,
            ends_at=starts_at + timedelta(seconds=time_limit_s),
            secret_until=secret_until,
            ghost=ghost,
        )
        RaceEntry.objects.create(race=race, player=host)
        game_create(player=host, variant=variant, race=race)
    return race

"""Rooms above races may refuse a racer a seat: a tournament's entrant races only
the tournament's races (games/tournaments/services.py registers its check).

Races cannot import those rooms; they call `seat_check` wherever a racer takes
a seat or starts a race of their own, and a check raises a `Refused`.
"""

from __future__ import annotations

from collections.abc import Callable

from games.models import Player, Race

# A check's arguments: the racer, and the race they would sit in (None: one they create).
SeatCheck = Callable[[Player, Race | None], None]

_checks: dict[str, SeatCheck] = {}


def seat_check_register(name: str, check: SeatCheck) -> None:
    _checks[name] = check


def seat_check(*, player: Player, race: Race | None) -> None:
    for check in _checks.values():
        check(player, race)

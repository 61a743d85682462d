from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connections

from games.models import Player, Race
from games.races.services import race_create, race_join, race_start
from tests.races.helpers import SEED, VARIANT, guest_session


@dataclass
class Lobby:
    race: Race
    players: dict[str, Player]
    keys: dict[str, str]


def _lobby(names: tuple[str, ...], **options: object) -> Lobby:
    players, keys = {}, {}
    for name in names:
        players[name], keys[name] = guest_session(name)
    race = race_create(host=players[names[0]], variant=VARIANT, **options)  # type: ignore[arg-type]
    for name in names[1:]:
        race_join(race=race, player=players[name])
    # A secret deal, but one the scripted players know how to win and lose.
    Race.objects.filter(pk=race.pk).update(seed=SEED)
    race.refresh_from_db()
    return Lobby(race, players, keys)


@pytest.fixture
def lobby(transactional_db: None, settings: Any) -> Lobby:
    """alice hosts, bob and charlie are seated; dave (not seated) may watch."""
    settings.RACE_COUNTDOWN_S = 0
    # Scripted racers move far faster than people; the flood test sets it back.
    settings.WS_RATE_PER_S = 10_000
    lobby = _lobby(("alice", "bob", "charlie"))
    lobby.players["dave"], lobby.keys["dave"] = guest_session("dave")
    return lobby


@pytest.fixture
def started(lobby: Lobby) -> Lobby:
    race_start(race=lobby.race, player=lobby.players["alice"], countdown_s=0)
    lobby.race.refresh_from_db()
    return lobby


@pytest.fixture(autouse=True)
def _close_worker_connections() -> None:
    """Socket handlers use worker threads, each with its own connection; with
    connections closed after each call, none is left open on the test
    database when it is dropped."""
    connections.settings["default"]["CONN_MAX_AGE"] = 0

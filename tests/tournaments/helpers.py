"""A tournament made, watched on its socket and played as racers would, through the
tournaments' and the races' own services."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import count
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.utils import timezone

from games.engine import apply, legal_moves
from games.models import Game, Player, Race
from games.races.moves import race_move
from games.store.selectors import game_state
from games.tournaments.models import Tournament
from games.tournaments.pairing import pairing_tick
from games.tournaments.services import tournament_create, tournament_join
from sultan_site.asgi import application

_ids = count()


@pytest.fixture(autouse=True)
def no_arena_loop(settings: Any) -> None:
    """No arena loop beside a test's tournament sockets: nobody is paired unless the test
    runs `pairing_tick` itself. Autouse in a module that imports it."""
    settings.TOURNAMENT_TICK_MS = 0


async def tournament_socket(code: str) -> WebsocketCommunicator:
    """A spectator's socket on tournament `code`, connected through the real ASGI app."""
    socket = WebsocketCommunicator(
        application, f"/ws/tournaments/{code}/", headers=[(b"origin", b"http://127.0.0.1")]
    )
    connected, _ = await socket.connect(timeout=10)
    assert connected
    return socket


def arena(
    host: Player, *entrants: Player, name: str = "Arena", seat_limit: int = 2, public: bool = True
) -> Tournament:
    """A 30-minute sultan tournament `host` creates, running now, each of `entrants`
    joined (the host too only when among them); nobody paired yet."""
    tournament = tournament_create(
        creator=host,
        name=name,
        variant="sultan",
        minutes=30,
        seat_limit=seat_limit,
        automatic_moves=False,
        public=public,
    )
    for player in entrants:
        tournament_join(tournament=tournament, player=player)
    return tournament


def arena_paired(players: list[Player], name: str = "Arena") -> Tournament:
    """A tournament of races seating all `players` (the first creates it), each joined,
    and the first tick of its pairing run: they race together."""
    tournament = arena(players[0], *players, name=name, seat_limit=len(players))
    pairing_tick()
    return tournament


def race_go(race: Race) -> None:
    """Past the countdown: a test does not wait out the seconds a browser is given."""
    Race.objects.filter(pk=race.pk).update(
        starts_at=timezone.now() - timedelta(seconds=1),
        ends_at=timezone.now() + timedelta(seconds=race.time_limit_s),
    )


def after_rest() -> datetime:
    """A moment past a just-scored race's rest (TOURNAMENT_REST_S): its racers are free."""
    return timezone.now() + timedelta(seconds=settings.TOURNAMENT_REST_S + 1)


def cards_up(player: Player, race: Race, cards: int) -> int:
    """Play moves that put cards up until `cards` are up (or none is left); returns the count."""
    game = Game.objects.get(race=race, player=player)
    state = game_state(game=game)
    while state.cards_played < cards:
        before = state.cards_played
        moves = legal_moves(state)
        ups = [m for m in moves if apply(state, m).cards_played > before]
        if not ups:
            draws = [m for m in moves if m in ("draw", "redeal")]
            if not draws:
                break
            ups = draws
        game.refresh_from_db()
        result = race_move(
            race_id=race.pk,
            game_id=game.pk,
            player=player,
            token=ups[0],
            client_move_id=f"m{next(_ids)}",
            expected_seq=game.last_seq,
        )
        state = result.append.state
    return state.cards_played


def resign(player: Player, race: Race) -> None:
    game = Game.objects.get(race=race, player=player)
    race_move(
        race_id=race.pk,
        game_id=game.pk,
        player=player,
        token="resign",
        client_move_id=f"r{next(_ids)}",
        expected_seq=game.last_seq,
    )

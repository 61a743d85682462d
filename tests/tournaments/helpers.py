"""Playing a tournament's races as racers would, through the races' own services."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import count

from django.conf import settings
from django.utils import timezone

from games.engine import apply, legal_moves
from games.models import Game, Player, Race
from games.races.moves import race_move
from games.store.selectors import game_state
from games.tournaments.models import Tournament
from games.tournaments.pairing import pairing_tick
from games.tournaments.services import tournament_create, tournament_join

_ids = count()


def arena_paired(players: list[Player], name: str = "Arena") -> Tournament:
    """A tournament of races seating all `players` (the first creates it), each joined,
    and the first tick of its pairing run: they race together."""
    tournament = tournament_create(
        creator=players[0],
        name=name,
        variant="sultan",
        minutes=30,
        seat_limit=len(players),
        automatic_moves=False,
        public=True,
    )
    for player in players:
        tournament_join(tournament=tournament, player=player)
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

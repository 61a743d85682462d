"""What the backup test puts in a database: practice games, finished and running races,
moderation events. Run in the process that owns that database (`populate()`)."""

from __future__ import annotations

import itertools

from django.contrib.auth.models import User

from games.accounts.services import player_create_guest, player_for_user
from games.engine import legal_moves
from games.models import Game, Player, Race
from games.moderation.services import game_flag, game_void, player_ban
from games.races.moves import race_close_if_over, race_move
from games.races.services import race_create, race_join, race_start
from games.store.selectors import game_state
from games.store.services import game_append_move, game_create

_ids = itertools.count(1)


def _append(game: Game, player: Player, token: str) -> None:
    """A move through its game's path: the race's for a race game, the store's else."""
    move_id, seq = f"b-{next(_ids)}", game.last_seq
    if game.race_id is None:
        game_append_move(
            game_id=game.pk, player=player, token=token, client_move_id=move_id, expected_seq=seq
        )
        return
    race_move(
        race_id=game.race_id,
        game_id=game.pk,
        player=player,
        token=token,
        client_move_id=move_id,
        expected_seq=seq,
    )


def _play(game: Game, player: Player, count: int) -> None:
    for _ in range(count):
        game.refresh_from_db()
        state = game_state(game=game)
        if state.is_over:
            return
        legal = legal_moves(state)
        token = next((m for m in legal if m[-1].isdigit()), legal[0])
        _append(game, player, token)


def _race(host: Player, others: list[Player], moves: int, finish: bool) -> Race:
    race = race_create(host=host, variant="sultan", time_limit_s=900, seat_limit=4)
    for other in others:
        race_join(race=race, player=other)
    race_start(race=race, player=host, countdown_s=0)
    for player in (host, *others):
        game = Game.objects.get(race=race, player=player)
        _play(game, player, moves)
        if finish:
            game.refresh_from_db()
            _append(game, player, "resign")
    race_close_if_over(race_id=race.pk)
    race.refresh_from_db()
    return race


def populate() -> dict[str, int]:
    alice = player_for_user(user=User.objects.create_user(username="alice"))
    bob = player_for_user(user=User.objects.create_user(username="bob"))
    charlie = player_create_guest(nickname="charlie")
    moderator = User.objects.create_user(username="moderator", is_staff=True)
    finished = _race(alice, [bob, charlie], moves=12, finish=True)
    _race(bob, [alice], moves=5, finish=False)
    for seed, player in ((11, alice), (12, bob), (13, charlie)):
        _play(game_create(player=player, variant="pysolfc", seed=seed), player, 20)
    raced = Game.objects.filter(race=finished).order_by("pk")
    game_flag(game=raced[0], moderator=moderator, reason="fast")
    game_void(game=raced[1], moderator=moderator, reason="shared a screen")
    player_ban(player=charlie, moderator=moderator, reason="abuse")
    return {"games": Game.objects.count(), "races": Race.objects.count()}

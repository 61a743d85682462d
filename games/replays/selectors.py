"""Reads for the replay viewer: who may watch a game, and every step of it.

A replay shows the player's view after each event of the log, replayed here
with `games.engine.positions` (the browser never applies the rules itself), and, for
a race game, every racer's race view over race time. It is built only for a
game whose record is open (games.replays.access says "open"): before that the deal,
the seed and the stock's order are never computed into a response.
"""

from __future__ import annotations

from typing import Any

from games.engine.positions import Position, walk_steps
from games.models import Game
from games.races.protocol import own_view
from games.races.selectors import (
    game_origin,
    game_race_frames,
    race_results,
    standings_as_dicts,
)
from games.store.selectors import game_moves
from games.store.timing import elapsed_ms


def game_replay(*, game: Game) -> dict[str, Any]:
    """Everything the viewer needs. Call only when `replay_access` is OPEN."""
    origin = game_origin(game=game)
    take_backs = game.race_id is None
    position = start = Position.start(game.seed, game.variant)
    steps: list[dict[str, Any]] = [
        {"seq": 0, "token": None, "t": 0, "events": [], "view": own_view(position.state, 0)}
    ]
    rows = game_moves(game=game).values_list("token", "seq", "accepted_at")
    log = ((token, (seq, token, accepted_at)) for token, seq, accepted_at in rows)
    for position, events, (seq, token, accepted_at) in walk_steps(
        start, log, take_backs=take_backs
    ):
        steps.append(
            {
                "seq": seq,
                "token": token,
                "t": elapsed_ms(accepted_at, origin),
                "events": events,
                "view": own_view(position.state, seq, position.moves),
            }
        )
    race = game.race
    return {
        "game": {
            "id": game.pk,
            "variant": game.variant,
            "deal": str(game.seed),  # a string: 2**63 does not fit a double
            "player": game.player.nickname,
            "status": game.status,
            "cards_played": game.cards_played,
            "moves": position.moves,
            "started_at": origin.isoformat(),
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
            "duration_ms": elapsed_ms(game.finished_at, origin),
            "voided": game.voided,
            "race": None
            if race is None
            else {
                "code": race.code,
                "url": f"/r/{race.code}/",
                "time_limit_s": race.time_limit_s,
                "open_deal": race.open_deal,
            },
        },
        "steps": steps,
        "racers": _racers(game) if race is not None else [],
        "results": standings_as_dicts(race_results(race=race)) if race is not None else None,
        "record_url": f"/games/{game.pk}/record.txt",
    }


def _racers(game: Game) -> list[dict[str, Any]]:
    """Each racer's race view whenever it changed, on the race's clock (a challenge's
    recorded game on its own clock, started with the race's)."""
    race = game.race
    assert race is not None
    origin = game_origin(game=game)
    others = list(Game.objects.filter(race=race).select_related("player").order_by("pk"))
    if race.ghost_id is not None:
        others.append(Game.objects.select_related("player", "race").get(pk=race.ghost_id))
    racers = []
    for other in others:
        ghost = other.race_id != race.pk
        own_origin = game_origin(game=other) if ghost else origin
        racers.append(
            {
                "player": other.player_id,
                "nickname": other.player.nickname,
                "bot": other.player.is_bot,
                "game": other.pk,
                "you": other.pk == game.pk,
                "ghost": ghost,
                "status": other.status,
                "cards_played": other.cards_played,
                "end_t": elapsed_ms(other.finished_at, own_origin),
                "frames": game_race_frames(game=other, origin=own_origin),
            }
        )
    return racers

"""What Moves counts (docs/rules.md): the moves on the table, the same number on
every page and in every answer. A resignation ends a game; it is no move."""

from __future__ import annotations

from games.api.schemas import game_row
from games.engine import legal_moves
from games.engine.dealcode import deal_code, deal_from_code
from games.models import Game, Race
from games.pages.history import history_rows, player_games
from games.races.moves import RaceMove
from games.races.selectors import race_info, race_results, race_snapshot
from games.replays.selectors import game_replay
from games.store.selectors import game_state
from tests.races.conftest import Lobby
from tests.races.helpers import good_policy
from tests.races.play import race_append


def _play(game: Game, lobby: Lobby, name: str, count: int) -> None:
    for _ in range(count):
        race_append(game, lobby.players[name], good_policy(legal_moves(game_state(game=game))))


def _resign(game: Game, lobby: Lobby, name: str) -> RaceMove:
    return race_append(game, lobby.players[name], "resign")


def test_a_resignation_is_no_move_in_results_replays_history_or_the_api(started: Lobby):
    games = {
        g.player.nickname: g
        for g in Game.objects.filter(race=started.race).select_related("player")
    }
    _play(games["alice"], started, "alice", 4)
    before = race_snapshot(race_id=started.race.pk, player=started.players["alice"])
    view_moves = before["you"]["game"]["view"]["moves"]
    for name in ("alice", "bob", "charlie"):
        _resign(games[name], started, name)

    moves = {row.nickname: row.moves for row in race_results(race=started.race)}
    assert moves == {"alice": 4, "bob": 0, "charlie": 0}
    assert view_moves == 4
    alice = games["alice"]
    alice.refresh_from_db()
    assert alice.last_seq == 5  # the log holds the resignation; Moves does not count it
    assert game_replay(game=alice)["game"]["moves"] == 4
    assert game_row(alice, started.players["alice"]).moves == 4
    alice_player = started.players["alice"]
    [row] = history_rows(games=list(player_games(player=alice_player)), player=alice_player)
    assert row.moves == 4


def test_a_seeded_race_shows_its_deal_code_only_once_it_has_ended(started: Lobby):
    race = started.race
    assert "deal_code" not in race_info(race=race)
    assert "seed" not in race_info(race=race)
    for name in ("alice", "bob"):
        game = Game.objects.get(race=race, player=started.players[name])
        _resign(game, started, name)
    assert "deal_code" not in race_info(race=Race.objects.get(pk=race.pk))
    # The last game over ends the race (games/races/moves.race_move).
    last = _resign(
        Game.objects.get(race=race, player=started.players["charlie"]), started, "charlie"
    )
    assert last.ended
    race = Race.objects.get(pk=race.pk)
    info = race_info(race=race)
    assert info["deal_code"] == deal_code(race.seed)
    assert deal_from_code(info["deal_code"]) == race.seed == int(info["seed"])

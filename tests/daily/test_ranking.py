"""One ranking rule, two spellings: the race's Python key and the database's
order (for boards of thousands) rank the same games the same way."""

from __future__ import annotations

import random

import pytest
from django.utils import timezone

from games.models import Game, Player
from games.races.selectors import Standing, rank_order, standings_ranked

pytestmark = pytest.mark.django_db


def _random_games(player: Player, *, seed: int, count: int, statuses: list[str]) -> None:
    """Games of one deal with ties aplenty: few card counts, few times."""
    rng = random.Random(seed)
    now = timezone.now()
    for _ in range(count):
        status = rng.choice(statuses)
        cards = 95 if status == "won" else rng.choice([0, 3, 3, 40, 94])
        reached = None if cards == 0 else rng.choice([1_000, 1_000, 5_000, 60_000])
        Game.objects.create(
            player=player,
            variant="sultan",
            seed=1,
            status=status,
            cards_played=cards,
            count_reached_ms=reached,
            finished_at=None if status == "playing" else now,
        )


def test_the_database_ranks_games_as_the_races_rule_does(alice: Player):
    _random_games(
        alice, seed=15, count=300, statuses=["won", "lost", "resigned", "timeout", "playing"]
    )
    games = list(Game.objects.all())
    standings = [
        Standing(g.player_id, "alice", g.pk, g.status, g.cards_played, g.count_reached_ms, 0)
        for g in games
    ]
    by_python = [s.game for s in standings_ranked(standings)]
    by_database = list(Game.objects.order_by(*rank_order()).values_list("pk", flat=True))
    assert by_database == by_python
    assert len({(s.status, s.cards_played, s.time_ms) for s in standings}) < len(standings)  # ties


def test_the_days_board_pages_the_top_and_finds_a_viewer_below_it():
    from games.accounts.services import player_create_guest
    from games.daily.rules import daily_today
    from games.daily.selectors import daily_board, daily_leaderboard
    from tests.daily.helpers import attempt, play_some, resign

    players = [player_create_guest(nickname=f"p{n}") for n in range(8)]
    for n, player in enumerate(players):
        game = attempt(player).game
        if n % 3:
            resign(play_some(game, n % 4))
    whole = daily_leaderboard(day=daily_today(), variant="sultan")
    for player in players:
        board = daily_board(day=daily_today(), variant="sultan", top=3, player=player)
        assert [s.game for _, s in board.top] == [s.game for s in whole[:3]]
        assert board.count == len(players)
        assert board.mine is not None
        rank, standing = board.mine
        assert standing.player == player.pk
        assert whole[rank - 1].player == player.pk
    nobody = daily_board(day=daily_today(), variant="sultan-8", top=3, player=players[0])
    assert (nobody.top, nobody.mine, nobody.count) == ([], None, 0)


def test_it_counts_a_place_as_the_full_ranking_numbers_it(alice: Player):
    from games.daily.selectors import _ahead_of

    _random_games(alice, seed=16, count=200, statuses=["won", "lost", "resigned", "playing"])
    ranked = list(Game.objects.order_by(*rank_order()))
    for place, g in enumerate(ranked, start=1):
        mine = Standing(alice.pk, "alice", g.pk, g.status, g.cards_played, g.count_reached_ms, 0)
        assert Game.objects.filter(_ahead_of(mine, game="")).count() + 1 == place, g

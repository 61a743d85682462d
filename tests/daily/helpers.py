"""Daily attempts and challenges driven through the real services, as the race
socket would drive them (tests/daily and tests/challenges share these)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.challenges.models import Challenge, ChallengeAttempt
from games.daily.models import DailyAttempt
from games.daily.services import daily_attempt_start
from games.engine import legal_moves
from games.models import Game, Player, Race
from games.races.moves import race_close_if_over
from games.races.solo import race_start_solo
from games.store.selectors import game_state
from tests.pages.helpers import winning_log
from tests.races.play import race_append


def attempt(player: Player, variant: str = "sultan", now: datetime | None = None) -> DailyAttempt:
    return daily_attempt_start(player=player, variant=variant, now=now).attempt


def deal_won_game(race: Race) -> tuple[str, ...]:
    """Give a race (and its games) the golden data's won deal; returns the winning log."""
    seed, tokens = winning_log(race.variant)
    assert "undo" not in tokens
    Race.objects.filter(pk=race.pk).update(seed=seed)
    Game.objects.filter(race=race).update(seed=seed)
    race.refresh_from_db()
    return tokens


def play(game: Game, tokens: list[str] | tuple[str, ...]) -> Game:
    for token in tokens:
        race_append(game, game.player, token)
    assert game.race_id is not None
    race_close_if_over(race_id=game.race_id)
    game.refresh_from_db()
    return game


def play_some(game: Game, count: int) -> Game:
    """`count` moves, foundation plays first (the leaderboard's cards played)."""
    for _ in range(count):
        game.refresh_from_db()
        legal = legal_moves(game_state(game=game))
        token = next((m for m in legal if m[-1].isdigit()), legal[0])
        play(game, [token])
    game.refresh_from_db()
    return game


def resign(game: Game) -> Game:
    return play(game, ["resign"])


def unseal(race: Race) -> None:
    """The day is over: the moment its deal was sealed until has passed."""
    Race.objects.filter(pk=race.pk).update(secret_until=timezone.now() - timedelta(seconds=1))
    race.refresh_from_db()


def challenge_made_before_the_seal_rule(
    *, recorded: Game, maker: Player, player: Player
) -> tuple[Challenge, ChallengeAttempt]:
    """A challenge on a sealed daily attempt and an attempt at it, as the service made
    them before a sealed deal refused challenges (issue 22): rows that may still be in a
    database, whose deal must stay as sealed as the day's."""
    challenge = Challenge.objects.create(game=recorded, created_by=maker)
    assert recorded.race is not None
    race = race_start_solo(
        host=player,
        variant=recorded.variant,
        seed=recorded.seed,
        time_limit_s=recorded.race.time_limit_s,
        secret_until=recorded.race.secret_until,
        ghost=recorded,
    )
    taken = ChallengeAttempt.objects.create(
        challenge=challenge, player=player, race=race, game=Game.objects.get(race=race)
    )
    return challenge, taken

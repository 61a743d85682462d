"""Reads for challenges: the challenge behind a code, and its ranking (the
recorded game with every attempt, by the race's rule)."""

from __future__ import annotations

from dataclasses import dataclass

from games.challenges.models import Challenge, ChallengeAttempt
from games.models import Game, Player
from games.races.selectors import Standing, game_standing, standings_ranked
from games.store.selectors import race_has_ended


def challenge_by_code(*, code: str) -> Challenge | None:
    challenges = Challenge.objects.select_related("game__player", "game__race", "created_by")
    return challenges.filter(code=code).first()


def challenge_attempt_of(*, challenge: Challenge, player: Player | None) -> ChallengeAttempt | None:
    if player is None:
        return None
    attempts = ChallengeAttempt.objects.select_related("race", "game")
    return attempts.filter(challenge=challenge, player=player).first()


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    rank: int
    standing: Standing
    original: bool
    over: bool  # the attempt's race has ended: its result is final


def challenge_ranking(*, challenge: Challenge) -> list[ChallengeRow]:
    """The recorded game and every ranked attempt at it, each timed from its own start."""
    attempts = list(
        # An attempt on a deal its player had seen is theirs to play, not to rank.
        ChallengeAttempt.objects.filter(challenge=challenge, game__unranked__isnull=True)
        .select_related("game__player", "game__race", "race")
        .order_by("pk")
    )
    games: list[Game] = [challenge.game, *(a.game for a in attempts)]
    over = {a.game_id: race_has_ended(race=a.race) for a in attempts}
    ranked = standings_ranked(game_standing(game=g) for g in games)
    return [
        ChallengeRow(
            rank,
            s,
            original=s.game == challenge.game_id,
            over=over.get(s.game, True),
        )
        for rank, s in enumerate(ranked, start=1)
    ]

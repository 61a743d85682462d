"""Writes for challenges: offering a finished game, and starting an attempt at it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Final

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from games.challenges.models import Challenge, ChallengeAttempt
from games.common.errors import Refused
from games.fairness.rules import deal_sealed, deal_sealed_message
from games.fairness.services import game_judge
from games.models import Game, Player
from games.races.selectors import game_origin
from games.races.services import TIME_LIMITS_S
from games.races.solo import race_start_solo
from games.store.selectors import game_record_visible, race_deal_sealed, race_has_ended

DEFAULT_TIME_LIMIT_S: Final = 15 * 60
TIME_MARGIN: Final = timedelta(minutes=1)


class ChallengeRefused(Refused):
    """`code`: not_found, not_over, sealed, banned."""


@dataclass(frozen=True, slots=True)
class AttemptStart:
    attempt: ChallengeAttempt
    resumed: bool


def challenge_create(*, player: Player, game: Game) -> Challenge:
    """A link to race `game`: its own player's once it is over (and its race has
    ended), or anyone's who may watch its replay. The same link on asking again."""
    owner = game.player_id == player.pk
    if not owner and not game_record_visible(game=game, viewer=player):
        raise ChallengeRefused("not_found", gettext("no such game"))
    if not game.is_over:
        raise ChallengeRefused("not_over", gettext("finish the game first"))
    if game.race is not None and not race_has_ended(race=game.race):
        # Its racers' deal: a challenge race ending first would publish it.
        raise ChallengeRefused(
            "not_over", gettext("the race is still running: challenge after it ends")
        )
    made = Challenge.objects.filter(game=game, created_by=player).first()
    if made is not None:
        return made
    if (game.race is not None and race_deal_sealed(race=game.race)) or deal_sealed(seed=game.seed):
        # A challenge is a way in to the deal: not while anyone plays it for a ranking.
        raise ChallengeRefused("sealed", deal_sealed_message())
    if player.banned_at is not None:
        raise ChallengeRefused("banned", gettext("this player is banned"))
    try:
        with transaction.atomic():
            return Challenge.objects.get_or_create(game=game, created_by=player)[0]
    except IntegrityError:  # the same click twice at once: the constraint kept one
        return Challenge.objects.get(game=game, created_by=player)


def challenge_attempt_start(*, challenge: Challenge, player: Player) -> AttemptStart:
    """The player's race against the recorded game (resumed if taken already)."""
    existing = ChallengeAttempt.objects.filter(challenge=challenge, player=player).first()
    if existing is not None:
        return AttemptStart(existing, resumed=True)
    if player.banned_at is not None:
        raise ChallengeRefused("banned", gettext("this player is banned"))
    recorded = Game.objects.select_related("race").get(pk=challenge.game_id)
    race = recorded.race
    if race is not None and race.secret_until is not None and race_deal_sealed(race=race):
        # Made before sealed deals refused challenges: still no way in while it is sealed.
        raise ChallengeRefused("sealed", deal_sealed_message())
    try:
        with transaction.atomic():
            started = race_start_solo(
                host=player,
                variant=recorded.variant,
                seed=recorded.seed,
                time_limit_s=_time_limit(recorded),
                # A sealed deal (a daily deal before the day is over) stays sealed as long.
                secret_until=race.secret_until if race is not None else None,
                ghost=recorded,
            )
            game = Game.objects.select_related("player").get(race=started)
            # Its deal seen before (the player's own game, another attempt): unranked.
            game_judge(game=game)
            attempt = ChallengeAttempt.objects.create(
                challenge=challenge, player=player, race=started, game=game
            )
    except IntegrityError:
        found = ChallengeAttempt.objects.filter(challenge=challenge, player=player).first()
        if found is None:
            raise
        return AttemptStart(found, resumed=True)
    return AttemptStart(attempt, resumed=False)


def _time_limit(recorded: Game) -> int:
    """The recorded race's limit; for a game without one, long enough to see it to its end."""
    if recorded.race is not None:
        return recorded.race.time_limit_s
    assert recorded.finished_at is not None
    took = recorded.finished_at - game_origin(game=recorded) + TIME_MARGIN
    seconds = max(DEFAULT_TIME_LIMIT_S, int(took.total_seconds()))
    return min(seconds, TIME_LIMITS_S[1])

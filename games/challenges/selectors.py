"""Reads for challenges: the challenge behind a code, its ranking (the
recorded game with every attempt, by the race's rule), and the head-to-head
of challenges between two players (`challenge_records`, the counting rule's
one home: an attempt at the other's recorded game beats it or not)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from games.challenges.models import Challenge, ChallengeAttempt
from games.friends.headtohead import Record, opponents_with_records
from games.models import Game, Player, RaceStatus
from games.races.selectors import Standing, game_standing, standings_ranked, standings_tied
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


def challenge_records(*, me: Player, others: Iterable[int]) -> dict[int, Record]:
    """`me`'s record against each of `others` (player ids) over challenges between
    them: every attempt by one at a recorded game of the other's, once its race is
    over and if it is ranked (as in the challenge's ranking). The attempt finished
    ahead of the recorded game or behind it by the race's ranking rule, over the
    games' kept projections; a tie counts for neither. One query."""
    ids = [pk for pk in others if pk != me.pk]
    rows = (
        ChallengeAttempt.objects.filter(race__status=RaceStatus.FINISHED)
        .filter(game__unranked__isnull=True)
        .filter(
            Q(player=me, challenge__game__player_id__in=ids)
            | Q(player_id__in=ids, challenge__game__player=me)
        )
        .select_related("game", "challenge__game")
    )
    counted: dict[int, Record] = defaultdict(Record)
    for attempt in rows:
        recorded = attempt.challenge.game
        theirs, mine = _kept(recorded), _kept(attempt.game)
        if attempt.player_id != me.pk:
            theirs, mine = mine, theirs
        if standings_tied(mine, theirs):
            outcome = Record(1)
        elif standings_ranked([mine, theirs])[0] is mine:
            outcome = Record(1, ahead=1)
        else:
            outcome = Record(1, behind=1)
        counted[theirs.player] += outcome
    return dict(counted)


def _kept(game: Game) -> Standing:
    """A finished game's standing from its projection (no log replayed): its time is
    `count_reached_ms`, from its own start, as a challenge's ranking times it."""
    return Standing(
        player=game.player_id,
        nickname="",
        game=game.pk,
        status=game.status,
        cards_played=game.cards_played,
        time_ms=game.count_reached_ms,
        moves=0,
    )


@dataclass(frozen=True, slots=True)
class Versus:
    """`me` against one player: the challenges between them and the races both ran."""

    player: int
    nickname: str
    username: str
    challenges: Record
    races: Record


def challenge_versus(*, me: Player, players: QuerySet[Player]) -> list[Versus]:
    """`me`'s records against each account among `players`: three queries however many."""
    opponents = opponents_with_records(me=me, players=players)
    challenges = challenge_records(me=me, others=[o.player for o in opponents])
    return [
        Versus(o.player, o.nickname, o.username, challenges.get(o.player, Record()), o.record)
        for o in opponents
    ]

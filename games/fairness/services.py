"""Writes for fair rankings: a game judged unranked, and two identities linked.

Linking judges again every ranked game of the identities now linked: of the
games one person has played on a deal, only the first may stay ranked. A
ranking a link changes (a daily board, a record, a rating) is recomputed by
whoever called: the daily room keys its caches on the newest judgement
(`games.fairness.rules.unranked_mark`), ratings replay on the accounts' `player_games_changed`.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q

from games.fairness.models import IdentityLink, UnrankedGame, UnrankedReason
from games.fairness.rules import Ranking, player_identities, ranking_for
from games.models import Game, Player


def game_unranked_mark(*, game: Game, ranking: Ranking) -> None:
    """Keep that `game`'s result is not ranked, and why (the first word stays)."""
    if ranking.ranked:
        return
    UnrankedGame.objects.get_or_create(
        game=game, defaults={"reason": ranking.reason, "seen_in_id": ranking.seen_in}
    )


def game_judge(*, game: Game) -> Ranking:
    """Judge a game just dealt where results are ranked: unranked if its deal was seen."""
    ranking = ranking_for(player=game.player, seed=game.seed, before=game)
    game_unranked_mark(game=game, ranking=ranking)
    return ranking


def ranked_games() -> Q:
    """Games whose result some ranking reads: daily and challenge attempts, rated races."""
    return Q(dailyattempt__isnull=False) | Q(challengeattempt__isnull=False) | Q(race__rated=True)


def identity_link(*, earlier: Player, later: Player, kind: str) -> int:
    """Link two players one browser has been; returns how many games this unranked.

    The ranked games of everyone now linked are judged again, each against the
    games dealt before it."""
    if earlier.pk == later.pk:
        return 0
    try:
        with transaction.atomic():
            IdentityLink.objects.create(earlier=earlier, later=later, kind=kind)
    except IntegrityError:
        return 0  # linked already: judged then
    return identities_judge(player=later)


def identities_judge(*, player: Player) -> int:
    ids = player_identities(player_id=player.pk)
    judged = (
        Game.objects.filter(ranked_games(), player_id__in=ids, unranked__isnull=True)
        .select_related("player")
        .order_by("pk")
        .distinct()
    )
    unranked = 0
    for game in judged:
        if not game_judge(game=game).ranked:
            unranked += 1
    return unranked


def games_unranked_carried(*, games: list[Game]) -> int:
    """A guest's ranked games carried into an account that already existed."""
    for game in games:
        game_unranked_mark(game=game, ranking=Ranking(False, UnrankedReason.CARRIED))
    return len(games)

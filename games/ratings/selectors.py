"""Reads for ratings: a variant's leaderboard, a player's ratings and their history."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games.models import Player, Race
from games.ratings.models import ON_BOARD, Rating, RatingChange
from games.ratings.skill import ESTABLISHED_RACES


@dataclass(frozen=True, slots=True)
class BoardRow:
    rank: int
    nickname: str
    username: str
    rating: int
    races: int
    bot: bool = False  # a program's account (games.bots): shown as BOT


def leaderboard(*, variant: str, offset: int = 0, limit: int = 50) -> list[BoardRow]:
    """Established account players of `variant`, best first (ties: the earlier player).

    The page's rows come from the `rating_board` index alone, then their names: an
    offset walks index entries, not joined rows.
    """
    rows = list(
        Rating.objects.filter(ON_BOARD, variant=variant)
        .order_by("-rating", "player_id")
        .values_list("player_id", "rating", "races")[offset : offset + limit]
    )
    names = {
        pk: (nickname, username, bot)
        for pk, nickname, username, bot in Player.objects.filter(
            pk__in=[player for player, _, _ in rows]
        ).values_list("pk", "nickname", "user__username", "is_bot")
    }
    return [
        BoardRow(rank, *names[player][:2], rating, races, bot=names[player][2])
        for rank, (player, rating, races) in enumerate(rows, start=offset + 1)
    ]


def leaderboard_size(*, variant: str) -> int:
    return Rating.objects.filter(ON_BOARD, variant=variant).count()


def player_ratings(*, player: Player) -> dict[str, Rating]:
    return {rating.variant: rating for rating in Rating.objects.filter(player=player)}


def player_rank(*, rating: Rating) -> int | None:
    """The player's place on the leaderboard, None while not listed (ON_BOARD)."""
    if not rating_listed(rating=rating):
        return None
    board = Rating.objects.filter(ON_BOARD, variant=rating.variant)
    ahead = board.filter(rating__gt=rating.rating) | board.filter(
        rating=rating.rating, player_id__lt=rating.player_id
    )
    return ahead.count() + 1


def rating_listed(*, rating: Rating) -> bool:
    """Does the leaderboard list this rating (ON_BOARD, docs/ratings.md)? Not yet:
    the rating is provisional."""
    return rating.races >= ESTABLISHED_RACES and rating.established


def rating_history(*, player: Player, variant: str) -> list[tuple[datetime, int]]:
    """The player's rating after each rated race of `variant`, oldest first."""
    changes = RatingChange.objects.filter(player=player, variant=variant).order_by("at", "race_id")
    return list(changes.values_list("at", "rating"))


def race_rating_deltas(*, race: Race) -> dict[int, int]:
    """What the race did to each rated racer's rating, by game."""
    return dict(RatingChange.objects.filter(race=race).values_list("game_id", "delta"))

"""The store: players, races, games as append-only logs of moves, and moderation.

A game is the replay of its moves through the engine. Its status, cards played,
finish time and last seq are a projection of that log, written only by
`games.store.services` in the transaction that appends to it; `voided` and `flagged`
are a projection of the moderation log, written only by `games.moderation.services`.
`manage.py verify_games` checks both projections against their logs.

The tables live in this package's modules by what they hold (players, races,
games, moderation); the rest of the code imports them from here.
"""

from games.models.base import VARIANT_CHOICES, AppendOnlyError, AppendOnlyModel, AppendOnlyQuerySet
from games.models.games import MAX_CARDS_PLAYED, Game, GameStatus, Move
from games.models.moderation import (
    GAME_SWITCHES,
    MODERATE_PERMISSION,
    ModerationAction,
    ModerationKind,
)
from games.models.players import DELETED_NICKNAME, Player
from games.models.races import (
    RACE_CODE_ALPHABET,
    UNPUBLISHED,
    Race,
    RaceEntry,
    RaceEvent,
    RaceStatus,
    race_code_new,
)

__all__ = [
    "DELETED_NICKNAME",
    "GAME_SWITCHES",
    "MAX_CARDS_PLAYED",
    "MODERATE_PERMISSION",
    "RACE_CODE_ALPHABET",
    "UNPUBLISHED",
    "VARIANT_CHOICES",
    "AppendOnlyError",
    "AppendOnlyModel",
    "AppendOnlyQuerySet",
    "Game",
    "GameStatus",
    "ModerationAction",
    "ModerationKind",
    "Move",
    "Player",
    "Race",
    "RaceEntry",
    "RaceEvent",
    "RaceStatus",
    "race_code_new",
]

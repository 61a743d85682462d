"""The moderators' admin: read-only views of the store plus recorded moderation acts.

Every page needs the `games.moderate` permission; nothing here can add,
change or delete a move.
"""

from games.admin.fairness import IdentityLinkAdmin, UnrankedGameAdmin
from games.admin.games import GameAdmin
from games.admin.listings import ModerationActionAdmin, PlayerAdmin, RaceAdmin
from games.admin.social import ChallengeAdmin, ChallengeAttemptAdmin, DailyAttemptAdmin
from games.admin.tournaments import TournamentAdmin, TournamentRaceAdmin

__all__ = [
    "ChallengeAdmin",
    "ChallengeAttemptAdmin",
    "DailyAttemptAdmin",
    "GameAdmin",
    "IdentityLinkAdmin",
    "ModerationActionAdmin",
    "PlayerAdmin",
    "RaceAdmin",
    "TournamentAdmin",
    "TournamentRaceAdmin",
    "UnrankedGameAdmin",
]

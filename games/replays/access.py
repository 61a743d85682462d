"""Who may watch a game now, and if not, why not: the one check behind the replay
page, its JSON, the record download and the analysis."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from django.http import HttpRequest

from games.accounts.selectors import player_for_request
from games.fairness.rules import deal_sealed
from games.models import MODERATE_PERMISSION, Game, Player
from games.store.selectors import game_deal_open_to_moderators, game_record_visible

OPEN: Final = "open"
RACE_RUNNING: Final = "race_running"  # a race game: the others still play this deal
IN_PLAY: Final = "in_play"  # the viewer's own practice game, not over yet
HIDDEN: Final = "hidden"  # someone else's practice game, or none at all
SEALED: Final = "sealed"  # the viewer's practice game on a deal now played for a ranking


def game_for_replay(*, game_id: int) -> Game | None:
    return Game.objects.select_related("race", "player").filter(pk=game_id).first()


def replay_access(*, game: Game | None, viewer: Player | None, moderator: bool = False) -> str:
    """Whether the viewer may watch the game now, and if not, why not.

    Moderators may also watch other players' finished practice games: once a
    practice game is over its deal hides nothing anyone could still play.
    """
    if game is None:
        return HIDDEN
    if game.race is None and deal_sealed(seed=game.seed):
        # A practice game on a deal now played for a ranking: sealed for everyone.
        return SEALED if viewer is not None and viewer.pk == game.player_id else HIDDEN
    if game_record_visible(game=game, viewer=viewer):
        return OPEN
    if moderator and game_deal_open_to_moderators(game=game):
        return OPEN
    if game.race is not None:
        return RACE_RUNNING
    if viewer is not None and viewer.pk == game.player_id:
        return IN_PLAY
    return HIDDEN


@dataclass(frozen=True, slots=True)
class ReplayGate:
    """A request's answer to "may I watch game N": the game, who asks, and the verdict."""

    game: Game | None
    viewer: Player | None
    moderator: bool
    access: str

    @property
    def open(self) -> bool:
        return self.access == OPEN and self.game is not None


def replay_gate(request: HttpRequest, game_id: int) -> ReplayGate:
    game = game_for_replay(game_id=game_id)
    viewer = player_for_request(request)
    moderator = request.user.has_perm(MODERATE_PERMISSION)
    access = replay_access(game=game, viewer=viewer, moderator=moderator)
    return ReplayGate(game=game, viewer=viewer, moderator=moderator, access=access)

"""Writes for practice: dealing a practice game, or picking up the one left open."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Final

from django.db import transaction
from django.utils.translation import gettext as _

from games.common.errors import Refused
from games.engine import SEED_LIMIT, VARIANTS
from games.engine.solver.winnable import winnable_seed
from games.fairness.rules import deal_sealed, deal_sealed_message
from games.models import Game, Player
from games.practice.selectors import practice_game_unfinished
from games.quotas.quotas import quota_take
from games.quotas.solver import solver_run
from games.store.services import game_create

# Random practice deals are drawn below a million: a six-digit number is easy
# to read out to a friend. Every seed below SEED_LIMIT stays playable by number,
# and race deals (drawn from the whole range) almost never land down here.
RANDOM_DEALS: Final = 1_000_000


class PracticeRefused(Refused):
    """A practice game that may not be dealt; nothing was written."""


@dataclass(frozen=True, slots=True)
class PracticeStart:
    game: Game
    resumed: bool


def practice_random_deal() -> int:
    return 1 + secrets.randbelow(RANDOM_DEALS - 1)


def practice_winnable_deal(*, variant: str, player_id: int | None, address: str) -> int:
    """A random practice deal the solver has won ("winnable deals only", as a race's
    winnable deal is drawn): the winnable quota and a solver slot, as a race's
    (`games.quotas`: `QuotaExceeded`, `SolverBusy`); `PracticeRefused` when none
    was found in the search's budget."""
    if variant not in VARIANTS:
        raise PracticeRefused(
            "bad_message", _("unknown variant %(variant)r") % {"variant": variant}
        )
    quota_take(kind="winnable", player_id=player_id, address=address)
    seed = solver_run("winnable", winnable_seed, variant=variant, below=RANDOM_DEALS)
    if seed is None or deal_sealed(seed=seed):
        raise PracticeRefused("no_winnable", _("no winnable deal was found in time: try again"))
    return seed


def practice_deal_check(*, seed: int) -> None:
    """A sealed deal (a daily deal's, a race's) is dealt to nobody in practice, not even
    as a look at its start (games.fairness.rules.deal_sealed)."""
    if deal_sealed(seed=seed):
        raise PracticeRefused("sealed", deal_sealed_message())


def practice_game_start(*, player: Player, variant: str, seed: int) -> PracticeStart:
    """The player's unfinished practice game on this deal and variant, else a new one."""
    if variant not in VARIANTS:
        raise PracticeRefused(
            "bad_message", _("unknown variant %(variant)r") % {"variant": variant}
        )
    if not 0 <= seed < SEED_LIMIT:
        raise PracticeRefused("bad_message", _("a deal number is 0 to 2**63 - 1"))
    if player.banned_at is not None:
        raise PracticeRefused("banned", _("this player is banned"))
    practice_deal_check(seed=seed)
    with transaction.atomic():
        # The player's row is the lock: two tabs opening one deal get one game.
        Player.objects.select_for_update().filter(pk=player.pk).first()
        open_game = practice_game_unfinished(player=player, variant=variant, seed=seed)
        if open_game is not None:
            return PracticeStart(open_game, resumed=True)
        return PracticeStart(game_create(player=player, variant=variant, seed=seed), False)

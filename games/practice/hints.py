"""Hints in practice games: the next move of a winning line, remembered.

Solving afresh for every hint would cost up to the whole budget each time,
and in `sultan` could even come back `unknown` from a position the last hint
showed won: its search is a lottery over the redeal shuffles
(docs/solvability.md), and a new root draws other tickets. So the line a
solve found is kept, per game: a player who follows it, or takes moves back
along it, gets each next move at once and one consistent line; a move off it
makes the next hint solve again. A line is checked against the position
before it is used, so an entry can never hint a move that does not win.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from django.utils.translation import gettext as _

from games.common.errors import Refused
from games.common.lru import LRU
from games.engine import GameState, apply
from games.engine.solver.solve import solve
from games.i18n.messages import game_over as _game_over
from games.models import Game, Player
from games.races.selectors import deal_raced_now

HINT_S: Final = 2.0
# Nodes as well as time: the solver's tables grow with the nodes searched, and
# a fast machine would reach far more of them within the same seconds.
HINT_NODES: Final = 500_000
# Games whose line is remembered, per process; the least recently hinted go
# first. An entry is one position and its line's tokens: a few kilobytes.
REMEMBERED_GAMES: Final = 1024


class HintRefused(Refused):
    def __init__(self, code: str, message: str, status: int = 403) -> None:
        super().__init__(code, message)
        self.status = status  # the HTTP status that says it


@dataclass(frozen=True, slots=True)
class Hint:
    status: str  # won: `move` starts a winning line; lost: none exists; unknown: out of time
    move: str | None


@dataclass
class LineStats:
    followed: int = 0  # hints read off a remembered line
    solved: int = 0  # hints that needed the solver


class WinningLines:
    """Per game, the latest winning line found and the position it starts from."""

    def __init__(self, size: int = REMEMBERED_GAMES) -> None:
        self._lines: LRU[int, tuple[GameState, tuple[str, ...]]] = LRU(size)
        self.stats = LineStats()

    def next_move(self, game_id: int, state: GameState) -> str | None:
        """The move after `state` on the game's line, when `state` lies on it."""
        found = self._lines.get(game_id)
        if found is None:
            return None
        position, line = found
        # A line holds a few hundred moves at most, and the engine plays
        # tens of thousands a second: walking it costs milliseconds.
        for move in line:
            if position == state:
                return move
            position = apply(position, move)
        return None

    def clear(self) -> None:
        self._lines.clear()

    def remember(self, game_id: int, state: GameState, line: tuple[str, ...]) -> None:
        self._lines.put(game_id, (state, line))


winning_lines = WinningLines()


def practice_hint(*, game: Game, player: Player, state: GameState) -> Hint:
    """The next move of a winning line from the player's practice position."""
    if game.race_id is not None:
        raise HintRefused("forbidden", _("races have no hints"))
    if game.player_id != player.pk:
        raise HintRefused("forbidden", _("this is not your game"))
    if state.is_over:
        raise HintRefused("finished", _game_over(state.status), status=422)
    if deal_raced_now(seed=game.seed, variant=game.variant):
        raise HintRefused(
            "deal_raced", _("this deal is being raced: no hints until that race ends")
        )
    move = winning_lines.next_move(game.pk, state)
    if move is not None:
        winning_lines.stats.followed += 1
        return Hint("won", move)
    winning_lines.stats.solved += 1
    solution = solve(state, max_nodes=HINT_NODES, max_seconds=HINT_S)
    if solution.status == "won":
        winning_lines.remember(game.pk, state, solution.moves)
    return Hint(solution.status, solution.moves[0] if solution.moves else None)

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
from games.engine import SLOT_LETTERS, GameState, apply
from games.engine.solver.solve import solve
from games.engine.variants import VARIANT_RULES
from games.i18n.messages import game_over as _game_over
from games.models import Game
from games.practice.reasons import hint_reason
from games.quotas.quotas import quota_take
from games.quotas.solver import solver_run
from games.races.selectors import deal_raced_now

HINT_S: Final = 2.0
# Nodes as well as time, so that a fast machine does not search far more than
# this one: the compiled core searches 1-8 million positions a second here
# (docs/solvability.md, "Speed"), its tables capped at SULTAN_SOLVER_MEMORY_MB.
HINT_NODES: Final = 6_000_000
# Games whose line is remembered, per process; the least recently hinted go
# first. An entry is one position and its line's tokens: a few kilobytes.
REMEMBERED_GAMES: Final = 1024


class HintRefused(Refused):
    def __init__(self, code: str, message: str, status: int = 403) -> None:
        super().__init__(code, message)
        self.status = status  # the HTTP status that says it


@dataclass(frozen=True, slots=True)
class Hint:
    # won: `move` starts a winning line; lost: none exists; unknown: out of
    # time, and `move` (when there is one) starts the line to the most cards
    # up the solver found, `reach` of them: its best try, no promise.
    status: str
    move: str | None
    # "Show me how": the line's first moves, up to the first that would bring a
    # card into view the player has not seen (see `in_sight`).
    shown: tuple[str, ...] = ()
    reach: int | None = None
    # Why the move, in the player's words (games.practice.reasons): what it leads to.
    reason: str = ""


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
        rest = self.rest(game_id, state)
        return rest[0] if rest else None

    def rest(self, game_id: int, state: GameState) -> tuple[str, ...]:
        """The game's line from `state` on, when `state` lies on it; else nothing."""
        found = self._lines.get(game_id)
        if found is None:
            return ()
        position, line = found
        # A line holds a few hundred moves at most, and the engine plays
        # tens of thousands a second: walking it costs milliseconds.
        for i, move in enumerate(line):
            if position == state:
                return line[i:]
            position = apply(position, move)
        return ()

    def clear(self) -> None:
        self._lines.clear()

    def remember(self, game_id: int, state: GameState, line: tuple[str, ...]) -> None:
        self._lines.put(game_id, (state, line))


winning_lines = WinningLines()


def practice_hint(*, game: Game, player_id: int | None, state: GameState, address: str) -> Hint:
    """The next move of a winning line from the player's practice position.

    A move read off a remembered line is free; a solve counts against the
    player's and the address's hint quota (`player_id` and `address`: the request's
    `accounts.selectors.work_identity`) and needs a solver slot
    (`games.quotas`: `QuotaExceeded`, `SolverBusy`)."""
    if game.race_id is not None:
        raise HintRefused("forbidden", _("races have no hints"))
    if player_id is None or game.player_id != player_id:
        raise HintRefused("forbidden", _("this is not your game"))
    if state.is_over:
        raise HintRefused("finished", _game_over(state.status), status=422)
    if deal_raced_now(seed=game.seed, variant=game.variant):
        raise HintRefused(
            "deal_raced", _("this deal is being raced: no hints until that race ends")
        )
    rest = winning_lines.rest(game.pk, state)
    if rest:
        winning_lines.stats.followed += 1
        return _hint("won", state, rest)
    quota_take(kind="hint", player_id=player_id, address=address)
    solution = solver_run("hint", solve, state, max_nodes=HINT_NODES, max_seconds=HINT_S)
    winning_lines.stats.solved += 1
    if solution.status == "won":
        winning_lines.remember(game.pk, state, solution.moves)
        return _hint("won", state, solution.moves)
    if not solution.furthest:  # lost, or undecided with nothing better than here
        return Hint(solution.status, None)
    end = state
    for move in solution.furthest:
        end = apply(end, move)
    return _hint(solution.status, state, solution.furthest, reach=end.cards_played)


def _hint(status: str, state: GameState, line: tuple[str, ...], reach: int | None = None) -> Hint:
    shown = in_sight(state, line)
    reason = hint_reason(state, line, shown)
    return Hint(status, line[0], shown, reach=reach, reason=reason)


def stock_order_known(state: GameState) -> bool:
    """Does the player know the stock's order? In `pysolfc` variants after a redeal:
    the waste was turned over, no shuffle, and the player saw that waste whole."""
    return not VARIANT_RULES[state.variant].shuffled_redeal and state.passes_used > 1


def in_sight(state: GameState, line: tuple[str, ...]) -> tuple[str, ...]:
    """The start of `line` that shows no card the player has not seen.

    It stops before a draw that turns up an unseen card (any draw, but in a
    `pysolfc` pass after a redeal, whose order the player saw), a shuffling
    redeal (the new order is the stock's) and, in `sultan` variants, a slot's
    card going up while the stock has cards (the refill comes from it).
    Showing more would tell the player what is coming.

    A line that starts with draws shows them, up to the next card that matters (the
    first move that is not a draw) and on from there as above: a draw hinted is advice
    to turn those very cards up, so watching it shows only what taking the advice would.
    """
    shown: list[str] = []
    rules = VARIANT_RULES[state.variant]
    for move in line:
        from_slot = move[0] in SLOT_LETTERS and move[1].isdigit()
        leading = all(token == "draw" for token in shown)  # the line's draws so far, if any
        unseen_draw = move == "draw" and not stock_order_known(state) and not leading
        shuffled = move == "redeal" and rules.shuffled_redeal
        if unseen_draw or shuffled or (from_slot and rules.auto_refill and state.stock):
            break
        state = apply(state, move)
        shown.append(move)
    return tuple(shown)

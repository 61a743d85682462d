"""The solver at work for replays: where a lost game was lost (the search itself,
which a solver process runs, is `games/engine/solver/lines.py`; practice hints are in
`games/practice/hints.py`, winnable deals in `games/engine/solver/winnable.py`).

Each use has a time budget: the solver may answer `unknown`, and every answer
here says so rather than guessing. Hints exist for practice games only; a
race's deal is never solved for anyone while the race runs.
"""

from __future__ import annotations

from games.common.lru import LRU
from games.engine import UNDO, GameState
from games.engine.positions import RESIGN, TIMEOUT, Position
from games.engine.solver.lines import Analysis, line_analysis
from games.models import Game, GameStatus
from games.quotas.quotas import quota_take
from games.quotas.solver import solver_run
from games.store.selectors import game_moves

# Every answer is kept, `unknown` too: each analysis may cost seconds of CPU,
# and a replay anyone may open must not be a way to spend them again.
_cache: LRU[tuple[int, int], Analysis] = LRU(512)


def game_analysis(*, game: Game, player_id: int | None, address: str) -> Analysis:
    """For a finished game, the last position from which a win was still possible.

    A remembered answer is free; working one out counts against the visitor's
    analysis quota and needs a solver slot (`QuotaExceeded`, `SolverBusy`)."""
    key = (game.pk, game.last_seq)
    cached = _cache.get(key)
    if cached is not None:
        return cached
    if game.status == GameStatus.WON:
        analysis = Analysis("won")
    else:
        quota_take(kind="analysis", player_id=player_id, address=address)
        states, seqs = _standing_line(game)
        analysis = solver_run("analysis", line_analysis, states=states, seqs=seqs)
    # Kept whatever it says, `unknown` too: each analysis may cost seconds of
    # CPU, and a replay anyone may open must not be a way to spend them again.
    _cache.put(key, analysis)
    return analysis


def _standing_line(game: Game) -> tuple[list[GameState], list[int]]:
    """The states along the moves that stood, and the log seq each was reached at."""
    position, seqs = Position.start(game.seed, game.variant), [0]
    for seq, token in game_moves(game=game).values_list("seq", "token"):
        if token == UNDO:
            position = position.pop()
            seqs.pop()
            seqs[-1] = seq  # the position below was reached again here
        elif token not in (RESIGN, TIMEOUT):
            position = position.push(token)
            seqs.append(seq)
    return position.line(), seqs

"""The solver: can this deal still be won? A full-knowledge search, its parts, and
the players built on it (greedy play, winnable-deal picking).

`solve` (solve.py) is the door; search.py is the depth-first search with its
tables, model.py the compact position it searches, relax.py and rounds.py the
bounds and budgets it uses, batch.py many deals at once. _core.c is the same
search compiled (a C extension built by setup.py), searching in search.py's
order; compiled.py puts it behind search.py's face, picks the engine
(`SULTAN_SOLVER=python` forces the reference) and offers what only the core
does: counting and gathering the starts of later passes, exact searches.
prove.py proves `pysolfc` deals lost. lines.py is the work on one game's line that a
solver process runs (the house bot's line, where a lost game was lost).

May import: the rest of games.engine and the standard library. Never Django.
"""

from games.engine.solver.solve import DEFAULT_MAX_NODES, UNKNOWN, Solution, Status, solve

__all__ = ["DEFAULT_MAX_NODES", "UNKNOWN", "Solution", "Status", "solve"]

"""The solver: can this deal still be won? A full-knowledge search, its parts, and
the players built on it (greedy play, winnable-deal picking).

`solve` (solve.py) is the door; search.py is the depth-first search with its
tables, model.py the compact position it searches, relax.py and rounds.py the
bounds and budgets it uses, batch.py many deals at once.

May import: the rest of games.engine and the standard library. Never Django.
"""

from games.engine.solver.solve import DEFAULT_MAX_NODES, UNKNOWN, Solution, Status, solve

__all__ = ["DEFAULT_MAX_NODES", "UNKNOWN", "Solution", "Status", "solve"]

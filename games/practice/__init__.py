"""Practice: one player, any deal, with hints from the solver.

services.py deals or resumes a practice game, hints.py answers "what now?" with
the next move of a remembered winning line, reasons.py says why (what it
leads to), api.py is the practice page's JSON.

May import: games.store, games.accounts, games.races (to refuse a deal being
raced), games.fairness (sealed deals), games.quotas (hint quotas, solver slots),
games.metrics, games.engine, games.common, games.models, games.i18n.
"""

"""Replays: who may watch a finished game, every step of it, and where it was lost.

access.py is the one check (page, JSON, record download, analysis),
selectors.py builds the steps, analysis.py asks the solver where a lost game
slipped away, api.py is the replay viewer's JSON.

May import: games.store, games.races (standings for a race game), games.fairness
(sealed deals),
games.accounts, games.quotas (analysis quotas, solver slots), games.engine,
games.common, games.models, games.i18n (the winning line in words).
"""

"""Moderation: acts on games and players as an append-only log, and anti-cheat.

services.py records every act (void, reinstate, flag, ban, ...) and updates
its projection, anticheat.py judges move timing, flags.py turns verdicts on
stored games into flags.

May import: games.ratings (a void or a flag replays ratings), games.daily (a
void or a reinstatement folds the daily records again), games.store,
games.engine, games.common, games.models.
"""

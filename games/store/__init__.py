"""The event store: a game is an append-only log of moves, and everything known
about it is the replay of that log.

services.py appends (the only writers of a log and its projection),
append_sql.py holds the append path's statements, selectors.py reads positions
through the position cache (cache.py), records.py exports and verifies game
records, timing.py summarises move timing, append_only.py is SQLite's half of
the append-only guarantee, attempts.py the abstract race of one that a daily
attempt and a challenge attempt are, tally.py what Moves counts for games read
without a replay (the engine's one definition, in SQL).

May import: games.engine, games.common, games.models, games.i18n (to word the
engine's refusals for people). No other room.
"""

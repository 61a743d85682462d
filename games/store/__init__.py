"""The event store: a game is an append-only log of moves, and everything known
about it is the replay of that log.

append.py is the bare append (lock a game's log, check the move's seq and
client move id, append the given events, update the projection; the server's
timeout), plan.py plans a player's event into the events it becomes (Finish,
undo, automatic moves: the one planner of practice and races), automatic.py
what the plan asks of the log, services.py the writers that compose them
(practice moves, game creation, imported records), append_sql.py the append
path's statements, selectors.py reads positions
through the position cache (cache.py), records.py exports and verifies game
records, timing.py summarises move timing, append_only.py is SQLite's half of
the append-only guarantee, attempts.py the abstract race of one that a daily
attempt and a challenge attempt are, tally.py what Moves counts for games read
without a replay (the engine's one definition, in SQL).

May import: games.engine, games.common, games.models, games.i18n (to word the
engine's refusals for people). No other room: the rooms that write through the
store (races, practice, ...) are above it, and it never calls back up into
them, not through an import nor through a hook handed down
(tests/test_layout.py).
"""

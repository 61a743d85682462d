"""Races: several players on one deal, each in a game of their own, live.

services.py writes (lobby, start, rematches), moves.py a race's moves (the
race checked between the store's lock and the store's append, its version and
announcement in the same transaction), a racer's time out and the race's end,
solo.py a race of one (a daily attempt, a challenge's), selectors.py reads
(racers, standings, snapshots, the history), views.py serves the race pages
over HTTP, matchmaking.py seats "Race now" in public races and lists them,
models.py keeps a finished race's ranking, signals.py tells rooms above that a
race finished. Announcing changes: outbox.py (the race's version, each
change's announcement written with it), publisher.py (sending them once
committed, the sweep, presence). The socket: consumer.py (thin: parse, call,
send), protocol.py (every message's shape, both ways: a frozen type per client
message), fanout.py (a socket's progress coalesced), socket_loop.py (one reader
task per input), socket_line.py (rates, the inbox, the heartbeat), socket_db.py
(its database calls, one per client message, refusals decided there), clock.py
(one race-end timer per race per process), limits.py (frame and connection
rates, every socket's admission), routing.py.

May import: games.store, games.fairness (which rated games rank), games.accounts,
games.bots (a bot's pace on the move path; the house bot's sockets in limits),
games.quotas (the winnable deal's solver slot), games.metrics, games.engine,
games.common, games.models, games.templatetags (the names pages show),
games.i18n (names and the socket's language).
"""

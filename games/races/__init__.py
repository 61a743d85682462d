"""Races: several players on one deal, each in a game of their own, live.

services.py writes (lobby, start, moves within a race, the end, rematches),
selectors.py reads (racers, standings, snapshots), views.py serves the race
pages over HTTP. The socket: consumer.py (thin: parse, call, send),
protocol.py (every message's shape, both ways), socket_loop.py (one reader
task per input), socket_db.py (its database calls), limits.py (frame and
connection rates), broadcast.py (telling a race's sockets), routing.py.

May import: games.store, games.accounts, games.quotas (the winnable deal's solver
slot), games.metrics, games.engine, games.common, games.models.
"""

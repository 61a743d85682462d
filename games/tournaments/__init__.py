"""Arena tournaments: races after races over a fixed span, one standings table.

models.py holds a tournament, its entrants, the races it seated (a table of
its own pointing at each Race: races know nothing of tournaments), each
racer's result in one of them (inserted once, at the race's end) and voids (a
moderator's event; results are never edited); points.py is the scoring rule
(docs/tournaments.md), folded over the results on every read; services.py
creates, schedules, joins, pauses and voids; pairing.py seats the waiting
entrants into races (pairing_tick, run by the process's arena loop in
loop.py); selectors.py reads lists, standings and a player's races;
protocol.py shapes the tournament socket's frames and consumer.py serves
them; views.py serves /tournaments/ and /t/<code>/.

May import: games.races (a tournament's races are ordinary races; the ranking
rule), games.fairness (first-sight rule), games.accounts, games.store,
games.engine, games.common, games.models, games.i18n.
"""

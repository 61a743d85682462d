"""Fair rankings: a ranked result is a player's first sight of its deal (docs/anticheat.md).

rules.py is the one rule, `ranking_for` ("may this player's result on this deal
be ranked?"), asked by every path that starts a ranked attempt (the daily deal,
a challenge, a rated race's start and its countdown seating) and by the
log-in that carries a guest's results into an account; models.py keeps the
games judged unranked, with the earlier game that showed the deal
(`UnrankedGame`), and the identities one browser has been (`IdentityLink`);
services.py writes both (games.accounts remembers, in a session, who it
was before a log-out or an account's deletion, and links them). worth.py is
the other rule, what a result is worth against whom (`opponents_counted`:
placed racers, established accounts, a pair's meetings a day), asked by
ratings and tournament points (docs/anticheat.md, "Farming").

May import: games.store, games.engine (what a racer's own move is), games.common,
games.models, games.i18n, Django.
"""

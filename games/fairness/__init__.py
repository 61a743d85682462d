"""Fair rankings: a ranked result is a player's first sight of its deal (docs/anticheat.md).

rules.py is the one rule, `ranking_for` ("may this player's result on this deal
be ranked?"), asked by every path that starts a ranked attempt (the daily deal,
a challenge, a rated race's start and its countdown seating) and by the
log-in that carries a guest's results into an account; models.py keeps the
games judged unranked, with the earlier game that showed the deal
(`UnrankedGame`), and the identities one browser has been (`IdentityLink`);
services.py writes both (games.accounts remembers, in a session, who it
was before a log-out or an account's deletion, and links them).

May import: games.store, games.common, games.models, games.i18n, Django.
"""

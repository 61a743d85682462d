"""Bots: accounts that are programs, and the house's own, `Sultan bot`.

`rules` says what a bot is allowed (an account becomes one once and for good;
`pace` the minimum gap between a bot's moves, checked on the race socket's
move path). The house bot is an ordinary client of the public race protocol
(docs/protocol.md): `client` speaks it over a websocket with a play-scoped
token, in a thread of its own with its own event loop, never on the server's;
`think` chooses its moves (greedy, or the solver in the solver's processes
under their slots, games/quotas/solver.py); `house` seats it in a race
("add a bot" in a private lobby, or a public lobby that waited too long)
and starts its client at `address` (the configured address, else this
process's own, never a request's: the client carries a token); `views` is the
lobby's "add a bot".

May import: games.races (seating the house bot), games.api (its token for a race),
games.accounts, games.store,
games.quotas, games.engine, games.common, games.models, games.i18n.
"""

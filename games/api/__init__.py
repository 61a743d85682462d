"""The public API under /api/v1/: programs read what a visitor could, and bots race.

`api` builds the django-ninja application (its OpenAPI schema at /api/v1/schema,
its page at /api/); the endpoints live in `players`, `games`, `races` and `play`,
their JSON shapes in `schemas`, NDJSON streams in `streams`. A request is read as
its viewer (`auth`): a personal access token's owner (`Authorization: Bearer`),
else the session's player, else nobody; a token never carries moderators'
powers and is counted against its quota. Tokens themselves (`models`,
`services`, `selectors`) are made and revoked on the account page (`views`).
`sockets` lets a play-scoped token open the race socket in place of a session,
and closes it (4401) when the token is revoked, in any process.

May import: games.races, games.replays, games.ratings, games.daily, games.accounts,
games.bots (marking an account as a bot), games.store, games.quotas, games.engine,
games.common, games.models, games.i18n.
"""

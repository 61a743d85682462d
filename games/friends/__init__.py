"""Friends: follows, blocks, who may invite whom, invitations to races, presence, head-to-head.

models.py holds the rows (follows, blocks, the invitation privacy setting,
invitations); services.py writes them (follow, unfollow, block, the setting,
inviting and answering, each told to the players it concerns after commit
through their site socket's group); selectors.py reads friends, followers,
blocks, pending invitations, the friends' daily results and what each friend
does now (the race they sit in, linked only where the viewer may see it; their
last daily); headtohead.py the record
of two players (the races both ran, who finished ahead; one player's against
many in one query); presence.py
counts a player's open site sockets across tabs and processes (Redis, with a
process-local fallback), expiring by heartbeat; protocol.py shapes the site
socket's messages, notify.py tells a player's group in any process,
consumer.py is the socket (`/ws/site/`), routing.py its address; views.py
serves /friends/, the profile's buttons and a finished race's records for its
racers (/api/races/<code>/head-to-head).

May import: games.races (an invitation seats its invitee through the race
services; head-to-head reads standings), games.accounts, games.quotas,
games.common, games.models, games.i18n, games.daily (friends' results on a day),
games.engine (the variants an invitation offers).
"""

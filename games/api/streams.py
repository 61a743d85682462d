"""NDJSON: a list of games as one JSON object a line, read in chunks as it is sent.

The chunks are read in a worker thread (the database is synchronous) and sent
as they come, so a player's whole history streams without being held in
memory. Keyset paging on (finished_at, id): no offset grows with the history.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Final

from asgiref.sync import sync_to_async
from django.db.models import Q, QuerySet
from django.http import HttpRequest, StreamingHttpResponse

from games.api.schemas import game_row
from games.models import Game, Player

NDJSON: Final = "application/x-ndjson"
CHUNK: Final = 200


def wants_ndjson(request: HttpRequest) -> bool:
    """A stream unless the client asked for a JSON page (Accept: application/json)."""
    accept = request.headers.get("Accept", "")
    return NDJSON in accept or "application/json" not in accept


def _chunk(
    games: QuerySet[Game], after: tuple[object, int] | None, viewer: Player | None
) -> tuple[list[str], tuple[object, int] | None]:
    if after is not None:
        finished_at, pk = after
        games = games.filter(Q(finished_at__lt=finished_at) | Q(finished_at=finished_at, pk__lt=pk))
    rows = list(games[:CHUNK])
    lines = [json.dumps(game_row(game, viewer).model_dump(mode="json")) + "\n" for game in rows]
    last = (rows[-1].finished_at, rows[-1].pk) if len(rows) == CHUNK else None
    return lines, last


async def _lines(games: QuerySet[Game], viewer: Player | None, limit: int) -> AsyncIterator[str]:
    after: tuple[object, int] | None = None
    sent = 0
    while sent < limit:
        lines, after = await sync_to_async(_chunk)(games, after, viewer)
        for line in lines[: limit - sent]:
            yield line
        sent += len(lines)
        if after is None:
            return


def games_stream(
    *, games: QuerySet[Game], viewer: Player | None, limit: int
) -> StreamingHttpResponse:
    response = StreamingHttpResponse(_lines(games, viewer, limit), content_type=NDJSON)
    response["X-Accel-Buffering"] = "no"  # nginx passes each line on as it comes
    return response

"""Exporting a player's games through the public API: the NDJSON stream against JSON pages.

On the embedded defaults (SQLite in a temporary file) or on PostgreSQL with
--database-url, one account with N finished practice games (rows only: a
games list reads no moves), read through Django's whole stack (the test
client: routing, middleware, the token's check and quota, the endpoint):

  - the stream, `GET /api/v1/account/games` (`Accept: application/x-ndjson`):
    every game, chunks of 200 read by keyset on (finished_at, id);
  - the baseline, the same games as JSON pages of 100
    (`Accept: application/json`, `?page=` 1, 2, …), as a client without the
    stream would fetch them: each page an OFFSET further into the history.

    .venv/bin/python bench/api_export.py [--games 20000] [--database-url URL]
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.inprocess import django_in_process


def _account(games: int) -> str:
    from django.contrib.auth.models import User

    from games.accounts.services import player_for_user
    from games.api.services import token_create
    from games.models import Game, GameStatus

    player = player_for_user(user=User.objects.create_user(username="exporter"))
    start = datetime(2026, 1, 1, tzinfo=UTC)
    rows = [
        Game(
            player=player,
            variant="sultan",
            seed=n,
            started_at=start + timedelta(minutes=n),
            finished_at=start + timedelta(minutes=n, seconds=200),
            status=GameStatus.RESIGNED,
            cards_played=n % 96,
            last_seq=n % 300,
        )
        for n in range(games)
    ]
    Game.objects.bulk_create(rows, batch_size=2000)
    return token_create(player=player, name="bench", scope="read").secret


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    # The quota would stop the baseline's hundreds of pages: this measures the reads.
    django_in_process(args.database_url, SULTAN_QUOTA_API="1000000,1000000")
    from django.test import Client

    secret = _account(args.games)
    client = Client()
    auth = {"Authorization": f"Bearer {secret}"}
    warnings.filterwarnings("ignore", "StreamingHttpResponse must consume")

    began = time.perf_counter()
    response = client.get(
        "/api/v1/account/games", headers={**auth, "Accept": "application/x-ndjson"}
    )
    lines = sum(chunk.count(b"\n") for chunk in response)
    stream_s = time.perf_counter() - began
    assert lines == min(args.games, 10_000), lines

    began = time.perf_counter()
    page, paged = 1, 0
    while paged < lines:
        body = client.get(
            f"/api/v1/account/games?per_page=100&page={page}",
            headers={**auth, "Accept": "application/json"},
        ).json()
        paged += len(body["games"])
        page += 1
    paged_s = time.perf_counter() - began

    print(f"games in the history: {args.games}; exported: {lines} (the stream's cap is 10,000)")
    print(f"NDJSON stream:        {stream_s:7.2f} s  {lines / stream_s:8.0f} games/s")
    rate = paged / paged_s
    print(f"JSON pages of 100:    {paged_s:7.2f} s  {rate:8.0f} games/s ({page - 1} requests)")
    print(f"ratio (pages / stream): {paged_s / stream_s:.2f}x")


if __name__ == "__main__":
    main()

"""The leaderboard with 10,000 rated players, and ratings rebuilt from 100,000 races.

On the embedded defaults (SQLite in a temporary file, as configured in settings,
DEBUG on, the in-memory channel layer), or on PostgreSQL with --database-url:

  - `/leaderboard/` rendered through Django's whole stack (test client: URL
    routing, middleware, the template), first page, a middle one and the last,
    with 10,000 established players in one variant; the baseline is the same page
    of a variant with 100 players, in the same database. The target: under 100 ms.
  - `rebuild_ratings --kept-rankings` (games.ratings.services.ratings_rebuild)
    over 100,000 finished rated races of 2 to 8 racers (their rankings kept, as a
    race's end keeps them; the races have no moves to rank them from again); the
    baseline is the same ratings computed in memory by OpenSkill alone, no
    database. Then the two partial replays a live site runs: the newest race (a
    race just finished) and from the middle (a void on a race half the history
    ago).

    .venv/bin/python bench/ratings.py [--players 10000] [--races 100000] [--database-url URL]
                                      [--only leaderboard|rebuild]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.inprocess import django_in_process


def _players(count: int, prefix: str) -> list[int]:
    from django.contrib.auth.models import User

    from games.models import Player

    users = User.objects.bulk_create(
        [User(username=f"{prefix}{i}", password="!") for i in range(count)], batch_size=2000
    )
    players = Player.objects.bulk_create(
        [Player(user=user, nickname=user.username) for user in users], batch_size=2000
    )
    return [p.pk for p in players]


def _timed_gets(client, url: str, rounds: int) -> list[float]:
    client.get(url)  # warm: templates compiled, connection open
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
    return times


def bench_leaderboard(players: int, rounds: int) -> None:
    from django.test import Client
    from django.utils import timezone

    from games.ratings.models import Rating
    from games.ratings.skill import ESTABLISHED_RACES

    rng = random.Random(15)
    now = timezone.now()

    def rate(ids: list[int], variant: str) -> None:
        Rating.objects.bulk_create(
            [
                Rating(
                    player_id=pk,
                    variant=variant,
                    mu=(mu := rng.gauss(1500, 250)),
                    sigma=rng.uniform(80, 300),
                    rating=round(mu),
                    races=rng.randint(ESTABLISHED_RACES, 400),
                    last_race_at=now,
                )
                for pk in ids
            ],
            batch_size=2000,
        )

    start = time.perf_counter()
    rate(_players(players, "p"), "sultan")
    rate(_players(100, "q"), "pysolfc")
    print(f"setup: {players:,} + 100 rated players in {time.perf_counter() - start:.1f} s")
    client = Client()
    last = -(-players // 50)
    base = statistics.median(_timed_gets(client, "/leaderboard/?variant=pysolfc", rounds))
    print(f"baseline (100 players)      : median {base:6.1f} ms")
    for label, url in (
        ("first page", "/leaderboard/"),
        ("middle page", f"/leaderboard/?page={last // 2}"),
        ("last page", f"/leaderboard/?page={last}"),
    ):
        times = sorted(_timed_gets(client, url, rounds))
        median, p95 = statistics.median(times), times[int(len(times) * 0.95) - 1]
        verdict = "under" if p95 < 100 else "OVER"
        print(
            f"{players:,} players, {label:<11}: median {median:6.1f} ms, p95 {p95:6.1f} ms "
            f"({median / base:.2f}x baseline; p95 {verdict} 100 ms)"
        )


def bench_rebuild(races: int, players: int) -> None:
    from django.db import connection

    from games.models import Game, GameStatus, Race, RaceStatus
    from games.races.models import RaceStanding
    from games.ratings.services import ratings_rebuild, ratings_replay
    from games.ratings.skill import START, skills_after_race

    rng = random.Random(100_000)
    ids = _players(players, "r")
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    fields: list[list[int]] = []
    start = time.perf_counter()
    batch = 5000
    for first in range(0, races, batch):
        chunk = range(first, min(races, first + batch))
        moments = [t0 + timedelta(minutes=5 * n) for n in chunk]
        made = Race.objects.bulk_create(
            [
                Race(
                    code=f"b{n:08d}",
                    host_id=ids[0],
                    variant="sultan",
                    seed=n,
                    rated=True,
                    status=RaceStatus.FINISHED,
                    starts_at=at - timedelta(minutes=4),
                    ends_at=at,
                    finished_at=at,
                )
                for n, at in zip(chunk, moments, strict=True)
            ]
        )
        fields_chunk = [rng.sample(ids, rng.choice((2, 2, 3, 3, 4, 5, 8))) for _ in made]
        games = Game.objects.bulk_create(
            [
                Game(
                    player_id=pk,
                    race=race,
                    variant="sultan",
                    seed=race.seed,
                    started_at=race.starts_at,
                    status=GameStatus.RESIGNED,
                    finished_at=race.finished_at,
                )
                for race, field in zip(made, fields_chunk, strict=True)
                for pk in field
            ]
        )
        it = iter(games)
        RaceStanding.objects.bulk_create(
            [
                RaceStanding(race=race, game=next(it), rank=rank, place=rank)
                for race, field in zip(made, fields_chunk, strict=True)
                for rank in range(1, len(field) + 1)
            ]
        )
        fields.extend(fields_chunk)
    results = sum(len(f) for f in fields)
    print(
        f"setup: {races:,} rated races, {results:,} results, {players:,} players "
        f"in {time.perf_counter() - start:.1f} s ({connection.vendor})"
    )

    start = time.perf_counter()
    table: dict[int, tuple[float, float]] = {}
    for field in fields:
        after = skills_after_race(
            [table.get(pk, START) for pk in field], list(range(1, len(field) + 1))
        )
        table.update(zip(field, after, strict=True))
    memory = time.perf_counter() - start
    print(f"baseline: OpenSkill alone, in memory      : {memory:6.1f} s")

    start = time.perf_counter()
    report = ratings_rebuild()
    rebuild = time.perf_counter() - start
    assert report.rated["sultan"] == races, report
    print(
        f"rebuild_ratings --kept-rankings, {races:,} races: {rebuild:6.1f} s "
        f"({races / rebuild:,.0f} races/s; {rebuild / memory:.2f}x baseline)"
    )
    from games.ratings.models import Rating

    sample = Rating.objects.order_by("player_id").first()
    assert sample is not None
    assert abs(sample.mu - table[sample.player_id][0]) < 1e-6, "the rebuild disagrees"

    newest = Race.objects.order_by("-finished_at", "-pk").first()
    middle = Race.objects.order_by("finished_at", "pk")[races // 2]
    for label, since in (
        ("newest race (a race ends)", newest),
        ("from the middle (a void)", middle),
    ):
        start = time.perf_counter()
        count = ratings_replay(variant="sultan", since=since)
        took = time.perf_counter() - start
        print(f"replay from the {label:<26}: {took * 1000:8.1f} ms ({count:,} races)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--races", type=int, default=100_000)
    parser.add_argument("--racers", type=int, default=3_000, help="players in the races")
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--only", choices=("leaderboard", "rebuild"), default=None)
    args = parser.parse_args()
    django_in_process(args.database_url)
    if args.only != "rebuild":
        bench_leaderboard(args.players, args.rounds)
    if args.only != "leaderboard":
        bench_rebuild(args.races, args.racers)


if __name__ == "__main__":
    main()

"""The daily deal's leaderboard page with 10,000 players and a year of results.

On the embedded defaults (SQLite in a temporary file, DEBUG as a fresh
checkout runs), it fills the store with `--players` players who each took
today's and yesterday's deal, and a year (`--days`) before that in which a
`--share` of them played each day; then it renders, through Django's test
client as a signed-in player with a year of streaks:

  - /daily/                   today's board, live: 10,000 attempts;
  - /daily/<yesterday>/       a past day's: the same, with the deal and replay links;
  - /daily/<a day nobody played>/   the same page with an empty board: the baseline;
  - /daily/<yesterday>/ with the cache cleared before each render (the first view);
  - /leaderboard/ with the daily deal's all-time records over the year: cached, on
    the first view after a day ended (one day folded into the day before's
    tallies), and with nothing kept (the year folded: after a void); its
    baseline is a variant with no daily results;

and prints the median, 90th percentile and worst of `--renders` renders of each,
the ratio to the baseline, and the leaderboard's selector alone. The target is
under 100 ms for a board of 10,000.

    .venv/bin/python bench/daily.py [--players 10000] [--days 365] [--share 0.1] [--renders 20]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from datetime import time as clock_time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_MS = 100.0


def _fill(players: int, days: int, share: float, today: date) -> tuple[int, int]:
    """Rows written straight through the cursor: the ORM would take minutes for a year."""
    from django.db import connection, transaction

    from games.daily.models import DailyAttempt
    from games.daily.rules import daily_sealed_until, daily_seed
    from games.models import Game, Player, Race

    rng = random.Random(15)
    adapt = connection.ops.adapt_datetimefield_value
    if connection.vendor == "sqlite":  # filling only: what is measured runs as configured
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous = OFF")
    now = datetime.now(tz=UTC)
    created = adapt(now)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {Player._meta.db_table} (id, nickname, created_at) VALUES (%s, %s, %s)",
            [(p, f"player{p}", created) for p in range(1, players + 1)],
        )
    race_id = 0
    for back in range(days + 2):
        day = today - timedelta(days=back)
        everyone = back < 2  # today and yesterday: the boards measured
        who = (
            range(1, players + 1)
            if everyone
            else rng.sample(range(1, players + 1), int(players * share))
        )
        seed = daily_seed(day=day, variant="sultan")
        sealed = adapt(daily_sealed_until(day=day))
        noon = datetime.combine(day, clock_time(12), tzinfo=UTC)
        races, games, attempts = [], [], []
        for player in who:
            race_id += 1
            live = back == 0 and rng.random() < 0.05  # a few still at it today
            # Those started minutes ago (their time is not up: nothing for the page to close).
            moment = now - timedelta(seconds=rng.randrange(0, 600)) if live else noon
            start = moment + timedelta(seconds=0 if live else rng.randrange(-40_000, 40_000))
            won = not live and rng.random() < 0.3
            cards = 95 if won else rng.randrange(0, 95)
            reached = start + timedelta(seconds=rng.randrange(60, 890)) if cards else None
            status = "playing" if live else "won" if won else rng.choice(["lost", "resigned"])
            finished = None if live else (reached or start) + timedelta(seconds=5)
            code = f"{race_id:08x}"
            races.append(
                (
                    race_id,
                    f"{code[:4]}-{code[4:]}",
                    player,
                    "sultan",
                    seed,
                    False,
                    False,
                    900,
                    2,
                    "running" if live else "finished",
                    created,
                    adapt(start),
                    adapt(start + timedelta(seconds=900)),
                    0,
                    sealed,
                    None if live else adapt(finished),
                )
            )
            games.append(
                (
                    race_id,
                    player,
                    race_id,
                    "sultan",
                    seed,
                    created,
                    adapt(start),
                    status,
                    cards,
                    adapt(finished) if finished else None,
                    rng.randrange(cards, cards * 3 + 1) + 1,
                    int((reached - start).total_seconds() * 1000) if reached else None,
                    False,
                    False,
                )
            )
            attempts.append((race_id, player, day.isoformat(), "sultan", race_id, race_id, created))
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.executemany(
                f"INSERT INTO {Race._meta.db_table} (id, code, host_id, variant, seed, open_deal,"
                " winnable_deal, time_limit_s, seat_limit, status, created_at, starts_at, ends_at,"
                " version, secret_until, finished_at, public, rated, automatic_moves) VALUES"
                " (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,"
                " FALSE, FALSE, FALSE)",
                races,
            )
            cursor.executemany(
                f"INSERT INTO {Game._meta.db_table} (id, player_id, race_id, variant, seed,"
                " created_at, started_at, status, cards_played, finished_at, last_seq,"
                " count_reached_ms, voided, flagged) VALUES"
                " (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                games,
            )
            cursor.executemany(
                f"INSERT INTO {DailyAttempt._meta.db_table} (id, player_id, day, variant, race_id,"
                " game_id, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                attempts,
            )
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.execute("ANALYZE")
    return players, race_id


def _still_playing(today: date) -> None:
    """Today's few live attempts started minutes ago, whenever the store was filled:
    their time is not up, so the page closes none (their logs are not filled in)."""
    from django.db import connection

    from games.models import Race

    now = datetime.now(tz=UTC)
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Race._meta.db_table} SET starts_at = %s, ends_at = %s"
            " WHERE status = 'running'",
            [adapt(now - timedelta(minutes=5)), adapt(now + timedelta(minutes=10))],
        )


def _measure(render: Callable[[], object], renders: int) -> list[float]:
    for _ in range(3):  # warm: templates compiled, the past day's verdict solved once
        render()
    times = []
    for _ in range(renders):
        start = time.perf_counter()
        render()
        times.append((time.perf_counter() - start) * 1000)
    return times


def _line(label: str, times: list[float], baseline: float | None = None) -> str:
    median = statistics.median(times)
    p90 = sorted(times)[int(len(times) * 0.9) - 1]
    ratio = f"  ×{median / baseline:5.1f} the empty board" if baseline else ""
    verdict = "" if baseline is None else ("  ok" if median < TARGET_MS else "  OVER 100 ms")
    figures = f"median {median:7.1f} ms  p90 {p90:7.1f}  worst {max(times):7.1f}"
    return f"{label:<34} {figures}{ratio}{verdict}"


def _leaderboard(
    page: Callable[[str], Callable[[], object]],
    cold: Callable[[str], Callable[[], object]],
    renders: int,
) -> None:
    """/leaderboard/ with the daily deal's records over the year: as most views find
    them (cached), on the first view after a day ends (the day before's tallies
    kept: one day folded in), and with nothing kept (a void: the year folded)."""
    from django.core.cache import cache

    from games.daily.records import _tallies
    from games.daily.rules import daily_last_day_over
    from games.daily.selectors import daily_judged_mark

    baseline = statistics.median(_measure(page("/leaderboard/?variant=pysolfc"), renders))
    print(_line("/leaderboard/ (no daily results)", [baseline] * 2))
    print(
        _line("/leaderboard/ (records cached)", _measure(page("/leaderboard/"), renders), baseline)
    )
    through = daily_last_day_over()

    def rollover() -> float:
        cache.clear()
        _tallies(variant="sultan", through=through - timedelta(days=1), acted=daily_judged_mark())
        start = time.perf_counter()
        page("/leaderboard/")()
        return time.perf_counter() - start

    times: list[float] = [rollover() * 1000 for _ in range(5)]
    print(_line("/leaderboard/ (a day just ended)", times, baseline))
    print(_line("/leaderboard/ (nothing kept)", _measure(cold("/leaderboard/"), 3), baseline))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--share", type=float, default=0.1)
    parser.add_argument("--renders", type=int, default=20)
    parser.add_argument("--store", help="an SQLite file: filled if new, measured as it is if not")
    args = parser.parse_args()

    store = args.store or str(
        Path(tempfile.mkdtemp(prefix="sultan-bench-daily-")) / "bench.sqlite3"
    )
    fill = not Path(store).exists()
    os.environ["SQLITE_PATH"] = store
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sultan_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client

    from games.daily.models import DailyAttempt
    from games.daily.rules import daily_today
    from games.daily.selectors import daily_board, daily_leaderboard
    from games.models import Player

    call_command("migrate", verbosity=0)
    today = daily_today()
    start = time.perf_counter()
    if fill:
        _fill(args.players, args.days, args.share, today)
    filled = f"filled in {time.perf_counter() - start:.1f} s" if fill else "as it was"
    _still_playing(today)
    total = DailyAttempt.objects.count()
    print(
        f"store: {Player.objects.count():,} players, {total:,} daily results"
        f" ({filled}, SQLite {store})"
    )

    user = User.objects.get_or_create(username="viewer")[0]
    Player.objects.filter(pk=1).update(user=user)  # player1: a year of streaks to count
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    yesterday = (today - timedelta(days=1)).isoformat()
    nobody = (today - timedelta(days=args.days + 30)).isoformat()

    def page(url: str) -> Callable[[], object]:
        def get() -> object:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            return response

        return get

    load = ", ".join(f"{v:.1f}" for v in os.getloadavg())
    print(f"load average {load} on {os.cpu_count()} CPUs: times scale with it; compare the ratios")
    baseline = statistics.median(_measure(page(f"/daily/{nobody}/"), args.renders))
    print(_line("/daily/<a day nobody played>/", [baseline] * 2))
    for label, url in (
        ("/daily/ (today, live)", "/daily/"),
        ("/daily/<yesterday>/", f"/daily/{yesterday}/"),
    ):
        print(_line(label, _measure(page(url), args.renders), baseline))
    from django.core.cache import cache

    def cold(url: str) -> Callable[[], object]:
        def get() -> object:
            cache.clear()  # every render ranks (or folds) from the rows, as the first one did
            return page(url)()

        return get

    print(_line("/daily/<yesterday>/, cache cleared", _measure(cold(f"/daily/{yesterday}/"), 5)))
    _leaderboard(page, cold, args.renders)
    viewer = Player.objects.get(pk=1)
    paged = _measure(
        lambda: daily_board(day=today, variant="sultan", top=100, player=viewer), args.renders
    )
    print(_line("daily_board() alone (the page's)", paged))
    whole = _measure(lambda: daily_leaderboard(day=today, variant="sultan"), args.renders)
    print(_line("daily_leaderboard() (all, in Python)", whole))


if __name__ == "__main__":
    main()

"""What speaking Russian costs a page: render times in English (the baseline)
and in Russian, same run, and the JavaScript catalogue every page loads.

Pages go through Django's test client (middleware, views, templates; SQLite in
a temporary file), so the figures are the server's own work, no network.

    .venv/bin/python bench/i18n.py [--repeat 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sultan_site.settings")
os.environ.setdefault("SQLITE_PATH", str(Path(tempfile.mkdtemp()) / "bench-i18n.sqlite3"))
os.environ.pop("DATABASE_URL", None)

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

PAGES = ("/", "/practice/482917/", "/history/", "/accounts/login/")


def per_request_ms(client: Client, path: str, repeat: int) -> float:
    client.get(path)  # warm: templates compiled, catalogues loaded
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(path)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, (path, response.status_code)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    english = Client(headers={"accept-language": "en"}, HTTP_HOST="127.0.0.1")
    russian = Client(headers={"accept-language": "ru"}, HTTP_HOST="127.0.0.1")
    print(f"{'page':24} {'en ms':>8} {'ru ms':>8} {'ru/en':>6}")
    for path in PAGES:
        en = per_request_ms(english, path, args.repeat)
        ru = per_request_ms(russian, path, args.repeat)
        print(f"{path:24} {en:8.2f} {ru:8.2f} {ru / en:6.2f}")
    for language in ("en", "ru"):
        body = english.get(f"/jsi18n/{language}/")
        ms = per_request_ms(english, f"/jsi18n/{language}/", args.repeat)
        again = english.get(
            f"/jsi18n/{language}/", headers={"if-modified-since": body["Last-Modified"]}
        )
        print(
            f"/jsi18n/{language}/: {len(body.content):,} bytes, {ms:.2f} ms to build, "
            f"revalidated: {again.status_code} ({len(again.content)} bytes)"
        )


if __name__ == "__main__":
    main()

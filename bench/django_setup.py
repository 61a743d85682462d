"""What setting Django up costs a process that only needs Django: a solver process, a
management command, a test worker (sultan_site/settings.py, RUNSERVER).

Two arms, run alternately, each a fresh Python that calls django.setup() and exits:
`daphne app` (the settings as they were: Daphne's app installed, which imports Twisted
and installs its reactor) and `now` (Daphne's app only for `manage.py runserver`). The
CPU of each child is read from getrusage once it has been waited for.

    .venv/bin/python bench/django_setup.py --repeat 10
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SET_UP = "import django; django.setup()"
WITH_DAPHNE_APP = """from sultan_site.settings import *  # noqa: F403
INSTALLED_APPS = ["daphne", *INSTALLED_APPS]  # noqa: F405
"""


def cpu_of(settings_module: str, path: str) -> float:
    """CPU seconds of one fresh process that sets Django up with these settings."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-c", SET_UP],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": settings_module, "PYTHONPATH": path},
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="processes an arm, alternating")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "with_daphne_app.py").write_text(WITH_DAPHNE_APP)
        path = os.pathsep.join([tmp, str(ROOT)])
        arms = {"daphne app": "with_daphne_app", "now": "sultan_site.settings"}
        spent: dict[str, list[float]] = {arm: [] for arm in arms}
        for _ in range(options.repeat):
            for arm, module in arms.items():
                spent[arm].append(cpu_of(module, path))
    print(f"{options.repeat} processes an arm, load {os.getloadavg()[0]:.1f}")
    for arm, seconds in spent.items():
        print(f"{arm:10} CPU s a django.setup(): median {statistics.median(seconds):.2f}")
    ratio = statistics.median(spent["now"]) / statistics.median(spent["daphne app"])
    print(f"now/daphne app: x{ratio:.2f}")


if __name__ == "__main__":
    main()

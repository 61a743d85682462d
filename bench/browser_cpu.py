"""What a page that waits costs Chromium: the highlights that stop, against endless ones.

The suite's browser modules are about half of its CPU, and most of that is Chromium's
(docs/performance.md, "The suite's CPU"). A page a test waits on (a lobby until the second
racer comes, a board with a hint on it) kept a core drawing frames while a highlight
pulsed without end: the lobby's live dot, the hint's outline. They now stop within 5 s
(WCAG 2.2.2; tests/pages/test_motion.py). This measures Chromium's CPU over what a browser
test does around such a wait: a fresh context, the practice page, a hint asked and its
board left showing, a race lobby left open, the context closed. Two arms, run alternately
against one live server: `now` (the site as it is) and `endless` (the same pages with
those highlights made endless again by a style added to each page: the site before).

    .venv/bin/python bench/browser_cpu.py
    .venv/bin/python bench/browser_cpu.py --people 3 --wait 6 --repeat 3

`--compare binary` runs the same pages (the site as it is) in the two builds of Debian's
Chromium instead: `chromium` (the full browser, run headless) and `headless-shell` (the
old headless mode, package chromium-headless-shell), which the suite runs
(tests/browser/launch.py).

Each arm runs in a child process that reads, four times a second, the CPU time of every
process descended from it in /proc (Chromium's browser, zygote, renderers, GPU process,
Playwright's driver): a renderer is reaped by no one who accounts for it (getrusage of
children missed them all), so its last reading is what it spent.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sultan_site.settings")

from tests.browser.launch import CHROMIUM, CHROMIUM_ARGS, FULL_CHROMIUM, HEADLESS_SHELL  # noqa: E402
from tests.servers import daphne, database_env  # noqa: E402

# The site before its highlights were made to stop.
ENDLESS = """
.sb-spot.is-hinted, .race-clock[data-state="lobby"]::before {
  animation-iteration-count: infinite !important;
}
"""
# Each comparison's arms, baseline first: arm -> (Chromium's binary, highlights endless).
COMPARISONS = {
    "highlights": {"endless": (CHROMIUM, True), "now": (CHROMIUM, False)},
    "binary": {"chromium": (FULL_CHROMIUM, False), "headless-shell": (HEADLESS_SHELL, False)},
}


class Descendants:
    """The CPU seconds spent by this process's descendants, read from /proc until stopped."""

    def __init__(self) -> None:
        self.ticks: dict[tuple[int, int], int] = {}  # (pid, start time) -> utime + stime
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        parents: dict[int, int] = {}
        times: dict[int, tuple[int, int]] = {}
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                fields = Path(f"/proc/{entry.name}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid = int(entry.name)
            parents[pid] = int(fields[1])
            times[pid] = (int(fields[19]), int(fields[11]) + int(fields[12]))
        me = os.getpid()
        for pid, (start, ticks) in times.items():
            ancestor = parents.get(pid, 0)
            while ancestor not in (0, 1, me):
                ancestor = parents.get(ancestor, 0)
            if ancestor == me:
                self.ticks[(pid, start)] = max(ticks, self.ticks.get((pid, start), 0))

    def _watch(self) -> None:
        while not self._stop.wait(0.25):
            self._read()

    def seconds(self) -> float:
        self._stop.set()
        self._thread.join()
        return sum(self.ticks.values()) / os.sysconf("SC_CLK_TCK")


def scenario(base_url: str, binary: str, endless: bool, people: int, wait_s: float) -> None:
    """One arm, in a child process: `people` people, each in a context of their own."""
    from playwright.sync_api import sync_playwright

    from tests.browser.racing import create_race

    spent = Descendants()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=binary, args=CHROMIUM_ARGS)
        for n in range(people):
            context = browser.new_context(
                # The site's policy refuses an added style; both arms alike go without it.
                base_url=base_url,
                viewport={"width": 1280, "height": 800},
                bypass_csp=True,
            )
            page = context.new_page()
            page.goto("/practice/1/")
            if endless:
                page.add_style_tag(content=ENDLESS)
            page.click("#hint")
            page.wait_for_selector(".sultan-board .is-hinted")
            time.sleep(wait_s)  # a test's next step: a second person, a server's answer
            create_race(page, base_url, nickname=f"bench{n}")
            if endless:
                page.add_style_tag(content=ENDLESS)
            page.locator("#lobby-controls").wait_for()
            time.sleep(wait_s)
            context.close()
        time.sleep(0.5)  # a last reading of the renderers, before the browser ends them
        browser.close()
    print(json.dumps(spent.seconds()))


def run_arm(base_url: str, arm: tuple[str, bool], people: int, wait_s: float) -> float:
    """CPU seconds of one arm's browser: every process its child started, as read last."""
    binary, endless = arm
    child = json.dumps([base_url, binary, endless, people, wait_s])
    done = subprocess.run(
        [sys.executable, __file__, "--child", child], check=True, capture_output=True, text=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--people", type=int, default=3, help="contexts per arm")
    parser.add_argument("--wait", type=float, default=6.0, help="seconds on each waiting page")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each arm, alternating")
    parser.add_argument("--compare", choices=sorted(COMPARISONS), default="highlights")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        base_url, binary, endless, people, wait_s = json.loads(options.child)
        scenario(base_url, binary, endless, people, wait_s)
        return
    arms = COMPARISONS[options.compare]
    with database_env("bench") as env, daphne(env) as server:
        print(
            f"{options.people} people an arm, {options.wait:g} s on each waiting page, "
            f"{options.repeat} runs an arm, load {os.getloadavg()[0]:.1f}"
        )
        spent: dict[str, list[float]] = {name: [] for name in arms}
        for _ in range(options.repeat):
            for name, arm in arms.items():
                spent[name].append(run_arm(server.url, arm, options.people, options.wait))
        for name, seconds in spent.items():
            runs = " ".join(f"{s:.2f}" for s in seconds)
            print(f"{name:14} CPU s a run: median {statistics.median(seconds):.2f}  ({runs})")
        baseline, measured = arms
        ratio = statistics.median(spent[measured]) / statistics.median(spent[baseline])
        print(f"{measured}/{baseline}: x{ratio:.2f}")


if __name__ == "__main__":
    main()

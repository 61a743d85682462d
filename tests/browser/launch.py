"""How the suite launches Chromium: one home for its flags (tests/browser, bench/browser_cpu.py).

Debian's headless shell (package chromium-headless-shell, /usr/bin/chromium-headless-shell)
is Chromium built as the old headless mode: the browser without the desktop browser's UI,
GPU process and the machinery that goes with them, what Playwright itself runs for headless
Chromium. Chromium is half the suite's CPU, and the shell spends about a third less on the
same tests (docs/performance.md, "The headless shell"; bench/browser_cpu.py --compare
binary). The full browser, /usr/bin/chromium, is taken where the shell is not installed;
`CHROMIUM=/path` picks either.
"""

from __future__ import annotations

import os
from pathlib import Path

FULL_CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get("CHROMIUM") or (
    HEADLESS_SHELL if Path(HEADLESS_SHELL).exists() else FULL_CHROMIUM
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

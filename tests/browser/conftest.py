"""Real Chromium (Debian's, via Playwright) against a real Daphne.

`live` is one Daphne process with a database of its own for the whole
session; tests reach it only as a browser would. `shot(page, name)` saves a
screenshot under artifacts/screenshots/ (not committed) for people to look at.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.launch import CHROMIUM, CHROMIUM_ARGS
from tests.browser.racing import WAIT
from tests.servers import LiveServer, daphne, database_env, free_port, solver_busy

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


# Playwright's `expect` waits 5 s by default: under .ci/loaded a note crossing the server
# and a second browser took longer (an invitation's "accepted" toast). Every assertion
# waits on its condition up to the time a broadcast gets anywhere in these tests.
expect.set_options(timeout=WAIT)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def live() -> Iterator[LiveServer]:
    with database_env("browser") as env:
        env = {
            **env,
            "SULTAN_RACE_COUNTDOWN_S": "2",
            "SULTAN_RACE_PUBLIC_COUNTDOWN_S": "4",
            # Its figures, for the check between tests below.
            "SULTAN_METRICS_PORT": str(free_port()),
        }
        with daphne(env) as server:
            yield server


# Work a test started may outlive it by the solver's longest budget (a winnable deal's
# search: 12 s; a hint 2 s), with room for a loaded machine; no longer.
SETTLE_S = 30


@pytest.fixture(autouse=True)
def _live_server_left_settled(request: pytest.FixtureRequest) -> Iterator[None]:
    """The session's live server is shared: a test hands it on as it found it.

    A hint asked at the end of one test kept the server's one solver slot busy into
    the next, whose own hint was refused `busy` (a failure seen only in the full
    run). After each test the solver must fall idle within its budget; a test whose
    work is still running past that has left the server dirty, and fails."""
    yield
    if "live" not in request.fixturenames:
        return
    server: LiveServer = request.getfixturevalue("live")
    if "SULTAN_METRICS_PORT" not in server.env:
        return  # a module's own server, gone with its module
    busy = solver_busy(server)
    deadline = time.monotonic() + SETTLE_S
    while busy and time.monotonic() < deadline:
        time.sleep(0.1)
        busy = solver_busy(server)
    assert not busy, f"the live server's solver is still busy {SETTLE_S} s after the test"


# Module scope: Playwright's sync API marks an event loop as running in this
# thread for as long as it is open, and asyncio tests after it would fail.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium-headless-shell")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


# Every page of every browser test runs under the site's Content-Security-Policy
# (sultan_site/headers.py): a violation anywhere fails the test that caused it.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
    + ` at ${e.sourceFile || location.pathname}:${e.lineNumber}`);
});
"""


def _csp_message(text: str) -> bool:
    return text.startswith("CSP violation") or "Content Security Policy" in text


@pytest.fixture
def new_page(browser: Any, live: LiveServer) -> Iterator[Callable[..., Any]]:
    """Pages in fresh contexts (separate cookies: separate people).

    `page.csp_violations` lists what the policy refused on that page; any at
    all fails the test at teardown."""
    contexts = []
    pages: list[Any] = []

    def make(width: int = 1280, height: int = 800, **options: Any) -> Any:
        context = browser.new_context(
            base_url=live.url, viewport={"width": width, "height": height}, **options
        )
        contexts.append(context)
        context.add_init_script(REPORT_VIOLATIONS)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors
        page.csp_violations = []

        def on_console(message: Any, page: Any = page) -> None:
            if message.type == "error" and _csp_message(message.text):
                page.csp_violations.append(message.text)

        page.on("console", on_console)
        pages.append(page)
        return page

    yield make
    for context in contexts:
        context.close()
    violations = [text for page in pages for text in page.csp_violations]
    assert not violations, f"the Content-Security-Policy refused: {violations}"


@pytest.fixture
def shot() -> Callable[[Any, str], Path]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take

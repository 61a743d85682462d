"""Every page works under the strict Content-Security-Policy: its ES modules run, its
styles apply, and the browser reports no violation (`new_page` fails a test on any)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from tests.browser.plans import finished_race, play_and_resign
from tests.browser.racing import create_race

PHONE = (390, 844)


def _policy(page: Any) -> str:
    response = page.request.get("/")
    return str(response.headers["content-security-policy"])


def _clean(page: Any) -> None:
    page.wait_for_load_state("networkidle")
    assert page.csp_violations == []
    assert page.js_errors == []


def test_the_policy_is_strict(new_page):
    policy = _policy(new_page())
    assert "script-src 'self';" in policy
    assert "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy


def test_a_style_attribute_would_be_reported(new_page):
    # The listener works: an inline style set from markup is refused and reported.
    page = new_page()
    page.goto("/")
    page.evaluate("""document.body.insertAdjacentHTML('beforeend', '<p style="color:red">x</p>')""")
    page.wait_for_timeout(200)
    assert page.csp_violations, "no violation reported for an inline style"
    page.csp_violations.clear()  # this one was on purpose: not a failure at teardown


def test_every_page_runs_its_modules_under_the_policy(new_page, live, shot):
    page = new_page()
    page.goto("/")
    assert page.locator("h1").first.is_visible()
    _clean(page)
    for path in ("/accounts/login/", "/accounts/signup/", "/history/", "/practice/not-a-number/"):
        page.goto(path)
        _clean(page)
    # Practice: the board is drawn by the ES modules (cards from the SVG sprite).
    game_id = play_and_resign(page, 4242, ["draw"])
    _clean(page)
    page.goto(f"/games/{game_id}/replay/")
    page.wait_for_selector(".move-list .mv", timeout=10_000)
    assert page.locator(".sc-card").count() > 0
    _clean(page)
    # A finished race's replay: the chart, the legend's colours, the mini grids.
    race = finished_race(live.url, live.ws_url)
    page.goto(f"/games/{race['games']['Amina']}/replay/")
    page.wait_for_selector(".swatch", timeout=10_000)
    colour = page.eval_on_selector(".swatch", "e => getComputedStyle(e).getPropertyValue('--c')")
    assert colour.strip(), "the legend's colour was not applied"
    _clean(page)
    shot(page, "csp-replay-race")
    # A race page, live on its socket.
    host = new_page(*PHONE)
    code = create_race(host, live.url, nickname="Amina")
    host.wait_for_selector("#lobby-hint", timeout=10_000)
    _clean(host)
    shot(host, "csp-race-phone")
    assert code


def _superuser(live: Any, username: str, password: str) -> None:
    code = (
        "import django; django.setup();"
        "from django.contrib.auth.models import User;"
        f"User.objects.create_superuser({username!r}, '', {password!r})"
    )
    subprocess.run([sys.executable, "-c", code], env=live.env, check=True, timeout=120)


def test_the_admin_pages_work_under_the_policy(new_page, live, shot):
    _superuser(live, "csp-admin", "a-long-admin-passphrase-7")
    page = new_page()
    page.goto("/admin/login/?next=/admin/")
    _clean(page)
    page.fill("#id_username", "csp-admin")
    page.fill("#id_password", "a-long-admin-passphrase-7")
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/")
    _clean(page)
    for path in (
        "/admin/games/game/",
        "/admin/games/player/",
        "/admin/games/race/",
        "/admin/games/moderationaction/",
        "/admin/auth/user/",
        "/admin/axes/accessattempt/",
    ):
        assert page.goto(path).status == 200, path
        _clean(page)
    # A change page, with its widgets and scripts.
    page.goto("/admin/auth/user/")
    page.click("#result_list tbody a")
    page.wait_for_selector("#content-main form")
    _clean(page)
    shot(page, "csp-admin-user")

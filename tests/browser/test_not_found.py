"""The site's own "not found" for every unknown thing, under DEBUG too.

The live server runs with DEBUG on (as `make run` does), where Django answers a
404 with its yellow debug page, whose inline style the Content-Security-Policy
refuses. Every URL pattern with an argument is asked with a bad one.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver
from playwright.sync_api import expect

DEBUG_PAGE = "DEBUG = True"
SITE_NOTICE = 'class="panel notice"'
# Bad arguments by converter; a day gets a day to come and a day that is no date too.
BAD = {"int": ["987654321"], "string": ["xxxx-yyyy"]}
BAD_BY_NAME = {"daily_day": ["2030-01-01", "2026-13-40", "xxxx-yyyy"], "jsi18n": ["xx"]}


def _patterns(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, str, dict[str, Any]]]:
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if not route.startswith("admin/"):  # Django's own, behind a staff log-in
                yield from _patterns(entry, route)
        elif isinstance(entry, URLPattern) and entry.pattern.converters:
            yield entry.name or route, route, entry.pattern.converters


def bad_addresses() -> list[tuple[str, str]]:
    found = []
    for name, route, converters in _patterns(get_resolver()):
        for value in BAD_BY_NAME.get(name) or [""]:
            path = route
            for argument, converter in converters.items():
                kind = type(converter).__name__.removesuffix("Converter").lower()
                bad = value or BAD[kind][0]
                path = re.sub(rf"<(\w+:)?{argument}>", bad, path)
            found.append((name, "/" + path))
    return found


def test_every_url_pattern_with_a_bad_argument_answers_the_sites_own_page(live, new_page):
    page = new_page()
    token = secrets.token_hex(16)
    page.context.add_cookies([{"name": "csrftoken", "value": token, "url": live.url}])
    addresses = bad_addresses()
    assert len(addresses) >= 15
    assert ("daily_day", "/daily/2026-13-40/") in addresses
    for name, path in addresses:
        answer = page.request.get(path, max_redirects=0)
        if answer.status == 405:  # a form's target: posted as the form would be
            answer = page.request.post(
                path,
                form={"csrfmiddlewaretoken": token},
                headers={"Referer": live.url},
                max_redirects=0,
            )
        body = answer.text()
        assert DEBUG_PAGE not in body, (name, path)
        if path.startswith("/api/"):
            assert answer.headers["content-type"] == "application/json", (name, path)
            # The public API asks a program for its token first (docs/api.md): 401.
            assert answer.status in (400, 401, 403, 404), (name, path, answer.status)
        elif answer.status == 302 and answer.headers["location"].startswith("/accounts/login/"):
            continue  # an account's own page: a visitor is asked to log in first
        else:
            assert answer.status == 404, (name, path, answer.status)
            assert SITE_NOTICE in body, (name, path)


def test_a_browser_sees_the_sites_page_for_unknown_things(new_page, shot):
    page = new_page()
    for path in ["/c/xxxx-yyyy/", "/daily/2030-01-01/", "/daily/2026-13-40/", "/no/such/page/"]:
        answer = page.goto(path)
        assert answer is not None
        assert answer.status == 404
        expect(page.locator("#notice-title")).to_be_visible()
        expect(page.locator(".notice-actions").get_by_role("link", name="Home")).to_be_visible()
    shot(page, "not-found-desktop")
    assert page.js_errors == []

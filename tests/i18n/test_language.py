"""Which language a visitor gets: the switch's cookie, else the browser's, else English."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db


def _html_lang(body: bytes) -> str:
    match = re.search(rb'<html lang="([^"]+)"', body)
    assert match, "no <html lang>"
    return match.group(1).decode()


def test_a_browser_asking_for_russian_gets_the_site_in_russian() -> None:
    response = Client(headers={"accept-language": "ru-RU,ru;q=0.9,en;q=0.5"}).get("/")
    assert response.status_code == 200
    assert _html_lang(response.content) == "ru"
    assert response["Content-Language"] == "ru"
    assert "Главная" in response.content.decode()


def test_a_browser_asking_for_neither_language_gets_english() -> None:
    response = Client(headers={"accept-language": "de-DE,fr;q=0.8"}).get("/")
    assert _html_lang(response.content) == "en"
    assert ">Home</a>" in response.content.decode()


def test_the_switch_remembers_the_choice_in_a_cookie_over_the_browsers_language() -> None:
    client = Client(headers={"accept-language": "ru"})
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/history/"})
    assert response.status_code == 302
    assert response["Location"] == "/history/"
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "en"
    assert cookie["max-age"] == settings.LANGUAGE_COOKIE_AGE
    assert _html_lang(client.get("/").content) == "en"
    client.post("/i18n/setlang/", {"language": "ru", "next": "/"})
    assert _html_lang(client.get("/").content) == "ru"


def test_the_switch_ignores_a_language_the_site_does_not_speak() -> None:
    client = Client()
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert _html_lang(client.get("/").content) == "en"


def test_the_switch_never_sends_a_visitor_off_the_site() -> None:
    response = Client().post("/i18n/setlang/", {"language": "ru", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_every_page_offers_the_switch_back_to_where_the_visitor_is() -> None:
    body = Client().get("/history/?page=2").content.decode()
    assert 'action="/i18n/setlang/"' in body
    assert 'name="next" value="/history/?page=2"' in body
    assert 'value="ru" lang="ru" title="Русский" aria-pressed="false"' in body


def test_the_page_loads_its_languages_catalogue_before_its_modules() -> None:
    body = Client(headers={"accept-language": "ru"}).get("/").content.decode()
    catalogue = body.index('<script src="/jsi18n/ru/" defer>')
    assert catalogue < body.index('<script type="module"')


def test_the_javascript_catalogue_is_the_one_its_url_names() -> None:
    client = Client(headers={"accept-language": "en"})
    russian = client.get("/jsi18n/ru/")
    assert russian.status_code == 200
    assert russian["Content-Type"].startswith("text/javascript")
    body = russian.content.decode()
    assert "django.ngettext" in body
    # Russian has three plural forms for whole numbers (and a fourth for fractions).
    assert "n%10==1 && n%100!=11" in body
    english = client.get("/jsi18n/en/").content.decode()
    assert "n%10==1" not in english


def test_the_javascript_catalogue_is_revalidated_not_refetched() -> None:
    client = Client()
    first = client.get("/jsi18n/ru/")
    assert "no-cache" in first["Cache-Control"]
    again = client.get("/jsi18n/ru/", headers={"if-modified-since": first["Last-Modified"]})
    assert again.status_code == 304


def test_the_javascript_catalogue_of_an_unknown_language_is_404() -> None:
    assert Client().get("/jsi18n/de/").status_code == 404


@pytest.mark.django_db
def test_a_page_that_answered_a_form_switches_back_to_the_forms_page() -> None:
    client = Client()
    # A refused race (no nickname) is the home page, answered to POST /races/new.
    body = client.post(
        "/races/new",
        {"variant": "sultan", "time_limit": 15, "seats": 4},
        headers={"referer": "http://testserver/#start-race"},
    ).content.decode()
    assert 'name="next" value="/#start-race"' in body
    elsewhere = client.post(
        "/races/new",
        {"variant": "sultan", "time_limit": 15, "seats": 4},
        headers={"referer": "https://evil.example/"},
    ).content.decode()
    assert 'name="next" value="/"' in elsewhere

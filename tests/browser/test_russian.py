"""The site in Russian, in Chromium: a practice game, a race, and every page
with no English left in what a reader sees, at desktop and phone sizes.

A browser asking for Russian (Accept-Language, as Chromium sends it for a
Russian locale) gets Russian without touching the switch.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.plans import finished_race, foundation_plan, play_and_resign
from tests.browser.racing import DEAL, WAIT, at_rest, create_race

PHONE = (390, 844)
# Words that are the same in every language here: names of things, keys, codes.
ALLOWED = {
    "PySolFC",
    "JavaScript",
    "Ctrl",
    "Esc",
    "Home",
    "End",
    "EN",
    "RU",  # the language switch names each language by its code
    "draw",
    "redeal",
    "resign",  # the notation of moves (RULES.md), shown beside the replay's steps
}
# Text that comes from people, not from the site: nicknames, codes, what they typed.
RACE_NAMES = ("Amina", "Bilal")  # the scripted race's racers (tests/browser/plans.py)
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z’']+")


def _russian(new_page: Callable[..., Any], width: int = 1280, height: int = 800) -> Any:
    return new_page(
        width, height, locale="ru-RU", extra_http_headers={"Accept-Language": "ru-RU,ru"}
    )


def _english_left(page: Any, *also_allowed: str) -> list[str]:
    text = page.evaluate("document.title + '\\n' + document.body.innerText")
    for word in also_allowed:
        text = text.replace(word, "")
    return sorted({w for w in LATIN_WORD.findall(text) if w not in ALLOWED})


def test_a_practice_game_in_russian(new_page, shot):
    plan = foundation_plan(plays=2)
    page = _russian(new_page)
    page.goto(f"/practice/{plan.seed}/")
    page.wait_for_selector(".sultan-board .sb-table")
    assert page.get_attribute("html", "lang") == "ru"
    expect(page.locator(".mainnav")).to_contain_text("Тренировка")
    expect(page.locator(".sb-stock .sb-caption")).to_have_text("осталось 2 пересдачи")
    expect(page.locator(".sb-footer")).to_contain_text("Проход 1 из 3")
    # A card with nowhere to go says so, naming it as a player would.
    first = plan.foundation_plays()[0]
    for n, token in enumerate(plan.tokens[: first + 1], start=1):
        page.keyboard.press("Space" if token == "draw" else token[0])
        if token != "draw":
            page.keyboard.press(token[1])
        page.wait_for_function(
            "n => document.getElementById('stat-moves').textContent === String(n)", arg=n
        )
    expect(page.locator("#stat-cards")).to_have_text("1")
    page.keyboard.press("5")  # the Sultan's foundation takes nothing
    expect(page.locator(".sb-toast")).to_have_text(
        re.compile("^(На стопку 5 сейчас положить нечего|Султан не принимает карт)$")
    )
    # Plural forms: one card home is «1 карта», in the resign dialog.
    page.click("#resign")
    expect(page.locator("#resign-text")).to_contain_text("собрана 1 карта.")
    shot(page, "ru-practice-resign")
    page.click("#resign-dialog button[value=resign]")
    expect(page.locator("#result-title")).to_have_text("Вы сдались")
    expect(page.locator("#result-text")).to_contain_text("собрано 1 из 95 карт")
    shot(page, "ru-practice-result")
    assert _english_left(page) == []
    assert page.js_errors == []


def test_an_undecided_hint_in_russian(new_page, shot):
    page = _russian(new_page)
    page.goto("/practice/34/")  # sultan 34: undecided within a hint's budget
    page.wait_for_selector(".sultan-board .sb-table")
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        page.click("#hint")
    reach = answer.value.json()["reach"]
    expect(page.locator(".sb-toast")).to_contain_text("Лучшая попытка решателя")
    expect(page.locator(".sb-toast")).to_contain_text(f"сыграно карт: {reach} из 95")
    shot(page, "ru-practice-hint-best-try")
    assert _english_left(page) == []
    assert page.js_errors == []


def test_a_race_in_russian(new_page, live, shot):
    alice = _russian(new_page)
    bob = _russian(new_page)
    code = create_race(alice, live.url, nickname="Алия", seats=2)
    expect(alice.locator("#race-clock-label")).to_have_text("Лобби открыто")
    expect(alice.locator("#lobby-actions-title")).to_have_text("Вы организатор")
    expect(alice.locator("#lobby-hint")).to_have_text(
        "Нужен ещё хотя бы один участник: отправьте ему ссылку ниже."
    )
    expect(alice.locator(".lobby-open")).to_contain_text("1 свободное место")
    bob.goto(f"/r/{code}/")
    bob.get_by_label("Ваше имя").fill("Борис")
    bob.get_by_role("button", name="Участвовать").click()
    expect(bob.locator("#lobby-controls")).to_be_visible(timeout=WAIT)
    bob.get_by_role("button", name="Я готов").click()
    row = alice.locator(".lobby-racer", has=alice.locator(".lobby-name", has_text="Борис"))
    expect(row.locator(".lobby-mark")).to_have_text("Готов", timeout=WAIT)
    shot(alice, "ru-race-lobby")
    assert _english_left(alice, code) == []
    alice.get_by_role("button", name="Начать гонку").click()
    expect(alice.locator("#race-clock-label")).to_have_text("Осталось", timeout=WAIT)
    expect(alice.locator("#others-title")).to_have_text("Ваш соперник")
    assert re.match(rf"^осталось \d+:\d\d · Гонка {code} · Султан$", alice.title())
    # A refusal from the server is worded in Russian too: no take-backs in a race.
    alice.keyboard.press("u")
    expect(alice.locator("#race-board .sb-toast")).to_have_text("В гонке ходы не отменяются.")
    shot(alice, "ru-race-running")
    for page in (alice, bob):
        page.click("#race-resign")
        page.click("#resign-confirm")
    expect(alice.locator("#results-title")).to_be_visible(timeout=WAIT)
    expect(alice.locator("#race-clock-label")).to_have_text("Гонка окончена")
    expect(alice.locator("#results-table tbody tr").first).to_contain_text("Сдался")
    expect(alice.locator(".rank-badge").first).to_have_attribute("aria-label", "1-е")
    expect(alice.locator("#race-deal-label")).to_have_text(f"Открытый расклад №{DEAL}")
    shot(alice, "ru-race-results")
    assert _english_left(alice, code) == []
    assert alice.js_errors == bob.js_errors == []


@pytest.fixture(scope="module")
def pages(live: Any) -> dict[str, str]:
    """A URL for every page, with games behind them to show."""
    race = finished_race(live.url, live.ws_url)
    return {
        "home": "/",
        "practice": f"/practice/{foundation_plan().seed}/",
        "history": "/history/",
        "login": "/accounts/login/",
        "signup": "/accounts/signup/",
        "race-code": race["code"],
        "race-results": f"/r/{race['code']}/",
        "race-replay": f"/games/{race['games']['Amina']}/replay/#move=3",
        "notice": "/practice/not-a-number/",
        "join-refused": "/join?code=zzzz-zzzz",
    }


PAGES = [
    "home",
    "practice",
    "practice-replay",
    "history",
    "login",
    "signup",
    "race-lobby",
    "race-results",
    "race-replay",
    "notice",
    "join-refused",
]
# What a page shows once its scripts have drawn it.
READY = {
    "practice": ".sultan-board .sb-table",
    "practice-replay": ".move-list .mv",
    "race-replay": ".move-list .mv",
    "race-lobby": ".lobby-racer",
    "race-results": "#results-table tbody tr",
}


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("name", PAGES)
def test_no_english_is_left_on_the_russian_page(new_page, live, pages, shot, name, size):
    page = _russian(new_page, *(PHONE if size == "phone" else (1280, 800)))
    also: list[str] = []
    if name == "practice-replay":
        game_id = play_and_resign(page, 8080, ["draw", "draw", "draw"])
        url = f"/games/{game_id}/replay/#move=2"
    elif name == "race-lobby":
        code = create_race(page, live.url, nickname="Алия")
        url, also = f"/r/{code}/", [code]
    elif name == "history":
        play_and_resign(page, 9090, ["draw", "draw"])
        url = pages[name]
    else:
        url = pages[name]
        if name.startswith("race-"):
            also = [pages["race-code"], *RACE_NAMES]
        elif name == "notice":
            also = ["not-a-number"]
        elif name == "join-refused":
            also = ["zzzz-zzzz"]
    page.goto(url)
    if name in READY:
        page.wait_for_selector(READY[name])
    at_rest(page)  # deals and fades are over for the screenshot
    assert page.get_attribute("html", "lang") == "ru"
    if name.startswith("race-results"):
        # A secret deal's code (3HCF6-RS13-JHAD) is an identifier, like the race's code.
        also.extend(page.locator("#results-deal .results-seed").all_inner_texts())
    assert _english_left(page, *also) == []
    shot(page, f"ru-{name}-{size}")
    # The same page in English, for the eye: the switch in the header changes it.
    page.locator(".langswitch button[value=en]").click()
    page.wait_for_load_state()
    if name in READY:
        page.wait_for_selector(READY[name])
    at_rest(page)
    assert page.get_attribute("html", "lang") == "en"
    shot(page, f"en-{name}-{size}")
    assert page.js_errors == []


def test_the_daily_deal_in_russian(new_page, live, shot):
    page = _russian(new_page)
    page.goto("/daily/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Сегодняшний расклад")
    shot(page, "ru-daily-before")
    assert _english_left(page, "UTC", *_board_names(page)) == []
    page.fill("#daily-nickname", "Amina")
    page.click("form.daily-play button[type=submit]")
    expect(page).to_have_url(re.compile(r"/r/[^/]+/$"), timeout=WAIT)
    expect(page.locator(".race-origin")).to_contain_text("Расклад дня")
    page.click("#race-resign", timeout=WAIT)  # once the countdown is over
    page.click("#resign-confirm")
    challenge = page.locator("#results-challenge button")
    expect(challenge).to_be_visible(timeout=WAIT)  # the results are in: the attempt is over
    expect(challenge).to_have_text("Вызвать друга")
    page.goto("/daily/")
    expect(page.locator(".daily-board, table").first).to_contain_text("Amina", timeout=WAIT)
    assert _english_left(page, "UTC", *_board_names(page)) == []
    shot(page, "ru-daily-played")
    phone = _russian(new_page, *PHONE)
    phone.goto("/daily/")
    assert _english_left(phone, "UTC", *_board_names(phone)) == []
    shot(phone, "ru-daily-phone")


def _board_names(page: Any) -> list[str]:
    """Nicknames on the day's board: people's words (other tests' players too)."""
    cells = page.locator(".daily-board tbody td:nth-child(2), table tbody td:nth-child(2)")
    return [str(name) for name in cells.all_inner_texts()]

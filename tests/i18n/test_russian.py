"""The site in Russian: plural forms, card names, refusals, dates, the admin, the socket."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from games.engine import MOVES, IllegalMove, apply, new_game
from games.i18n.labels import card_name
from games.i18n.messages import illegal_move
from games.i18n.sockets import scope_language
from games.models import Player
from games.races.services import race_create
from sultan_site.asgi import application
from tests.pages.helpers import client_for, move, post_json, start_practice
from tests.races.conftest import Lobby
from tests.races.helpers import Client as SocketClient

RUSSIAN = {"accept-language": "ru-RU,ru;q=0.9,en;q=0.4"}


def _russian(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    return client


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("AS", "туз пик"),
        ("KH", "король червей"),
        ("QC", "дама треф"),
        ("JD", "валет бубён"),
        ("TS", "десятка пик"),
        ("7H", "семёрка червей"),
        ("2C", "двойка треф"),
    ],
)
def test_cards_are_named_as_russian_players_say_them(code: str, name: str) -> None:
    with translation.override("ru"):
        assert card_name(code) == name
    with translation.override("en"):
        assert card_name("QS") == "queen of spades"


def _a_refused_foundation_move() -> tuple[int, str, str]:
    """A deal, a move to a foundation that does not take the card, and that card."""
    for seed in range(1, 200):
        state = new_game(seed, "sultan")
        for token, parsed in MOVES.items():
            if parsed.kind != "to_foundation" or parsed.slot < 0 or token[1] == "5":
                continue
            try:
                apply(state, token)
            except IllegalMove as error:
                if error.reason == "foundation_refuses":
                    return seed, token, str(error.details["card"])
    raise AssertionError("no refused foundation move in 200 deals")


def test_the_engines_refusals_are_worded_in_russian_with_the_cards_name() -> None:
    seed, token, card = _a_refused_foundation_move()
    try:
        apply(new_game(seed, "sultan"), token)
    except IllegalMove as error:
        with translation.override("ru"):
            text = illegal_move(error)
    with translation.override("ru"):
        assert text == f"{card_name(card)} не ложится на стопку {token[1]}"


@pytest.mark.django_db
def test_a_refused_move_keeps_its_code_and_says_why_in_russian(alice: Player) -> None:
    seed, token, card = _a_refused_foundation_move()
    client = _russian(client_for(alice))
    game = start_practice(client, deal=seed)["game"]
    answer = move(client, game["id"], token, 0)
    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "illegal"  # the protocol's word stays English
    with translation.override("ru"):
        assert body["message"] == f"{card_name(card)} не ложится на стопку {token[1]}"


@pytest.mark.django_db
def test_a_bad_request_is_answered_in_the_browsers_language() -> None:
    english = post_json(Client(), "/api/practice", {"variant": "klondike"}).json()
    russian = post_json(Client(headers=RUSSIAN), "/api/practice", {"variant": "klondike"}).json()
    assert english["code"] == russian["code"] == "bad_message"
    assert english["message"].startswith("'variant' is one of")
    assert russian["message"].startswith("«variant» — один из:")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("minutes", "label"),
    [
        (1, "1 минута"),
        (2, "2 минуты"),
        (5, "5 минут"),
        (11, "11 минут"),
        (21, "21 минута"),
        (22, "22 минуты"),
        (111, "111 минут"),
    ],
)
def test_the_race_page_says_its_time_limit_with_russian_plural_forms(
    alice: Player, minutes: int, label: str
) -> None:
    race = race_create(host=alice, variant="sultan", time_limit_s=minutes * 60, seat_limit=2)
    body = Client(headers=RUSSIAN).get(f"/r/{race.code}/").content.decode()
    assert f"</span>{label}</li>" in body
    assert "до 2 участников" in body


def test_dates_are_written_the_languages_way() -> None:
    moment = datetime(2026, 12, 1, 14, 5, tzinfo=UTC)
    template = Template("{% load site_tags %}{{ t|when }} / {{ t|when_with_year }}")
    with translation.override("ru"):
        assert template.render(Context({"t": moment})) == "1 декабря, 14:05 / 1 декабря 2026, 14:05"
    with translation.override("en"):
        assert template.render(Context({"t": moment})) == "1 Dec, 14:05 / 1 Dec 2026, 14:05"


@pytest.mark.django_db
def test_a_russian_moderator_reads_the_admin_in_russian(moderator: User, alice: Player) -> None:
    start_practice(client_for(alice))  # a game, so that the list offers its actions
    client = Client(headers=RUSSIAN)
    client.force_login(moderator)
    body = client.get("/admin/games/game/").content.decode()
    assert 'lang="ru"' in body
    assert "Проверить повтор выбранных игр" in body  # ours
    assert "Выберите" in body  # Django's own admin, in its own Russian
    assert "Проверить запись" in body
    assert "<title>Выберите игра для просмотра" in body  # Django words it, with our name
    assert ">Игрок<" in body


def test_a_sockets_language_is_its_cookie_else_its_accept_language() -> None:
    def scope(cookie: str | None = None, accept: str | None = None) -> dict[str, Any]:
        headers = [(b"accept-language", accept.encode())] if accept else []
        cookies = {settings.LANGUAGE_COOKIE_NAME: cookie} if cookie else {}
        return {"headers": headers, "cookies": cookies}

    assert scope_language(scope()) == "en"
    assert scope_language(scope(accept="ru-RU,ru;q=0.9")) == "ru"
    assert scope_language(scope(accept="de,fr;q=0.5")) == "en"
    assert scope_language(scope(accept="de,ru;q=0.5")) == "ru"
    assert scope_language(scope(cookie="en", accept="ru")) == "en"
    assert scope_language(scope(cookie="xx", accept="ru")) == "ru"


async def test_the_race_socket_refuses_in_the_sockets_language(lobby: Lobby) -> None:
    cookie = f"sessionid={lobby.keys['alice']}; {settings.LANGUAGE_COOKIE_NAME}=ru"
    headers = [(b"origin", b"http://127.0.0.1"), (b"cookie", cookie.encode())]
    communicator = WebsocketCommunicator(
        application, f"/ws/races/{lobby.race.code}/", headers=headers
    )
    connected, _ = await communicator.connect(timeout=10)
    assert connected
    alice = SocketClient(communicator)
    await alice.receive_until("snapshot")
    answer = await alice.move("draw")
    assert answer["code"] == "not_started"
    assert answer["message"] == "гонка ещё не началась"
    await alice.send({"type": "nonsense"})
    refusal = await alice.receive_until("error")
    assert refusal["code"] == "unknown_type"
    assert refusal["message"].startswith("неизвестный тип сообщения")
    await alice.close()

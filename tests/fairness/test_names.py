"""Names people see refuse what cannot be seen (defect 4): controls, a NUL above all
(PostgreSQL refuses it: a 400, never a 500), and the direction overrides."""

from __future__ import annotations

import pytest
from django.test import Client

from games.common.errors import BadInput
from games.common.names import display_name
from games.models import Player
from tests.fairness.conftest import PASSWORD
from tests.pages.helpers import post_json

pytestmark = pytest.mark.django_db(transaction=True)

REFUSED = [
    "a\u0000b",
    "evil\u202egnp.exe",
    "tab\there",
    "line\nbreak",
    "\u2066isolate",
    "zero\u200bwidth",
]


@pytest.mark.parametrize("nickname", REFUSED)
def test_a_practice_nickname_with_a_hidden_character_is_refused(nickname: str):
    client = Client()
    response = post_json(client, "/api/practice", {"nickname": nickname})
    assert response.status_code == 400
    assert response.json()["code"] == "bad_name"
    assert "control characters" in response.json()["message"]
    assert not Player.objects.exists()


def test_a_nul_in_any_text_field_is_a_400_on_every_database():
    """On PostgreSQL a NUL reaching a text column is an error: it must be refused first
    (run this file with DATABASE_URL=postgres://...)."""
    client = Client()
    assert post_json(client, "/api/practice", {"nickname": "\u0000"}).status_code == 400
    started = post_json(client, "/api/practice", {"nickname": "nul tester"})
    assert started.status_code == 201
    game = started.json()["game"]["id"]
    move = post_json(
        client, f"/api/games/{game}/moves", {"token": "draw", "id": "a\u0000", "seq": 0}
    )
    assert move.status_code == 400
    assert client.post("/guest", {"nickname": "x\u0000y"}).status_code == 400
    assert Player.objects.get().nickname == "nul tester"


def test_home_and_race_forms_refuse_them_with_words(alice: Player):
    client = Client()
    page = client.post("/guest", {"nickname": "evil\u202eman"})
    assert page.status_code == 400
    assert "direction of text" in page.content.decode()


def test_a_username_with_a_hidden_character_is_refused_with_words():
    for username in ("bad\u202ename", "nul\u0000l"):
        response = Client().post(
            "/accounts/signup/",
            {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        )
        assert response.status_code == 400
        body = response.content.decode()
        assert "control characters" in body or "Null characters" in body


def test_a_name_is_nfc_normalised_and_its_spaces_folded():
    decomposed = "Zoe\u0301  Brontë"  # e + combining acute
    assert display_name(decomposed, what="A nickname", limit=40) == "Zoé Brontë"
    assert display_name("emoji \U0001f469\u200d\U0001f4bb", what="A nickname", limit=40)
    with pytest.raises(BadInput):
        display_name("   ", what="A nickname", limit=40)
    with pytest.raises(BadInput):
        display_name("x" * 41, what="A nickname", limit=40)

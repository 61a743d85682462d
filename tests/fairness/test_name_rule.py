"""One name rule for every display name a person types (games/common/names.py): a
guest's nickname (a form, the practice JSON, a race's join form), a sign-up's
username, a tournament's name, a token's name. A NUL, a direction override and a
name nothing of which is seen are refused with words — a 400, never a 500, on
PostgreSQL too (run with DATABASE_URL=postgres://...)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.api.models import AccessToken
from games.common.errors import BadInput
from games.common.names import display_name
from games.models import Player
from games.races.services import race_create
from games.tournaments.models import Tournament
from tests.fairness.conftest import PASSWORD
from tests.pages.helpers import post_json

pytestmark = pytest.mark.django_db(transaction=True)

REFUSED = {
    "nul": "a\u0000b",
    "nul_alone": "\u0000",
    "override": "evil\u202egnp.exe",
    "override_alone": "\u202e",
    "isolate": "\u2066name\u2069",
    "zero_width_alone": "\u200b",
    "joiner_alone": "\u200d",
    "joiners_and_space": "\u200c \u200d",
    "hangul_filler": "\u3164",
    "mark_alone": "\u0301",
    "soft_hyphen": "al\u00adice",
    "spaces": "   ",
    "tab": "tab\there",
}
# What each refusal says: the rule's words, or (a blank field) the form's own.
WORDS = (
    "control characters",
    "visible character",
    "1 to",
    "Null characters",
    "This field is required",
    "Pick a nickname",
)


def _said(body: str) -> bool:
    return any(words in body for words in WORDS)


def _guest_form(client: Client, name: str) -> Any:
    return client.post("/guest", {"nickname": name})


def _practice_json(client: Client, name: str) -> Any:
    return post_json(client, "/api/practice", {"nickname": name})


def _race_join_form(client: Client, name: str) -> Any:
    host = Player.objects.create(nickname="host")
    race = race_create(host=host, variant="sultan", time_limit_s=300)
    return client.post(f"/r/{race.code}/join", {"nickname": name})


def _signup_form(client: Client, name: str) -> Any:
    return client.post(
        "/accounts/signup/", {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    )


def _logged_in(client: Client) -> None:
    client.force_login(User.objects.get_or_create(username="namer")[0])


def _tournament_form(client: Client, name: str) -> Any:
    _logged_in(client)
    form = {"name": name, "variant": "sultan", "minutes": "30", "seats": "2", "starts_in": "0"}
    return client.post("/tournaments/new", form | {"public": "on"})


def _token_form(client: Client, name: str) -> Any:
    _logged_in(client)
    return client.post("/accounts/tokens/", {"name": name, "scope": "read"})


FIELDS: dict[str, Callable[[Client, str], Any]] = {
    "guest nickname": _guest_form,
    "practice nickname": _practice_json,
    "race join nickname": _race_join_form,
    "sign-up username": _signup_form,
    "tournament name": _tournament_form,
    "token name": _token_form,
}


def _made() -> tuple[int, int, int]:
    named = Player.objects.exclude(nickname__in=("host", "namer"))
    return named.count(), Tournament.objects.count(), AccessToken.objects.count()


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("name", REFUSED.values(), ids=REFUSED.keys())
def test_it_refuses_a_hidden_or_invisible_name_in_every_field(field: str, name: str) -> None:
    client = Client()
    before = _made()
    response = FIELDS[field](client, name)
    assert response.status_code == 400, (field, name, response.status_code)
    assert _said(response.content.decode()), (field, name)
    assert _made() == before


@pytest.mark.parametrize("field", FIELDS)
def test_it_takes_a_name_nfc_normalised_in_every_field(field: str) -> None:
    # A username is Django's too: letters, digits and @.+-_ only.
    typed, kept = (
        ("Zoe\u0301_Bronte\u0308", "Zoé_Brontë")
        if field == "sign-up username"
        else (
            "Zoe\u0301  Brontë \U0001f469\u200d\U0001f4bb",
            "Zoé Brontë \U0001f469\u200d\U0001f4bb",
        )
    )
    response = FIELDS[field](Client(), typed)
    assert response.status_code in (200, 201, 302), (field, response.status_code)
    if field == "tournament name":
        assert Tournament.objects.get(created_by__isnull=False).name == kept
    elif field == "token name":
        assert AccessToken.objects.get().name == kept
    elif field == "sign-up username":
        assert User.objects.filter(username=kept).exists()
    else:
        assert Player.objects.filter(nickname=kept).exists()


def test_the_rule_refuses_what_no_one_can_see_and_keeps_joiners_in_a_word() -> None:
    for name in ("\u200d", "\u200c\u200d", "\u0301\u0302", "\ufe0f"):
        with pytest.raises(BadInput) as refused:
            display_name(name, what="A nickname", limit=40)
        assert refused.value.code == "bad_name"
    assert display_name("\u0915\u094d\u200d\u0937", what="A nickname", limit=40)

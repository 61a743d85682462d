"""A fresh identity is a fresh sight of every deal: guests and sign-ups are counted per
address (defect 5: 40 sign-ups and 50 guests from one address were all accepted)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games.models import Player
from tests.fairness.conftest import PASSWORD
from tests.pages.helpers import post_json

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_guests_from_one_address_are_throttled():
    per_address = settings.SULTAN_QUOTAS["guest"][1]
    answers = [
        post_json(Client(), "/api/practice", {"nickname": f"g{i}"}).status_code
        for i in range(per_address + 1)
    ]
    assert answers[:-1] == [201] * per_address
    assert answers[-1] == 429
    assert Player.objects.count() == per_address
    refused = Client().post("/daily/play", {"variant": "sultan", "nickname": "one more"})
    assert refused.status_code == 429 or "too many requests" in refused.content.decode()
    assert Player.objects.count() == per_address


def test_sign_ups_from_one_address_are_throttled(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    per_address = settings.SULTAN_QUOTAS["signup"][1]
    answers = []
    for i in range(per_address + 1):
        response = Client().post(
            "/accounts/signup/",
            {"username": f"sybil{i}", "password1": PASSWORD, "password2": PASSWORD},
        )
        answers.append(response.status_code)
    assert answers == [302] * per_address + [429]
    assert "too many requests" in response.content.decode()


def test_nginx_caps_the_sockets_one_address_holds_open():
    conf = (ROOT / "deploy" / "nginx" / "nginx.conf").read_text()
    assert "limit_conn_zone $binary_remote_addr zone=sockets_per_address" in conf
    ws = conf[conf.index("location /ws/") :]
    assert "limit_conn sockets_per_address" in ws[: ws.index("}")]

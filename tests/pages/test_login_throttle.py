"""Log-ins: failures are throttled per account and per address (django-axes), with a
page that says so, and passwords are hashed with Argon2."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


@pytest.fixture
def dora(settings: object) -> User:
    return User.objects.create_user(username="dora", password=PASSWORD)


def _log_in(username: str, password: str, address: str = "203.0.113.1") -> tuple[int, str]:
    response = Client(REMOTE_ADDR=address).post(
        "/accounts/login/", {"username": username, "password": password}
    )
    return response.status_code, response.content.decode()


def test_passwords_are_hashed_with_argon2(dora: User):
    assert dora.password.startswith("argon2$")


def test_an_account_is_paused_after_five_failures_even_with_the_right_password(dora: User):
    for n in range(4):
        # From five addresses: the account's own count pauses it.
        assert _log_in("dora", "wrong", address=f"203.0.113.{n + 10}")[0] == 400
    assert _log_in("dora", "wrong", address="203.0.113.20")[0] == 429  # the fifth
    status, page = _log_in("dora", PASSWORD, address="198.51.100.99")
    assert status == 429
    assert "Too many failed log-ins for this account or from this address" in page
    assert "Wait 15 minutes" in page
    assert "_auth_user_id" not in Client().session  # nobody got in


def test_an_address_is_paused_after_five_failures_on_any_accounts(dora: User):
    for n in range(4):
        assert _log_in(f"nobody{n}", "wrong")[0] == 400
    assert _log_in("nobody4", "wrong")[0] == 429
    assert _log_in("dora", PASSWORD)[0] == 429
    # dora from elsewhere is not affected.
    assert _log_in("dora", PASSWORD, address="198.51.100.7")[0] == 302


def test_a_success_before_the_limit_starts_the_count_again(dora: User):
    for _ in range(4):
        assert _log_in("dora", "wrong")[0] == 400
    assert _log_in("dora", PASSWORD)[0] == 302
    for _ in range(4):
        assert _log_in("dora", "wrong")[0] == 400
    assert _log_in("dora", PASSWORD)[0] == 302

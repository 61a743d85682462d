"""Personal access tokens: shown once, stored hashed, scoped, revocable, counted."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.test import Client

from games.api.models import AccessToken
from games.api.services import MAX_TOKENS, TokenRefused, token_create, token_revoke
from games.models import Player
from tests.api.conftest import bearer, get, login

pytestmark = pytest.mark.django_db


def test_a_token_is_stored_as_its_hash_and_never_as_itself(alice: Player):
    made = token_create(player=alice, name="export", scope="read")
    row = AccessToken.objects.get(pk=made.token.pk)
    assert row.digest == hashlib.sha256(made.secret.encode()).hexdigest()
    stored = [str(v) for v in AccessToken.objects.filter(pk=row.pk).values().get().values()]
    assert made.secret not in stored
    assert made.secret.startswith(row.prefix)


def test_the_account_page_shows_a_new_token_once(client: Client, alice: Player):
    login(client, alice)
    made = client.post("/accounts/tokens/", {"name": "my script", "scope": "read"})
    assert made.status_code == 200
    secret = made.context["new_secret"]
    assert secret in made.content.decode()
    assert made["Cache-Control"] == "no-store"
    again = client.get("/accounts/tokens/")
    assert "my script" in again.content.decode()
    assert secret not in again.content.decode()


def test_a_token_reads_as_its_owner(client: Client, alice: Player, alice_read: str):
    response = get(client, "/api/v1/account", alice_read)
    assert response.status_code == 200
    assert response.json()["player"]["username"] == "alice"


def test_an_unknown_or_malformed_token_is_refused_with_401(client: Client, alice: Player):
    assert get(client, "/api/v1/account", "sultan_nope").status_code == 401
    wrong = client.get("/api/v1/account", HTTP_AUTHORIZATION="Token abc")
    assert wrong.status_code == 401
    assert wrong.json()["code"] == "bad_token"


def test_a_revoked_token_reads_nothing(client: Client, alice: Player, alice_read: str):
    token = AccessToken.objects.get(player=alice)
    login(client, alice)
    assert client.post(f"/accounts/tokens/{token.pk}/revoke").status_code == 302
    client.logout()
    response = get(client, "/api/v1/account", alice_read)
    assert response.status_code == 401
    assert response.json()["code"] == "bad_token"


def test_nobody_revokes_another_players_token(client: Client, alice: Player, bob: Player):
    made = token_create(player=alice, name="export", scope="read")
    with pytest.raises(TokenRefused):
        token_revoke(player=bob, token_id=made.token.pk)
    login(client, bob)
    assert client.post(f"/accounts/tokens/{made.token.pk}/revoke").status_code == 404
    assert AccessToken.objects.get(pk=made.token.pk).revoked_at is None


def test_a_read_token_cannot_play(client: Client, alice: Player, alice_read: str):
    response = client.post("/api/v1/bot/account/upgrade", headers=bearer(alice_read))
    assert response.status_code == 403
    assert response.json()["code"] == "scope"
    alice.refresh_from_db()
    assert not alice.is_bot


def test_play_needs_a_token_not_a_session(client: Client, alice: Player):
    login(client, alice)
    assert client.post("/api/v1/bot/account/upgrade").status_code == 401


def test_a_deleted_account_s_token_reads_nothing(client: Client, alice: Player, alice_read: str):
    from games.accounts.deletion import account_delete

    assert alice.user is not None
    account_delete(user=alice.user)
    assert get(client, "/api/v1/account", alice_read).status_code == 401


def test_a_token_spent_its_quota_gets_429_with_retry_after(
    client: Client, alice: Player, alice_read: str, settings: Any
):
    settings.SULTAN_QUOTAS = {**settings.SULTAN_QUOTAS, "api": (3, 1000)}
    for _ in range(3):
        assert get(client, "/api/v1/account", alice_read).status_code == 200
    spent = get(client, "/api/v1/account", alice_read)
    assert spent.status_code == 429
    assert spent.json()["code"] == "quota"
    assert int(spent["Retry-After"]) > 0
    # Per token: another token of the same account has its own.
    other = token_create(player=alice, name="second", scope="read").secret
    assert get(client, "/api/v1/account", other).status_code == 200


def test_an_account_holds_a_bounded_number_of_tokens(alice: Player):
    for n in range(MAX_TOKENS):
        token_create(player=alice, name=f"t{n}", scope="read")
    with pytest.raises(TokenRefused) as refused:
        token_create(player=alice, name="one more", scope="read")
    assert refused.value.code == "too_many"


@pytest.mark.parametrize(("name", "scope"), [("", "read"), ("x" * 61, "read"), ("ok", "admin")])
def test_a_bad_token_form_changes_nothing(client: Client, alice: Player, name: str, scope: str):
    login(client, alice)
    response = client.post("/accounts/tokens/", {"name": name, "scope": scope})
    assert response.status_code == 400
    assert not AccessToken.objects.exists()


def test_a_guest_has_no_tokens_page(client: Client):
    assert client.get("/accounts/tokens/").status_code == 302  # to the log-in

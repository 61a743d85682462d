"""Whom a hint's solve counts against is the request's `work_identity`
(games.accounts.selectors), the one helper a game's analysis and a winnable deal use
too: the quotas key on the same player and address whichever solver work is asked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.http import HttpRequest

from games.accounts.selectors import work_identity
from games.models import Player
from games.practice import api
from games.practice.hints import winning_lines
from games.quotas.quotas import quota_take
from games.store.services import game_create
from tests.pages.helpers import client_for, post_json
from tests.races.helpers import SEED, VARIANT

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_lines_remembered() -> Iterator[None]:
    # The hint must reach the solver (and the quota), as a fresh position would.
    winning_lines.clear()
    yield
    winning_lines.clear()


def test_a_hint_counts_against_the_identity_work_identity_gives(
    alice: Player, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.SULTAN_QUOTAS = {**settings.SULTAN_QUOTAS, "hint": (5, 1)}
    asked: list[tuple[int | None, str]] = []

    def behind_another_address(request: HttpRequest) -> tuple[int | None, str]:
        player_id, _address = work_identity(request)
        asked.append((player_id, "203.0.113.7"))
        return asked[-1]

    monkeypatch.setattr(api, "work_identity", behind_another_address)
    quota_take(kind="hint", player_id=None, address="203.0.113.7")  # that address's one hint
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    refused = post_json(client_for(alice), f"/api/games/{game.pk}/hint", {})
    assert asked == [(alice.pk, "203.0.113.7")]
    assert refused.status_code == 429
    assert refused.json()["code"] == "quota"

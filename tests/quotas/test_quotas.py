"""Quotas on solver work and race creation, and the process-wide cap on solver work:
a refusal is immediate and clear (429 `quota`, 503 `busy`, with Retry-After), never a
hung request, and nothing is written for it."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from games.models import Game, Player, Race
from games.practice.hints import winning_lines
from games.quotas.quotas import QuotaExceeded, quota_take
from games.quotas.solver import SolverBusy, slots, solver_run, solver_work
from games.store.services import game_create
from tests.pages.helpers import client_for, post_json
from tests.races.helpers import SEED, VARIANT

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_lines_remembered() -> Iterator[None]:
    # Every hint below must reach the solver, as a fresh position would.
    winning_lines.clear()
    yield
    winning_lines.clear()


@pytest.fixture
def small_quotas(settings: Any) -> dict[str, tuple[int, int]]:
    settings.SULTAN_QUOTAS = {
        "hint": (2, 3),
        "analysis": (2, 3),
        "winnable": (1, 2),
        "race": (2, 3),
    }
    return settings.SULTAN_QUOTAS  # type: ignore[no-any-return]


def _hint(client: Client, game: Game) -> Any:
    winning_lines.clear()
    return post_json(client, f"/api/games/{game.pk}/hint", {})


def test_a_player_who_spent_the_hint_quota_is_refused_with_429_and_retry_after(
    alice: Player, small_quotas: object, settings: Any
):
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    client = client_for(alice)
    assert _hint(client, game).status_code == 200
    assert _hint(client, game).status_code == 200
    refused = _hint(client, game)
    assert refused.status_code == 429
    assert refused.json()["code"] == "quota"
    assert "try again in" in refused.json()["message"]
    assert 1 <= int(refused["Retry-After"]) <= settings.SULTAN_QUOTA_WINDOW_S


def test_following_a_remembered_line_costs_no_quota(alice: Player, small_quotas: object):
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    client = client_for(alice)
    for _ in range(5):  # one solve, then the same line read back
        assert post_json(client, f"/api/games/{game.pk}/hint", {}).status_code == 200


def test_players_behind_one_address_share_its_larger_quota(
    alice: Player, bob: Player, charlie: Player, small_quotas: object
):
    answers = []
    for player in (alice, bob, charlie, alice):
        game = game_create(player=player, variant=VARIANT, seed=SEED)
        answers.append(_hint(client_for(player), game).status_code)
    # Three per address, two per player: the fourth is refused by the address.
    assert answers == [200, 200, 200, 429]


def test_a_hint_with_every_solver_slot_taken_is_refused_busy_at_once(alice: Player):
    game = game_create(player=alice, variant=VARIANT, seed=SEED)
    client = client_for(alice)
    with solver_work("hint"):  # this thread holds the process's only slot
        refused = _hint(client, game)
    assert refused.status_code == 503
    assert refused.json()["code"] == "busy"
    assert refused["Retry-After"]
    assert _hint(client, game).status_code == 200  # the slot is free again


def test_solver_work_never_runs_more_than_the_slots_at_once(settings: Any):
    settings.SULTAN_SOLVER_WAIT_S = 0.05
    inside, peak, refused = 0, 0, 0
    lock = threading.Lock()
    release = threading.Event()

    def worker() -> None:
        nonlocal inside, peak, refused
        try:
            with solver_work("hint"):
                with lock:
                    inside += 1
                    peak = max(peak, inside)
                release.wait(5)
                with lock:
                    inside -= 1
        except SolverBusy:
            with lock:
                refused += 1

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads[1:]:
        thread.join(5)  # the refused ones return without waiting for the slot
    release.set()
    threads[0].join(5)
    assert peak == settings.SULTAN_SOLVER_SLOTS == 1
    assert refused == 3


@pytest.mark.parametrize("niceness", [0, 7])
def test_solver_work_runs_at_the_configured_niceness(settings: Any, niceness: int):
    """The solver's processes sit SULTAN_SOLVER_NICE below this one (the tests' servers: 0)."""
    settings.SULTAN_SOLVER_PROCESSES = True
    settings.SULTAN_SOLVER_NICE = niceness
    slots.pool_discard()  # a pool made before the setting changed
    try:
        assert solver_run("hint", os.nice, 0) == min(19, os.nice(0) + niceness)
    finally:
        slots.pool_discard()


def test_the_quota_counts_per_kind(small_quotas: object):
    for _ in range(2):
        quota_take(kind="analysis", player_id=7, address="198.51.100.7")
    with pytest.raises(QuotaExceeded):
        quota_take(kind="analysis", player_id=7, address="198.51.100.7")
    quota_take(kind="hint", player_id=7, address="198.51.100.7")


def test_race_creation_has_a_quota_and_a_refused_race_is_not_made(
    alice: Player, small_quotas: object
):
    client = client_for(alice)
    form = {"variant": "sultan", "time_limit": "15", "seats": "4"}
    assert client.post("/races/new", form).status_code == 302
    assert client.post("/races/new", form).status_code == 302
    refused = client.post("/races/new", form)
    assert refused.status_code == 429
    assert "try again in" in refused.content.decode()
    assert refused["Retry-After"]
    assert Race.objects.filter(host=alice).count() == 2


def test_a_winnable_race_with_the_solver_busy_is_refused_503_and_not_made(alice: Player):
    client = client_for(alice)
    form = {"variant": "sultan", "time_limit": "15", "seats": "4", "winnable": "on"}
    with solver_work("winnable"):
        refused = client.post("/races/new", form)
    assert refused.status_code == 503
    assert "busy" in refused.content.decode()
    assert not Race.objects.filter(host=alice).exists()

""" "Winnable deals only" in practice (issue 39): New deal draws a deal the solver has won,
as a race's winnable deal is drawn, and keeps the choice for the next New deal."""

from __future__ import annotations

import pytest
from django.test import Client

from games.engine import new_game
from games.engine.solver import solve
from games.engine.solver.winnable import WINNABLE_PER_DEAL_NODES, WINNABLE_PER_DEAL_S
from games.practice.services import RANDOM_DEALS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("variant", ["sultan-8", "pysolfc-8"])
def test_new_deal_with_winnable_only_lands_on_a_deal_the_solver_wins(variant: str) -> None:
    response = Client().get("/practice/", {"variant": variant, "winnable": "1"})
    assert response.status_code == 302
    path, query = response["Location"].split("?")
    seed = int(path.removeprefix("/practice/").removesuffix("/"))
    assert 0 < seed < RANDOM_DEALS  # a practice number, easy to read out
    assert query == f"variant={variant}&winnable=1"  # the next New deal asks again
    found = solve(new_game(seed, variant), WINNABLE_PER_DEAL_NODES, WINNABLE_PER_DEAL_S * 20)
    assert found.status == "won"


def test_the_practice_page_offers_the_choice_and_keeps_it_on_new_deal() -> None:
    html = Client().get("/practice/77/?variant=sultan&winnable=1").content.decode()
    assert 'id="pref-winnable" checked' in html
    assert "/practice/?variant=sultan&amp;winnable=1" in html
    plain = Client().get("/practice/77/?variant=sultan").content.decode()
    assert 'id="pref-winnable" aria-describedby' in plain
    assert "winnable=1" not in plain


def test_the_choice_reads_in_russian() -> None:
    html = Client(headers={"accept-language": "ru"}).get("/practice/77/").content.decode()
    assert "Только проходимые расклады" in html


def test_a_deal_by_number_is_dealt_as_asked_even_with_winnable_ticked() -> None:
    response = Client().get("/practice/", {"deal": "77", "winnable": "1"})
    assert response["Location"] == "/practice/77/?variant=sultan"


def test_past_the_quota_new_deal_says_so_on_a_page_not_a_500(settings) -> None:
    settings.SULTAN_QUOTAS = {**settings.SULTAN_QUOTAS, "winnable": (0, 0)}
    response = Client().get("/practice/", {"winnable": "1"})
    assert response.status_code == 429
    html = response.content.decode()
    assert "No winnable deal right now" in html
    assert "/practice/?variant=sultan" in html

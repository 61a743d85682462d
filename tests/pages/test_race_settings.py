"""A race's automatic moves: the host's choice at creation, shown to everyone."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Race
from games.races.services import race_rematch

pytestmark = pytest.mark.django_db


def _create(client: Client, **extra: str) -> Race:
    fields = {"seats": "4", "time_limit": "15", "nickname": "Ali", **extra}
    response = client.post("/races/new", fields)
    assert response.status_code == 302, response.content
    return Race.objects.get(code=response["Location"].strip("/").split("/")[-1])


def test_the_host_turns_automatic_moves_on_for_the_whole_race() -> None:
    race = _create(Client(), automatic_moves="on")
    assert race.automatic_moves is True
    page = Client().get(f"/r/{race.code}/").content.decode()
    assert "Automatic moves on" in page


def test_automatic_moves_are_off_unless_the_host_asks() -> None:
    race = _create(Client())
    assert race.automatic_moves is False
    assert "Automatic moves off" in Client().get(f"/r/{race.code}/").content.decode()


def test_the_home_page_offers_the_choice() -> None:
    assert 'name="automatic_moves"' in Client().get("/").content.decode()


def test_a_rematch_keeps_the_races_choice() -> None:
    client = Client()
    race = _create(client, automatic_moves="on")
    Race.objects.filter(pk=race.pk).update(status=Race.Status.FINISHED, finished_at=timezone.now())
    race.refresh_from_db()
    rematch = race_rematch(race=race, player=race.host)
    assert rematch.automatic_moves is True

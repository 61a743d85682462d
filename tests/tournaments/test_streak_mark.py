"""The streak mark of a racer on fire is a drawing with words, never an emoji (an emoji is a
blank box where the font lacks it: seen on phones)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.tournaments.models import TournamentRace
from games.tournaments.pairing import pairing_tick
from games.tournaments.selectors import tournament_standings
from tests.tournaments.helpers import after_rest, arena_paired, cards_up, race_go, resign

pytestmark = pytest.mark.django_db

EMOJI = re.compile("[\U0001f300-\U0001faff\u2600-\u27bf]")


def test_a_racer_on_fire_is_marked_by_a_drawing_with_a_text_alternative(
    client: Client, alice, bob
) -> None:
    tournament = arena_paired([alice, bob], name="Hot")
    for _ in range(2):  # two first places in a row: on fire (games/tournaments/points.py)
        link = TournamentRace.objects.get(tournament=tournament, scored_at__isnull=True)
        race_go(link.race)
        assert cards_up(alice, link.race, 7) == 7
        assert cards_up(bob, link.race, 5) == 5
        resign(alice, link.race)
        resign(bob, link.race)
        pairing_tick()  # scored
        pairing_tick(now=after_rest())  # seated again
    (hot,) = [row for row in tournament_standings(tournament=tournament) if row["fire"]]
    assert hot["nickname"] == "alice"
    page = client.get(f"/t/{tournament.code}/").content.decode()
    row = re.search(rf'<tr data-player="{alice.pk}".*?</tr>', page, re.S)
    assert row is not None
    mark = re.search(r'<span class="fire"[^>]*>.*?</span>', row.group(0), re.S)
    assert mark is not None
    assert 'aria-label="On fire: points double"' in mark.group(0)
    assert "<svg" in mark.group(0)
    assert not EMOJI.search(page)
    # The live table clones the same mark (frontend/static/js/pages/tournament.js).
    assert re.search(r'<template id="fire-mark"><span class="fire"', page)

"""Loading a game's state replays only the events it must, however long the log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import new_game, replay
from games.models import Game
from games.store.cache import positions
from games.store.records import verify_record
from games.store.selectors import game_state
from games.store.services import game_create, game_import_record
from tests.store.helpers import append

pytestmark = pytest.mark.django_db


def long_game(player, events: int) -> Game:
    """A practice log of `events` events (draw, undo, draw, undo, ...) stored in one go."""
    tokens = ["draw" if i % 2 == 0 else "undo" for i in range(events)]
    lines = "\n".join(f"{n} {token} +0.250" for n, token in enumerate(tokens, start=1))
    total = f"{events * 250 // 1000}.{events * 250 % 1000:03d}"
    record = (
        '[Variant "sultan"]\n[Deal "5"]\n[Race "-"]\n[Result "*"]\n'
        f'[CardsPlayed "0"]\n[Time "{total}"]\n\n{lines}\n'
    )
    started = timezone.now() - timedelta(hours=1)
    return game_import_record(record=verify_record(record), player=player, started_at=started)


@pytest.mark.parametrize("events", [10, 100, 1000])
def test_a_warm_load_replays_nothing_whatever_the_length(alice, events):
    game = long_game(alice, events)
    positions.clear()
    assert game_state(game=game) == new_game(5, "sultan")  # every draw was taken back
    assert positions.stats.events_replayed == events  # cold: the whole log, once
    replayed = positions.stats.events_replayed
    for _ in range(3):
        game_state(game=game)
    assert positions.stats.events_replayed == replayed


def test_an_append_replays_nothing_and_leaves_the_next_load_warm(alice):
    game = long_game(alice, 1000)
    game_state(game=game)
    before = positions.stats.events_replayed
    result = append(game, alice, "draw")
    game.refresh_from_db()
    assert game_state(game=game) == result.state
    assert positions.stats.events_replayed == before


def test_a_load_after_another_process_appended_replays_only_the_new_events(alice):
    game = long_game(alice, 1000)
    game_state(game=game)
    append(game, alice, "draw")
    append(game, alice, "draw")
    game.refresh_from_db()
    # Another process's appends leave this process's cache behind by two events.
    positions.discard(game.pk, 1002)
    positions.discard(game.pk, 1001)
    before = positions.stats.events_replayed
    assert game_state(game=game) == replay(5, "sultan", ["draw", "draw"])
    assert positions.stats.events_replayed - before == 2


def test_an_entry_whose_row_is_not_in_the_log_is_not_trusted(alice):
    game = game_create(player=alice, variant="sultan", seed=8)
    append(game, alice, "draw")
    game.refresh_from_db()
    real = game_state(game=game)
    # As left by an append whose transaction rolled back: same key, another row.
    bogus = positions.best(game.pk, 1, 8, "sultan")
    assert bogus is not None
    wrong = replay(8, "sultan", ["draw", "draw"])
    positions.put(game.pk, 1, type(bogus.position)(wrong), (10**9, timezone.now()))
    assert game_state(game=game) == real

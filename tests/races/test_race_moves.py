"""A race's moves (games/races/moves.race_move): the race checks its race between the
store's lock and the store's append, plans through the store's planner and announces
the move in the same transaction."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine import finish_line, new_game
from games.engine.solver.greedy import greedy_move
from games.models import Game, Move, Player, Race, RaceEvent, RaceStatus
from games.races.moves import race_move
from games.races.services import race_create, race_join, race_start
from games.store.services import MoveRejected, game_create
from tests.races.play import race_append
from tests.store.helpers import log_of

pytestmark = pytest.mark.django_db

# pysolfc deal 2: after the first draw, slot a's ace and slot d's ace go up safely.
DEAL, RUN = 2, ("a7", "d8")
# pysolfc deal 180: greedy play wins it, and can be finished 14 moves from the end.
FINISHABLE = 180


def _race(host: Player, *, automatic_moves: bool = False, seed: int = DEAL) -> Race:
    starts_at = timezone.now() - timedelta(seconds=1)
    return Race.objects.create(
        host=host,
        variant="pysolfc",
        seed=seed,
        status=RaceStatus.RUNNING,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(seconds=900),
        automatic_moves=automatic_moves,
    )


def _rejected(game: Game, player: Player, token: str) -> MoveRejected:
    before = log_of(game)
    with pytest.raises(MoveRejected) as caught:
        race_append(game, player, token)
    assert log_of(game) == before
    return caught.value


def test_races_have_no_take_backs(alice, running_race):
    game = game_create(player=alice, variant="sultan", race=running_race)
    race_append(game, alice, "draw")
    error = _rejected(game, alice, "undo")
    assert error.code == "illegal"
    assert error.message == "Races have no take-backs"


@pytest.mark.parametrize(
    ("status", "start_offset_s", "code"),
    [
        (RaceStatus.LOBBY, None, "not_started"),
        (RaceStatus.COUNTDOWN, 3, "not_started"),
        (RaceStatus.RUNNING, 5, "not_started"),
        (RaceStatus.RUNNING, -901, "too_late"),
        (RaceStatus.FINISHED, -10, "finished"),
    ],
)
def test_it_rejects_race_moves_outside_the_race(alice, status, start_offset_s, code):
    starts_at = (
        None if start_offset_s is None else timezone.now() + timedelta(seconds=start_offset_s)
    )
    finished_at = timezone.now() if status == RaceStatus.FINISHED else None
    race = Race.objects.create(
        host=alice,
        variant="sultan",
        seed=5,
        status=status,
        starts_at=starts_at,
        finished_at=finished_at,
    )
    game = game_create(player=alice, variant="sultan", race=race)
    version = race.version
    assert _rejected(game, alice, "draw").code == code
    race.refresh_from_db()
    assert race.version == version  # the version taken rolled back with the refusal
    assert not RaceEvent.objects.filter(race=race).exists()


def test_the_logs_refusals_come_before_the_races(alice):
    """One mistake, one answer: a stale seq in a race that is over is a conflict."""
    race = _race(alice)
    game = game_create(player=alice, variant="pysolfc", race=race)
    race_append(game, alice, "draw")
    Race.objects.filter(pk=race.pk).update(status=RaceStatus.FINISHED, finished_at=timezone.now())
    with pytest.raises(MoveRejected) as caught:
        race_append(game, alice, "draw", expected_seq=0)
    assert (caught.value.code, caught.value.current_seq) == ("conflict", 1)


def test_a_game_of_another_race_is_not_yours_to_move_in_this_one(alice):
    game = game_create(player=alice, variant="pysolfc", race=_race(alice))
    other = _race(alice)
    with pytest.raises(MoveRejected) as caught:
        race_move(
            race_id=other.pk,
            game_id=game.pk,
            player=alice,
            token="draw",
            client_move_id="m1",
            expected_seq=0,
        )
    assert caught.value.code == "forbidden"
    assert log_of(game) == []


@pytest.mark.parametrize("asked", [True, False])
def test_in_a_race_the_race_decides_not_the_racer(alice: Player, asked: bool):
    on = game_create(player=alice, variant="pysolfc", race=_race(alice, automatic_moves=True))
    assert race_append(on, alice, "draw").append.automatic == RUN
    off = game_create(player=alice, variant="pysolfc", race=_race(alice, automatic_moves=False))
    assert race_append(off, alice, "draw").append.automatic == ()


def test_a_racer_may_finish_too_and_the_race_hears_of_it(alice: Player):
    race = _race(alice, seed=FINISHABLE)
    game = game_create(player=alice, variant="pysolfc", race=race)
    state = new_game(FINISHABLE, "pysolfc")
    while finish_line(state) is None:
        state = race_append(game, alice, greedy_move(state) or "").append.state
    race.refresh_from_db()
    before = race.version
    result = race_append(game, alice, "finish")
    assert result.append.state.status == "won"
    assert result.version == before + 1
    heard = RaceEvent.objects.get(race=race, version=result.version)
    assert (heard.kind, f'"seq":{result.append.seq}' in heard.payload) == ("progress", True)
    assert Move.objects.filter(game=game, automatic=True).count() == len(result.append.automatic)


def test_a_retry_is_answered_with_the_version_its_first_answer_took(alice: Player):
    race = _race(alice, automatic_moves=True)
    game = game_create(player=alice, variant="pysolfc", race=race)
    first = race_append(game, alice, "draw", expected_seq=0, client_move_id="m")
    again = race_append(game, alice, "draw", expected_seq=0, client_move_id="m")
    assert again.append.duplicate
    assert (again.version, again.append.seq, again.append.automatic) == (
        first.version,
        first.append.seq,
        first.append.automatic,
    )
    race.refresh_from_db()
    assert race.version == first.version  # a retry takes no version


@pytest.mark.django_db(transaction=True)
def test_a_race_move_costs_what_it_did(alice: Player, bob: Player):
    """The hot path's statements, counted (#23): the game's lock, the race's version
    and clock, the log row, the projection, the announcement; with the transaction's
    BEGIN and COMMIT and the publisher marking the announcement sent after it.
    Splitting the race's checks from the store's append added none."""
    race = race_create(host=alice, variant="sultan", time_limit_s=900, seat_limit=4)
    race_join(race=race, player=bob)
    race_start(race=race, player=alice, countdown_s=0)
    game = Game.objects.get(race=race, player=alice)
    counts = []
    for seq in range(3):  # the deal, then positions from the store's cache
        with CaptureQueriesContext(connection) as queries:
            race_move(
                race_id=race.pk,
                game_id=game.pk,
                player=alice,
                token="draw",
                client_move_id=f"m{seq}",
                expected_seq=seq,
            )
        counts.append(len(queries.captured_queries))
    assert counts == [8, 8, 8], [q["sql"][:60] for q in queries.captured_queries]

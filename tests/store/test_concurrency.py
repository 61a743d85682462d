"""Real threads on a real (file or server) database: the lock and the constraints hold."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

import pytest
from django.db import connection

from games.models import Game, Move, Player
from games.store.services import AppendResult, MoveRejected, game_append_move, game_create
from tests.store.helpers import greedy_move

THREADS = 20
ROUNDS = 8

pytestmark = pytest.mark.django_db(transaction=True)


def _race_threads(work: Callable[[int], AppendResult]) -> list[AppendResult | MoveRejected]:
    """Run `work(i)` in THREADS threads released at once; collect what each got."""
    barrier = threading.Barrier(THREADS)
    outcomes: list[AppendResult | MoveRejected | BaseException | None] = [None] * THREADS

    def run(i: int) -> None:
        try:
            barrier.wait()
            outcomes[i] = work(i)
        except MoveRejected as rejection:
            outcomes[i] = rejection
        except BaseException as error:  # surfaced below: a thread must not fail silently
            outcomes[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    errors = [o for o in outcomes if not isinstance(o, AppendResult | MoveRejected)]
    assert not errors, errors
    return [o for o in outcomes if isinstance(o, AppendResult | MoveRejected)]


def _assert_log_is_whole(game: Game, length: int) -> None:
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, length + 1))
    game.refresh_from_db()
    assert game.last_seq == length


def test_exactly_one_of_twenty_concurrent_appends_with_the_same_seq_wins(alice: Player):
    game = game_create(player=alice, variant="sultan", seed=2024)
    state = None
    for round_ in range(ROUNDS):
        token = "draw" if state is None else greedy_move(state)

        def attempt(i: int, r: int = round_, t: str = token) -> AppendResult:
            return game_append_move(
                game_id=game.pk, player=alice, token=t, client_move_id=f"r{r}-t{i}", expected_seq=r
            )

        outcomes = _race_threads(attempt)
        winners = [o for o in outcomes if isinstance(o, AppendResult)]
        losers = [o for o in outcomes if isinstance(o, MoveRejected)]
        assert len(winners) == 1
        assert winners[0].seq == round_ + 1
        assert len(losers) == THREADS - 1
        assert {loser.code for loser in losers} == {"conflict"}
        assert {loser.current_seq for loser in losers} == {round_ + 1}
        _assert_log_is_whole(game, round_ + 1)
        state = winners[0].state


def test_concurrent_retries_of_one_move_write_it_once(alice: Player):
    game = game_create(player=alice, variant="sultan", seed=2024)
    outcomes = _race_threads(
        lambda i: game_append_move(
            game_id=game.pk, player=alice, token="draw", client_move_id="same", expected_seq=0
        )
    )
    assert all(isinstance(o, AppendResult) for o in outcomes)
    results = [o for o in outcomes if isinstance(o, AppendResult)]
    assert Counter(r.duplicate for r in results) == Counter({False: 1, True: THREADS - 1})
    assert {(r.seq, r.state) for r in results} == {(1, results[0].state)}
    _assert_log_is_whole(game, 1)


def test_concurrent_appends_to_different_games_all_succeed(alice: Player):
    games = [game_create(player=alice, variant="sultan", seed=s) for s in range(THREADS)]
    outcomes = _race_threads(
        lambda i: game_append_move(
            game_id=games[i].pk, player=alice, token="draw", client_move_id="a", expected_seq=0
        )
    )
    assert all(isinstance(o, AppendResult) for o in outcomes)
    for game in games:
        _assert_log_is_whole(game, 1)

"""The scoring rule, and docs/tournaments.md's worked example applied as written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games.tournaments.points import RaceResult, race_points, scores_fold

T0 = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)
ALICE, BOB, CHARLIE, DAVE = 1, 2, 3, 4


def result(
    player: int,
    place: int,
    racers: int,
    minute: int,
    *,
    won: bool = False,
    cards_played: int = 40,
    ranked: bool = True,
) -> RaceResult:
    ended_at = T0 + timedelta(minutes=minute)
    return RaceResult(player, place, racers, won, cards_played, ranked, ended_at)


def test_first_of_n_gets_n_and_last_gets_one() -> None:
    assert race_points(result(ALICE, 1, 4, 1), streak_before=0) == 4
    assert race_points(result(ALICE, 4, 4, 1), streak_before=0) == 1


def test_a_resign_at_no_card_up_earns_nothing_even_when_placed() -> None:
    assert race_points(result(ALICE, 1, 2, 1, cards_played=0), streak_before=0) == 0


def test_a_won_deal_doubles_and_fire_doubles_again() -> None:
    assert race_points(result(ALICE, 1, 3, 1, won=True, cards_played=104), streak_before=0) == 6
    assert race_points(result(ALICE, 1, 3, 1, won=True, cards_played=104), streak_before=2) == 12


def test_an_unranked_result_earns_nothing() -> None:
    assert race_points(result(ALICE, 1, 3, 1, ranked=False), streak_before=5) == 0


def test_the_worked_example_of_docs_tournaments_md() -> None:
    joined = {ALICE: T0, BOB: T0 + timedelta(seconds=1), CHARLIE: T0 + timedelta(seconds=2)}
    joined[DAVE] = T0 + timedelta(seconds=3)
    results = [
        # Race 1 (minute 5): alice 1st, bob 2nd, charlie 3rd of 3.
        result(ALICE, 1, 3, 5),
        result(BOB, 2, 3, 5),
        result(CHARLIE, 3, 3, 5),
        # Race 2 (minute 9): alice 1st of 2 over dave.
        result(ALICE, 1, 2, 9),
        result(DAVE, 2, 2, 9),
        # Race 3 (minute 12): alice, on fire, wins the deal, 1st of 3.
        result(ALICE, 1, 3, 12, won=True, cards_played=104),
        result(CHARLIE, 2, 3, 12),
        result(BOB, 3, 3, 12),
        # Race 4 (minute 14): bob 1st of 2 over charlie.
        result(BOB, 1, 2, 14),
        result(CHARLIE, 2, 2, 14),
    ]
    table = scores_fold(joined=joined, results=results)
    assert [(s.player, s.points, s.races, s.firsts, s.streak) for s in table] == [
        (ALICE, 3 + 2 + 12, 3, 3, 3),
        (BOB, 2 + 1 + 2, 3, 1, 1),
        (CHARLIE, 1 + 2 + 1, 3, 0, 0),
        (DAVE, 1, 1, 0, 0),
    ]
    assert table[0].race_points == [3, 2, 12]


def test_equal_points_are_parted_by_first_places_then_by_who_got_there_first() -> None:
    joined = {ALICE: T0, BOB: T0, CHARLIE: T0}
    results = [
        result(ALICE, 2, 3, 1),  # 2
        result(BOB, 1, 2, 2),  # 2, a first place
        result(CHARLIE, 2, 3, 3),  # 2, later than alice
    ]
    table = scores_fold(joined=joined, results=results)
    assert [s.player for s in table] == [BOB, ALICE, CHARLIE]

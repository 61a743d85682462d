"""The daily deal: one attempt a day, its leaderboard, streaks and the share text."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone, translation

from games.daily.models import DailyAttempt
from games.daily.rules import daily_seed, daily_today
from games.daily.selectors import (
    DailyResult,
    daily_leaderboard,
    daily_player_results,
    daily_share_text,
    daily_streaks,
)
from games.daily.services import DailyRefused, daily_attempt_start
from games.models import Game, Player, Race, RaceStatus
from games.moderation.services import game_void
from tests.daily.helpers import attempt, deal_won_game, play, play_some, resign
from tests.sealed import shows_number

pytestmark = pytest.mark.django_db
CARD_IN_TEXT = re.compile(r"\b[A2-9TJQK][CDHS]\b")


def test_an_attempt_is_a_started_race_of_one_on_the_days_secret_deal(alice: Player):
    taken = attempt(alice)
    race = taken.race
    assert race.status == RaceStatus.RUNNING
    assert race.starts_at is not None
    assert race.seed == daily_seed(day=daily_today(), variant="sultan")
    assert not race.open_deal
    assert race.secret_until is not None
    assert list(Game.objects.filter(race=race)) == [taken.game]
    assert taken.game.player == alice


def test_a_started_attempt_counts_and_taking_it_again_resumes_it(alice: Player):
    first = daily_attempt_start(player=alice, variant="sultan")
    play_some(first.attempt.game, 3)
    again = daily_attempt_start(player=alice, variant="sultan")
    assert again.resumed
    assert again.attempt.pk == first.attempt.pk
    assert DailyAttempt.objects.filter(player=alice).count() == 1
    resign(first.attempt.game)
    assert daily_attempt_start(player=alice, variant="sultan").attempt.pk == first.attempt.pk


def test_each_variant_has_its_own_attempt(alice: Player):
    assert attempt(alice, "sultan").race.seed != attempt(alice, "sultan-8").race.seed


def test_it_refuses_an_unknown_variant_and_a_banned_player(alice: Player):
    with pytest.raises(DailyRefused):
        daily_attempt_start(player=alice, variant="klondike")
    Player.objects.filter(pk=alice.pk).update(banned_at=timezone.now())
    alice.refresh_from_db()
    with pytest.raises(DailyRefused):
        daily_attempt_start(player=alice, variant="sultan")
    assert not Race.objects.exists()


def play_cards(taken: DailyAttempt, cards: int) -> Game:
    """The golden data's winning line on the attempt's race, up to `cards` cards up."""
    tokens = deal_won_game(taken.race)
    ups = [i for i, token in enumerate(tokens) if token[-1].isdigit()]
    return play(taken.game, tokens[: ups[cards - 1] + 1])


def test_the_leaderboard_ranks_like_a_race(alice: Player, bob: Player, charlie: Player):
    won = attempt(charlie)
    play(won.game, deal_won_game(won.race))  # charlie wins (a deal of the golden data)
    # Alice and bob get the same deal, not today's: on some days' deals the
    # first few moves put no more cards up than two moves do.
    most = resign(play_cards(attempt(alice), 6))
    fewer = resign(play_cards(attempt(bob), 2))
    assert (most.cards_played, fewer.cards_played) == (6, 2)
    board = daily_leaderboard(day=daily_today(), variant="sultan")
    assert [s.nickname for s in board] == ["charlie", "alice", "bob"]
    assert board[0].status == "won"
    assert board[0].cards_played == 95
    assert all(s.time_ms is not None and s.time_ms >= 0 for s in board)


def test_a_voided_attempt_leaves_the_leaderboard(alice: Player, bob: Player, moderator):
    resign(play_some(attempt(alice).game, 3))
    gone = resign(play_some(attempt(bob).game, 4))
    game_void(game=gone, moderator=moderator, reason="test")
    assert [s.nickname for s in daily_leaderboard(day=daily_today(), variant="sultan")] == ["alice"]


def test_streaks_count_days_in_a_row_played_and_won(alice: Player):
    today = daily_today()
    for back in (4, 2, 1, 0):  # a gap three days ago
        day = datetime.combine(today - timedelta(days=back), datetime.min.time(), tzinfo=UTC)
        taken = attempt(alice, now=day + timedelta(hours=12))
        if back in (4, 1, 0):
            play(taken.game, deal_won_game(taken.race))
        else:
            resign(taken.game)
    streaks = daily_streaks(player=alice, today=today)
    assert (streaks.played, streaks.won, streaks.best_played, streaks.best_won) == (3, 2, 3, 2)
    # Today not played yet: yesterday's run still stands.
    assert daily_streaks(player=alice, today=today + timedelta(days=1)).played == 3
    assert daily_streaks(player=alice, today=today + timedelta(days=2)).played == 0


def test_a_players_daily_results_by_day(alice: Player):
    today = daily_today()
    yesterday = datetime.combine(today - timedelta(days=1), datetime.min.time(), tzinfo=UTC)
    resign(play_some(attempt(alice, now=yesterday + timedelta(hours=1)).game, 2))
    attempt(alice)
    results = daily_player_results(player=alice)
    assert [(r.day, r.over) for r in results] == [(today, False), (yesterday.date(), True)]
    assert daily_player_results(player=alice, since=today) == results[:1]
    assert daily_player_results(player=alice, until=yesterday.date()) == results[1:]


def test_the_share_text_tells_the_result_and_never_a_card(alice: Player):
    taken = attempt(alice)
    play(taken.game, deal_won_game(taken.race))
    standing = daily_leaderboard(day=daily_today(), variant="sultan")[0]
    with translation.override("en"):  # the wording checked below is the English one
        text = daily_share_text(
            result=DailyResult(daily_today(), "sultan", standing),
            variant_label="Sultan",
            url="https://sultan.example/daily/",
        )
    assert "Won" in text
    assert "95/95 cards" in text
    assert "https://sultan.example/daily/" in text
    assert re.search(r"\d+:\d\d", text)
    assert not CARD_IN_TEXT.findall(text)
    assert not shows_number(text, taken.race.seed)


def test_a_guests_attempt_follows_them_into_their_account_unless_it_has_one(alice: Player):
    from games.accounts.services import player_create_guest, player_take_guest_games

    guest = player_create_guest(nickname="guest")
    mine = attempt(guest, "sultan")
    other = attempt(guest, "sultan-8")
    attempt(alice, "sultan-8")  # the account took that one already
    assert alice.user is not None
    player_take_guest_games(guest=guest, user=alice.user)
    assert DailyAttempt.objects.get(pk=mine.pk).player == alice
    assert Game.objects.get(pk=mine.game_id).player == alice
    assert DailyAttempt.objects.get(pk=other.pk).player == guest
    assert DailyAttempt.objects.filter(player=alice).count() == 2

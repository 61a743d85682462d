"""The daily deal's all-time records on the leaderboard: days that are over only,
each player's best, voided games out, and the page never tells a running day."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from games.daily.models import DailyAttempt
from games.daily.records import daily_records
from games.daily.rules import daily_last_day_over, daily_today
from games.daily.selectors import daily_judged_mark
from games.models import Game, Player
from games.moderation.services import game_reinstate, game_void
from tests.daily.helpers import attempt, deal_won_game, play, play_some, resign
from tests.pages.helpers import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


def _on(day: date) -> datetime:
    return datetime.combine(day, time(12), tzinfo=UTC)


def _won(player: Player, day: date, time_ms: int) -> DailyAttempt:
    taken = attempt(player, now=_on(day))
    play(taken.game, deal_won_game(taken.race))
    # The time the win took: set, as a slower or quicker player's would be.
    Game.objects.filter(pk=taken.game_id).update(count_reached_ms=time_ms)
    return taken


def _lost(player: Player, day: date) -> DailyAttempt:
    taken = attempt(player, now=_on(day))
    resign(play_some(taken.game, 2))
    return taken


def test_it_counts_only_days_that_are_over(alice: Player, bob: Player):
    over = daily_last_day_over()
    _won(alice, over, 200_000)
    _won(bob, daily_today(), 100_000)  # today's: secret, and not final
    records = daily_records(variant="sultan")
    assert records.through == over
    assert [(r.holder.nickname, r.time_ms, r.day) for r in records.fastest] == [
        ("alice", 200_000, over)
    ]
    assert [(r.holder.nickname, r.wins) for r in records.most_wins] == [("alice", 1)]


def test_it_lists_each_players_best_time_fastest_first(alice: Player, bob: Player):
    over = daily_last_day_over()
    _won(alice, over - timedelta(days=3), 300_000)
    _won(alice, over - timedelta(days=1), 250_000)
    _won(bob, over - timedelta(days=2), 280_000)
    _lost(bob, over)
    records = daily_records(variant="sultan")
    assert [(r.holder.nickname, r.time_ms) for r in records.fastest] == [
        ("alice", 250_000),
        ("bob", 280_000),
    ]
    assert [(r.holder.nickname, r.wins, r.played) for r in records.most_wins] == [
        ("alice", 2, 2),
        ("bob", 1, 2),
    ]
    assert daily_records(variant="sultan-8").fastest == []


def test_a_streak_is_won_days_in_a_row_and_a_gap_or_a_loss_ends_it(alice: Player, bob: Player):
    over = daily_last_day_over()
    for back in (6, 5, 4, 2, 1):  # 3 in a row, a gap, then 2
        _won(alice, over - timedelta(days=back), 400_000)
    _won(bob, over - timedelta(days=2), 400_000)
    _lost(bob, over - timedelta(days=1))
    _won(bob, over, 400_000)
    streaks = daily_records(variant="sultan").streaks
    assert [(s.holder.nickname, s.days, s.first, s.last) for s in streaks] == [
        ("alice", 3, over - timedelta(days=6), over - timedelta(days=4))
    ]


def test_a_void_takes_a_record_away_and_a_reinstatement_gives_it_back(
    alice: Player, bob: Player, moderator: User
):
    over = daily_last_day_over()
    quick = _won(alice, over, 100_000)
    _won(bob, over, 200_000)
    assert daily_records(variant="sultan").fastest[0].holder.nickname == "alice"
    game_void(game=quick.game, moderator=moderator, reason="a bot")
    assert [r.holder.nickname for r in daily_records(variant="sultan").fastest] == ["bob"]
    game_reinstate(game=quick.game, moderator=moderator, reason="cleared")
    assert daily_records(variant="sultan").fastest[0].holder.nickname == "alice"


def test_a_void_folds_the_records_again_before_anyone_views_them(
    alice: Player, moderator: User, django_capture_on_commit_callbacks
):
    over = daily_last_day_over()
    quick = _won(alice, over, 100_000)
    daily_records(variant="sultan")
    with django_capture_on_commit_callbacks(execute=True):
        game_void(game=quick.game, moderator=moderator, reason="a bot")
    # Kept under the void's mark already: the next view reads it, folds nothing.
    kept = cache.get(f"daily-records:sultan:{over.isoformat()}:{daily_judged_mark()}")
    assert kept is not None
    assert kept["fastest"] == []


def test_the_leaderboard_shows_the_records_and_never_today(alice: Player, bob: Player):
    over = daily_last_day_over()
    yesterdays = _won(alice, over, 123_400)
    todays = _won(bob, daily_today(), 99_000)
    page = client_for(bob).get("/leaderboard/").content.decode()
    assert 'id="daily-records"' in page
    assert "2:03.4" in page
    assert f"/games/{yesterdays.game_id}/replay/" in page
    assert f"/daily/{over.isoformat()}/" in page
    assert f"/games/{todays.game_id}/replay/" not in page
    assert "1:39.0" not in page


def test_a_profile_shows_the_players_daily_streaks(alice: Player, bob: Player):
    over = daily_last_day_over()
    for back in (2, 1, 0):
        _won(alice, over - timedelta(days=back), 300_000)
    _lost(alice, daily_today())
    assert alice.user is not None
    page = client_for(bob).get(f"/@/{alice.user.username}/").content.decode()
    # Played today, yesterday... (4 days in a row: today's attempt counts once taken).
    streak = 'data-streak="{}">{}<'
    assert streak.format("best_won", 3) in page
    assert streak.format("won", 0) in page  # today's loss ended the run
    assert bob.user is not None
    empty = client_for(alice).get(f"/@/{bob.user.username}/").content.decode()
    assert 'data-streak="played"' not in empty
    assert "No daily deal played yet" in empty


def test_a_profile_offers_no_replay_of_todays_attempt(alice: Player, bob: Player):
    today = _lost(alice, daily_today())
    over = _lost(alice, daily_last_day_over())
    assert alice.user is not None
    page = client_for(bob).get(f"/@/{alice.user.username}/").content.decode()
    assert f"/games/{over.game_id}/replay/" in page
    assert f"/games/{today.game_id}/replay/" not in page


def test_a_past_days_page_closes_an_attempt_left_running_and_ranks_it(alice: Player, bob: Player):
    from django.utils import timezone

    from games.models import Race

    day = daily_today() - timedelta(days=3)
    left = attempt(alice, now=_on(day))
    play_some(left.game, 2)
    ago = timezone.now() - timedelta(minutes=20)
    Race.objects.filter(pk=left.race_id).update(starts_at=ago, ends_at=ago + timedelta(minutes=15))
    page = client_for(bob).get(f"/daily/{day.isoformat()}/").content.decode()
    left.game.refresh_from_db()
    assert left.game.status == "timeout"
    assert "alice" in page


def test_a_profile_names_a_daily_attempt_rather_than_a_place_in_a_race_of_one(
    alice: Player, bob: Player
):
    over = _lost(alice, daily_last_day_over())
    assert alice.user is not None
    page = client_for(bob).get(f"/@/{alice.user.username}/").content.decode()
    assert f'href="/daily/{over.day.isoformat()}/?variant=sultan"' in page
    assert "daily deal of" in page
    assert "1 of 1" not in page
    assert f"/r/{over.race.code}/" not in page

"""Writes for a race's games: a racer's move, a racer's time running out, the race's end.

A move is checked in two rooms, in one transaction: the store locks the
game's log and checks the move against it (whose game, the seq, the client
move id, the game's status: games/store/append.py); the race then takes its
next version under its row's lock and checks the race (running, started, not
out of time), the store's planner turns the move into events
(games/store/plan.py) and the store appends them; last, the race writes the
move's announcement (games/races/outbox.py). The store calls nothing here.

Lock order, as every writer that takes both: the game's row, then the race's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import GameState, race_view
from games.models import Game, GameStatus, Player, Race, RaceStatus
from games.races import protocol
from games.races.models import RaceStanding
from games.races.outbox import RaceRow, bump_race, race_change, race_event_record
from games.races.selectors import (
    race_info,
    race_progress_version,
    race_results,
    standings_as_dicts,
    standings_tied,
)
from games.races.signals import race_finished_after_commit
from games.store.append import (
    AppendResult,
    MoveRejected,
    OpenLog,
    game_close_on_time,
    game_log_append,
    game_log_open,
    game_log_writing,
)
from games.store.plan import move_plan


@dataclass(frozen=True, slots=True)
class RaceMove:
    append: AppendResult
    # The race's version this move took; for a duplicate, the one its first
    # answer took, None once gone from the race's history.
    version: int | None
    ended: bool  # this move ended the race


def race_move(
    *,
    race_id: int,
    game_id: int,
    player: Player,
    token: str,
    client_move_id: str,
    expected_seq: int,
) -> RaceMove:
    """A racer's move (or `resign`, `finish`) in their game of the race (see `race_game_id`).

    Refused (MoveRejected), in order: what the store refuses of any move (see
    `game_log_open`), a game of another race, a race not running (finished, not
    started, out of time), what the rules refuse. An accepted move, with the
    automatic moves the race plays after it, takes one version of the race.
    """
    with game_log_writing(game_id=game_id):
        log = game_log_open(
            game_id=game_id,
            player=player,
            token=token,
            client_move_id=client_move_id,
            expected_seq=expected_seq,
        )
        if log.game.race_id != race_id:
            raise MoveRejected("forbidden", _("this is not your game"), log.seq)
        accepted = (
            None if log.answered is not None else _race_append(log, player, token, client_move_id)
        )
    if accepted is None:
        assert log.answered is not None
        seq = log.answered.seq
        version = race_progress_version(race_id=race_id, player_id=player.pk, seq=seq)
        return RaceMove(log.answered, version, ended=False)
    append, version = accepted
    ended = append.state.is_over and race_close_if_over(race_id=race_id)
    return RaceMove(append, version, ended)


def _race_append(
    log: OpenLog, player: Player, token: str, client_move_id: str
) -> tuple[AppendResult, int]:
    """Check the race, plan the move, append it and announce it, under the game's lock."""
    assert log.game.race_id is not None
    race_id = log.game.race_id
    now = timezone.now()
    # The game's row is locked: the race's now, the order every writer locks them in.
    race = bump_race(race_id)
    _race_gate(race, now, log.seq)
    steps = move_plan(log=log, token=token, automatic_moves=race.automatic_moves)
    append = game_log_append(
        log=log, token=token, steps=steps, client_move_id=client_move_id, now=now
    )
    # One version for the player's move and the server's after it: the race
    # hears of them together, as the player's answer tells of them.
    _announce_progress(race_id, race.version, player.pk, append.seq, append.state)
    return append, race.version


def _race_gate(race: RaceRow, now: datetime, current_seq: int) -> None:
    if race.status == RaceStatus.FINISHED:
        raise MoveRejected("finished", _("the race is over"), current_seq)
    if race.status != RaceStatus.RUNNING or race.starts_at is None or now < race.starts_at:
        raise MoveRejected("not_started", _("the race has not started"), current_seq)
    if now >= race.starts_at + timedelta(seconds=race.time_limit_s):
        raise MoveRejected("too_late", _("the race's time is up"), current_seq)


def _announce_progress(
    race_id: int, version: int, player_id: int, seq: int, state: GameState
) -> None:
    message = protocol.progress(version=version, player=player_id, seq=seq, view=race_view(state))
    race_event_record(race_id=race_id, message=message)


def race_game_time_out(*, race_id: int, game_id: int) -> bool:
    """Close one racer's game as it stands, a `timeout` event, while the race runs on:
    its racer made no move in the time their tournament allows
    (games/tournaments/pairing.py). The others hear it as progress; the race ends if
    it was its last game still open. True if this call closed the game."""
    with transaction.atomic():
        if not Game.objects.filter(pk=game_id, race_id=race_id).exists():
            return False
        closed = game_close_on_time(game_id=game_id, now=timezone.now())
        if closed is not None:
            # After the game's row, as every writer locks them.
            version = bump_race(race_id).version
            _announce_progress(race_id, version, closed.player_id, closed.seq, closed.state)
    if closed is not None:
        race_close_if_over(race_id=race_id)
    return closed is not None


def race_close_if_over(*, race_id: int) -> bool:
    """End a running race whose games are all over or whose time is up.

    Unfinished games are closed as they stand with a `timeout` event in their
    log. True only for the call that ended it, so one caller announces it.
    """
    now = timezone.now()
    with transaction.atomic():
        # Games before races: the order every writer locks them in.
        open_games = list(
            Game.objects.select_for_update()
            .filter(race_id=race_id, status=GameStatus.PLAYING)
            .order_by("pk")
        )
        race = Race.objects.select_for_update().filter(pk=race_id).first()
        if race is None or race.status != RaceStatus.RUNNING:
            return False
        assert race.ends_at is not None
        if open_games and now < race.ends_at:
            return False
        for game in open_games:
            game_close_on_time(game_id=game.pk, now=now)
        race.status = RaceStatus.FINISHED
        race.finished_at = now
        race.save(update_fields=["status", "finished_at"])
        race_standings_write(race=race)
        # Before the end's announcement, whose publishing is also run on commit, in
        # the order registered: a racer who sees the results and opens a profile
        # finds the ratings this race moved already there.
        race_finished_after_commit(race_id=race.pk)
        race_change(race_id=race.pk, message=lambda v: end_message(race=race, version=v))
    return True


def race_standings_write(*, race: Race) -> None:
    """Keep a finished race's ranking (games.races.models), afresh from its logs.

    A challenge's recorded game is ranked in the race's results but kept only by
    its own race: a game has one standing, in the race it was played in."""
    RaceStanding.objects.filter(race=race).delete()
    rows, place = [], 1
    standings = [standing for standing in race_results(race=race) if not standing.ghost]
    for rank, standing in enumerate(standings, start=1):
        if rank > 1 and not standings_tied(standings[rank - 2], standing):
            place = rank
        rows.append(RaceStanding(race=race, game_id=standing.game, rank=rank, place=place))
    RaceStanding.objects.bulk_create(rows)


def end_message(*, race: Race, version: int) -> dict[str, object]:
    race.version = version
    results = standings_as_dicts(race_results(race=race))
    return protocol.end(version=version, race=race_info(race=race), results=results)

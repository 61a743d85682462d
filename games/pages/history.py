"""Reads for a player's own pages: history rows, statistics, recent races, open games.

Statistics count finished games only (won, lost, resigned or timed out) and
leave voided ones out: a result a moderator voided is no result. A game's time
runs from its start (a race game's from the race's start) to its finish.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import QuerySet

from games.models import Game, Player, Race, RaceEntry, RaceStatus
from games.store.selectors import game_record_visible, race_has_ended
from games.store.tally import ANNOTATION, game_move_count, moves_on_table


def player_games(*, player: Player) -> QuerySet[Game]:
    """Every game of the player, newest first, with its race at hand."""
    return (
        Game.objects.filter(player=player)
        .select_related("race")
        .annotate(**{ANNOTATION: moves_on_table()})
        .order_by("-created_at", "-pk")
    )


@dataclass(frozen=True, slots=True)
class HistoryRow:
    game: Game
    deal: int | None  # None while the deal is still secret (a race not yet over)
    duration: timedelta | None
    replay_open: bool
    can_continue: bool  # an unfinished practice game: the player may take it up again
    race_open: bool  # a race game whose race is still on

    @property
    def moves(self) -> int:
        return game_move_count(game=self.game)


def history_rows(*, games: list[Game], player: Player) -> list[HistoryRow]:
    rows = []
    for game in games:
        visible = game_record_visible(game=game, viewer=player)
        practice = game.race is None
        race_open = game.race is not None and not race_has_ended(race=game.race)
        # The player picked a practice deal (it is in the page's address): theirs to see.
        rows.append(
            HistoryRow(
                game=game,
                deal=game.seed if visible or practice else None,
                duration=game_duration(game=game),
                replay_open=visible,
                can_continue=practice and not game.is_over,
                race_open=race_open,
            )
        )
    return rows


def game_duration(*, game: Game) -> timedelta | None:
    if game.started_at is None or game.finished_at is None:
        return None
    return max(game.finished_at - game.started_at, timedelta(0))


@dataclass(frozen=True, slots=True)
class RaceRow:
    race: Race
    joined_at: datetime
    state: str  # lobby, running or finished, as the player would put it
    game: Game | None

    @property
    def replay_open(self) -> bool:
        return self.state == "finished" and self.game is not None


def player_recent_races(*, player: Player, limit: int = 6) -> list[RaceRow]:
    """The races the player sat in (and did not leave before the start), newest first."""
    entries = (
        RaceEntry.objects.filter(player=player)
        .select_related("race")
        .order_by("-race__created_at", "-race__pk")
    )
    games = {g.race_id: g for g in Game.objects.filter(player=player, race__isnull=False)}
    rows: list[RaceRow] = []
    for entry in entries:
        game = games.get(entry.race_id)
        if game is None and not entry.seated:
            continue
        rows.append(RaceRow(entry.race, entry.joined_at, _race_state(entry.race), game))
        if len(rows) == limit:
            break
    return rows


def _race_state(race: Race) -> str:
    if race_has_ended(race=race):
        return "finished"
    return "lobby" if race.status == RaceStatus.LOBBY else "running"

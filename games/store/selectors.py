"""Reads: game states through the position cache, logs, records, timing, races."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from games.engine import GameState, IllegalMove, InvalidMove
from games.engine.positions import TIMEOUT, Position, advance
from games.models import (
    GAME_SWITCHES,
    Game,
    ModerationAction,
    Move,
    Player,
    Race,
    RaceStatus,
)
from games.store.cache import Stamp, positions
from games.store.records import render_record
from games.store.timing import Timing, elapsed_ms, summarize


class LogCorrupted(Exception):
    """A stored log that does not replay: only tampering outside the store can cause it."""


class RecordHidden(Exception):
    """The viewer may not see this game's deal and moves (yet)."""


def game_moves(*, game: Game) -> QuerySet[Move]:
    return Move.objects.filter(game=game).order_by("seq")


def players_own(moves: QuerySet[Move]) -> QuerySet[Move]:
    """The events a player made: what timing statistics and anti-cheat judge.

    The server's events are left out: automatic moves and Finish (the player
    asked once; the server chose the moves) and the `timeout` that closes a
    race game at the race's end. Their times say nothing about a player.
    """
    return moves.exclude(automatic=True).exclude(token=TIMEOUT)


def game_position(*, game: Game, seq: int | None = None) -> Position:
    """The position after event `seq` (default: the last), replaying only what it must."""
    return game_position_at(
        game_id=game.pk,
        seed=game.seed,
        variant=game.variant,
        race=game.race_id,
        seq=game.last_seq if seq is None else seq,
    )


def game_position_at(
    *, game_id: int, seed: int, variant: str, race: int | None, seq: int
) -> Position:
    """As `game_position`, from the game's identity alone (the append path has no model).

    Starts from the cached position for `seq`, else the nearest cached one
    below it, else the deal; reads the log rows from there in one query,
    checks the cached entry's stamp against its row, and replays the rest.
    """
    target = seq
    if target == 0:
        return Position.start(seed, variant)  # the deal: no log to read (every racer at the start)
    entry = positions.best(game_id, target, seed, variant)
    if entry is not None and entry.seq == target and entry.stamp is None:
        return entry.position  # committed rows of this very log: nothing to read
    base_seq = entry.seq if entry is not None else 0
    rows = list(
        Move.objects.filter(game_id=game_id, seq__gte=max(base_seq, 1), seq__lte=target)
        .order_by("seq")
        .values_list("pk", "seq", "token", "accepted_at")
    )
    position = Position.start(seed, variant)
    if entry is not None:
        first = rows[0] if rows else None
        if first is None or first[1] != base_seq or not _stamp_matches(entry.stamp, first):
            # Not this log's row: a rolled-back append or a reused id. Start over.
            positions.discard(game_id, base_seq)
            return game_position_at(
                game_id=game_id, seed=seed, variant=variant, race=race, seq=target
            )
        position = entry.position
        rows = rows[1:]
    if len(rows) != target - base_seq:
        raise LogCorrupted(f"game #{game_id}: events {base_seq + 1}..{target} are not all there")
    take_backs = race is None
    for _, number, token, _ in rows:
        try:
            position, _ = advance(position, token, take_backs=take_backs)
        except (InvalidMove, IllegalMove) as error:
            raise LogCorrupted(f"game #{game_id}, event {number} ({token}): {error}") from None
    if rows:
        positions.count_replayed(len(rows))
        pk, _, _, accepted_at = rows[-1]
        positions.put(game_id, target, position, (pk, accepted_at))
    return position


def _stamp_matches(stamp: Stamp | None, row: tuple[int, int, str, datetime]) -> bool:
    # Unstamped entries are put only after commit: the row being there is enough.
    return stamp is None or stamp == (row[0], row[3])


def game_state(*, game: Game) -> GameState:
    """The state the game's log leads to (status `resigned` after a resignation)."""
    return game_position(game=game).state


def race_has_ended(*, race: Race, now: datetime | None = None) -> bool:
    if race.status == RaceStatus.FINISHED:
        return True
    now = now or timezone.now()
    if race.ends_at is not None and now >= race.ends_at:
        return True
    return (
        race.status == RaceStatus.RUNNING
        and race.starts_at is not None
        and now >= race.starts_at + timedelta(seconds=race.time_limit_s)
    )


def race_deal_sealed(*, race: Race, now: datetime | None = None) -> bool:
    """Is a race's secret deal still secret? The one rule every channel asks
    (race info, replays, records, the admin, hints and analyses through
    `deal_raced_now`): until the race has ended, and past that until its
    `secret_until` (a daily deal's race: the end of the day for everyone;
    a challenge on it: the same moment)."""
    now = now or timezone.now()
    if _sealed_by_itself(race, now):
        return True
    # A challenge's race shares its deal with every other attempt at the same
    # recorded game: while one of them still plays a deal never published, this
    # one's end must not publish it (its replay is reachable by id).
    return race.ghost_id is not None and _deal_played_unpublished(race, now)


def _sealed_by_itself(race: Race, now: datetime) -> bool:
    if not race_has_ended(race=race, now=now):
        return True
    if race.status == RaceStatus.FINISHED and race.starts_at is None:
        # A lobby closed before its start (races/services.race_close): nobody saw its
        # deal, and publishing it would hand out a secret deal's number for the
        # price of opening and closing a lobby.
        return True
    return race.secret_until is not None and now < race.secret_until


# A challenge on an attempt at a challenge ... is a chain; links past this are sealed.
_GHOST_CHAIN_MAX = 16


def _deal_played_unpublished(race: Race, now: datetime) -> bool:
    if _ghost_deal_published(race, now):
        return False
    return deal_in_sealed_race(seed=race.seed, variant=race.variant, now=now, besides=race.pk)


def deal_in_sealed_race(
    *, seed: int, variant: str, now: datetime | None = None, besides: int | None = None
) -> bool:
    """Does a race (other than `besides`) play this deal, or keep it sealed past its end?"""
    others = Race.objects.filter(seed=seed, variant=variant)
    if besides is not None:
        others = others.exclude(pk=besides)
    # The two partial indexes on the deal (race_deal_not_finished, race_deal_sealed).
    if others.exclude(status=RaceStatus.FINISHED).exists():
        return True
    when = now or timezone.now()
    return others.filter(secret_until__isnull=False, secret_until__gt=when).exists()


def _ghost_deal_published(race: Race, now: datetime) -> bool:
    """Did the deal become public other than through an attempt: the recorded game
    a race of friends or a day's deal whose secret has run out (a practice game's
    deal is its player's alone)?"""
    ghost_id = race.ghost_id
    for _ in range(_GHOST_CHAIN_MAX):
        if ghost_id is None:
            return False
        recorded = Race.objects.filter(games__pk=ghost_id).first()
        if recorded is None:
            return False  # a practice game
        if recorded.open_deal:
            return True
        if _sealed_by_itself(recorded, now):
            return False
        if recorded.ghost_id is None:
            return True
        ghost_id = recorded.ghost_id
    return False


def race_opens_when(*, race: Race) -> str:
    """When `race_deal_sealed` lets go, in words (the admin's pages)."""
    if race.secret_until is None:
        return gettext("the race ends")
    return gettext("the race ends and %(when)s UTC") % {
        "when": f"{race.secret_until:%Y-%m-%d %H:%M}"
    }


def game_record_visible(*, game: Game, viewer: Player | None) -> bool:
    """A race game's deal and moves are open to all once its race's deal is no
    longer sealed, never before; a practice game's to its player once it is over
    (while it is in play the deal would tell the stock's order)."""
    if game.race is not None:
        return not race_deal_sealed(race=game.race)
    return viewer is not None and viewer.pk == game.player_id and game.is_over


def race_deal_public(*, race: Race) -> bool:
    """An open deal's number is public from the start; a secret one once it is unsealed."""
    return race.open_deal or not race_deal_sealed(race=race)


def game_deal_open_to_moderators(*, game: Game) -> bool:
    """Moderators see a game's deal (its number, its record) once nobody can still
    play it unseen: a race game's once its race's deal is unsealed, a practice
    game's once it is over. Before that the deal would tell the stock's order to
    a browser."""
    if game.race is not None:
        return not race_deal_sealed(race=game.race)
    # A practice game over, unless a challenge on it is being raced: its challengers'
    # deal (a moderator may be one of them).
    return game.is_over and not deal_in_sealed_race(seed=game.seed, variant=game.variant)


def game_record(*, game: Game, viewer: Player | None, as_moderator: bool = False) -> str:
    """The game's text record (docs/record-format.md); RecordHidden when not allowed."""
    moderated = as_moderator and game_deal_open_to_moderators(game=game)
    if not moderated and not game_record_visible(game=game, viewer=viewer):
        raise RecordHidden(f"the record of game #{game.pk} is not open to this viewer")
    return game_record_text(game=game)


def game_record_text(*, game: Game) -> str:
    """The record whoever asks: for the operator's shell (`manage.py export_game`) only."""
    return render_record(game, game_moves(game=game), site=settings.SITE_NAME)


def game_timing(*, game: Game) -> Timing:
    times = list(players_own(game_moves(game=game)).values_list("accepted_at", flat=True))
    return summarize(times)


@dataclass(frozen=True, slots=True)
class Mismatch:
    game_id: int
    field: str
    stored: object
    replayed: object

    def __str__(self) -> str:
        return (
            f"game #{self.game_id}: {self.field} stored {self.stored!r},"
            f" log gives {self.replayed!r}"
        )


def game_projection_mismatches(*, game: Game) -> list[Mismatch]:
    """Replay the whole log from the deal, bypassing the cache, and compare."""
    moves = list(game_moves(game=game).values_list("seq", "token", "accepted_at"))
    found: list[Mismatch] = []

    def differs(field: str, stored: object, replayed: object) -> None:
        if stored != replayed:
            found.append(Mismatch(game.pk, field, stored, replayed))

    if game.race is not None:
        differs("seed", game.seed, game.race.seed)
        differs("variant", game.variant, game.race.variant)
    differs("seqs", [seq for seq, _, _ in moves], list(range(1, len(moves) + 1)))
    position = Position.start(game.seed, game.variant)
    final_at = None
    played, reached_at = 0, None
    for seq, token, accepted_at in moves:
        try:
            position, _ = advance(position, token, take_backs=game.race_id is None)
        except (InvalidMove, IllegalMove) as error:
            found.append(Mismatch(game.pk, f"event {seq} ({token})", "in the log", str(error)))
            return found
        if position.state.is_over and final_at is None:
            final_at = accepted_at
        if position.state.cards_played != played:
            played, reached_at = position.state.cards_played, accepted_at
    differs("last_seq", game.last_seq, len(moves))
    differs("status", game.status, position.status)
    differs("cards_played", game.cards_played, position.state.cards_played)
    differs("finished_at", game.finished_at, final_at)
    differs("count_reached_ms", game.count_reached_ms, elapsed_ms(reached_at, game.started_at))
    actions = list(
        ModerationAction.objects.filter(game=game).order_by("pk").values_list("action", flat=True)
    )
    switched = {"voided": False, "flagged": False}
    for act in actions:  # a fold in log order: the latest act on a field decides it
        if act in GAME_SWITCHES:
            field, on = GAME_SWITCHES[act]
            switched[field] = on
    for field, on in switched.items():
        differs(field, getattr(game, field), on)
    return found


def player_game(*, player: Player | None, game_id: int) -> Game | None:
    """The game, if it is this player's: someone else's and none at all look the same."""
    if player is None:
        return None
    return Game.objects.select_related("race").filter(pk=game_id, player=player).first()

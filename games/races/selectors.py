"""Reads for races: who is in it, how far each racer is, and the ranking.

The ranking is computed from the games' logs, never from anything a client
said: winners first by finishing time, then by cards played (more first),
ties by the time the racer reached that count.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Final

from django.db import connection, transaction
from django.db.models import Case, F, Q, Value, When
from django.db.models.expressions import OrderBy
from django.utils import timezone

from games.engine import race_view
from games.engine.dealcode import deal_code
from games.engine.positions import Position, walk_log, walk_steps
from games.metrics.definitions import SNAPSHOTS
from games.models import Game, GameStatus, Player, Race, RaceEntry, RaceEvent, RaceStatus
from games.races import protocol
from games.races.protocol import own_view
from games.store.selectors import (
    game_moves,
    game_position,
    game_state,
    race_deal_public,
)
from games.store.timing import elapsed_ms

# Versions a client may be behind and still be answered from the history.
HISTORY_LIMIT: Final = 300


def race_by_code(*, code: str) -> Race | None:
    return Race.objects.select_related("host").filter(code=code).first()


def race_seats_left(*, race: Race) -> int:
    """The seats `race` has free: its seat limit less the racers seated in it (an entry
    whose racer left holds none). The one home of "is there a seat": joining
    (services.race_join), the lobby's "add a bot" (views) and an invitation's lobby
    (friends.services) all ask it. Below zero only if more were seated than the limit
    allows, which race_join never lets happen."""
    seated = RaceEntry.objects.filter(race=race, left_at__isnull=True).count()
    return race.seat_limit - seated


def deal_raced_now(*, seed: int, variant: str) -> bool:
    """Does a race play this deal whose deal is still sealed (`race_deal_sealed`:
    not yet finished, or finished before its `secret_until`, as a daily deal's
    attempts are until the day is over)? Then no solver answer may come from it.

    An open deal's number is public, so anyone can deal it in practice; a
    secret one is matched too, should a practice game ever hit it.
    """
    races = Race.objects.filter(seed=seed, variant=variant)
    if races.exclude(status=RaceStatus.FINISHED).exists():
        return True
    # Index race_deal_sealed: only races that seal their deal past the end are looked at.
    sealed = races.filter(secret_until__isnull=False, secret_until__gt=timezone.now())
    return sealed.exists()


def race_role(*, race: Race, player: Player | None) -> str:
    """`racer` for a seated racer (or one with a game), else `spectator`."""
    if player is None:
        return "spectator"
    return _role(race, player, _games_by_player(race), _entries(race))


def _role(
    race: Race, player: Player | None, games: dict[int, Game], entries: list[RaceEntry]
) -> str:
    if player is None:
        return "spectator"
    if race.status == RaceStatus.LOBBY:
        racer = any(e.player_id == player.pk and e.seated for e in entries)
    else:
        racer = player.pk in games
    return "racer" if racer else "spectator"


def race_game_id(*, race_id: int, player: Player) -> int | None:
    game_id = Game.objects.filter(race_id=race_id, player=player).values_list("pk", flat=True)
    return game_id.first()


def race_racers(*, race: Race) -> list[dict[str, Any]]:
    """Everyone in the race as opponents and spectators may see them: no cards."""
    return _racers(race, _games_by_player(race), _entries(race))


def _games_by_player(race: Race) -> dict[int, Game]:
    return {g.player_id: g for g in Game.objects.filter(race=race)}


def _entries(race: Race) -> list[RaceEntry]:
    return list(RaceEntry.objects.filter(race=race).select_related("player"))


def _racers(race: Race, games: dict[int, Game], entries: list[RaceEntry]) -> list[dict[str, Any]]:
    rows = []
    for entry in entries:
        game = games.get(entry.player_id)
        if game is None and not entry.seated:
            continue
        rows.append(
            {
                "player": entry.player_id,
                "nickname": entry.player.nickname,
                "bot": entry.player.is_bot,
                "host": entry.player_id == race.host_id,
                "ready": entry.ready,
                "here": entry.connections > 0,
                "game": game.pk if game else None,
                # The seq its progress is at: progress frames that cross on the way
                # are told apart by it (docs/protocol.md).
                "seq": game.last_seq if game else None,
                "progress": race_view(game_state(game=game)) if game else None,
            }
        )
    return rows


def race_info(*, race: Race) -> dict[str, Any]:
    """The race's settings; the seed only once it may be known."""
    info: dict[str, Any] = {
        "code": race.code,
        "variant": race.variant,
        "status": race.status,
        "host": race.host_id,
        "open_deal": race.open_deal,
        "winnable_deal": race.winnable_deal,
        "public": race.public,
        "rated": race.rated,
        "time_limit_s": race.time_limit_s,
        "seat_limit": race.seat_limit,
        "starts_at": _iso(race.starts_at),
        "ends_at": _iso(race.ends_at),
        # A lobby closed before any start (races/services.race_close): nothing was played.
        "closed": race.status == RaceStatus.FINISHED and race.starts_at is None,
    }
    if race_deal_public(race=race):
        info["seed"] = str(race.seed)
        if not race.open_deal:  # an open deal is a deal number, shown as one (#33)
            info["deal_code"] = deal_code(race.seed)
    if race.status == RaceStatus.FINISHED:  # a rematch is opened only after the end
        rematch = Race.objects.filter(rematch_of=race).values_list("code", flat=True).first()
        if rematch:
            info["rematch"] = rematch
    return info


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    nickname: str
    game: int
    status: str
    cards_played: int
    # Milliseconds from the start: to the win, or to reaching the final count.
    time_ms: int | None
    moves: int
    ghost: bool = False  # the recorded game a challenge races against
    bot: bool = False  # a program's account (games.bots), shown as BOT


def race_results(*, race: Race) -> list[Standing]:
    """The ranking, replayed from every racer's log (and the recorded game's, in a challenge)."""
    games = list(Game.objects.filter(race=race).select_related("player"))
    standings = [_standing(game, race.starts_at) for game in games]
    if race.ghost_id is not None:
        ghost = Game.objects.select_related("player", "race").get(pk=race.ghost_id)
        standings.append(replace(_standing(ghost, game_origin(game=ghost)), ghost=True))
    return standings_ranked(standings)


def standings_ranked(standings: Iterable[Standing]) -> list[Standing]:
    """The race's ranking rule, the one home of it (races, daily deals, challenges):
    winners first by time; then more cards played first, then the earlier time
    that count was reached; then the game's id."""
    return sorted(standings, key=_rank_key)


def standings_tied(a: Standing, b: Standing) -> bool:
    """Equal by the ranking rule: only the game's id (an arbitrary order) parts them."""
    return _rank_key(a)[:3] == _rank_key(b)[:3]


def _rank_key(s: Standing) -> tuple[int, int, int, int]:
    never = 2**62
    if s.status == "won":
        return (0, s.time_ms if s.time_ms is not None else never, 0, s.game)
    return (1, -s.cards_played, s.time_ms if s.time_ms is not None else never, s.game)


def rank_order(*, game: str = "") -> list[OrderBy]:
    """The same rule for the database, over games' projections (`game` is the path
    to the Game, e.g. "game__"): a board of thousands (a daily deal's) sorts and
    pages there. Its time is Game.count_reached_ms, the time `_standing` replays."""
    won = Q(**{f"{game}status": GameStatus.WON})
    time = F(f"{game}count_reached_ms")
    return [
        Case(When(won, then=Value(0)), default=Value(1)).asc(),
        Case(When(won, then=time), default=Value(None)).asc(nulls_last=True),
        F(f"{game}cards_played").desc(),
        time.asc(nulls_last=True),
        F(f"{game}id").asc(),
    ]


def game_origin(*, game: Game) -> datetime:
    """A game's time zero: its race's start for a race game, else its own start."""
    if game.race is not None and game.race.starts_at is not None:
        return game.race.starts_at
    return game.started_at or game.created_at


def game_standing(*, game: Game) -> Standing:
    """One game's standing, timed from its own start (a challenge's ranking)."""
    return _standing(game, game_origin(game=game))


def _standing(game: Game, origin: datetime | None) -> Standing:
    log = game_moves(game=game).values_list("token", "accepted_at")
    walked = walk_log(game.seed, game.variant, log, take_backs=game.race_id is None)
    return Standing(
        player=game.player_id,
        nickname=game.player.nickname,
        game=game.pk,
        status=walked.position.status,
        cards_played=walked.position.state.cards_played,
        time_ms=elapsed_ms(walked.count_reached, origin),
        moves=walked.moves,
        bot=game.player.is_bot,
    )


def game_race_frames(*, game: Game, origin: datetime) -> list[dict[str, Any]]:
    """The game's race view whenever it changed, in milliseconds from `origin`: what
    opponents saw of it (heights and counts, never a card). The replay viewer's
    other racers, and a challenge's recorded game as a live opponent."""
    start = Position.start(game.seed, game.variant)
    frames = [{"t": 0, **race_view(start.state)}]
    log = game_moves(game=game).values_list("token", "accepted_at")
    for position, _, accepted_at in walk_steps(start, log, take_backs=game.race_id is None):
        frame = {"t": elapsed_ms(accepted_at, origin), **race_view(position.state)}
        if {**frame, "t": 0} != {**frames[-1], "t": 0}:
            frames.append(frame)
    return frames


def race_ghost(*, race: Race) -> dict[str, Any] | None:
    """A challenge's recorded game as the race page draws it: race views over time."""
    if race.ghost_id is None:
        return None
    ghost = Game.objects.select_related("player", "race").get(pk=race.ghost_id)
    return {
        # Not its game's id: a racer could open that game's replay (a race
        # game's is public once its race has ended) and read the deal.
        "player": "ghost",
        "nickname": ghost.player.nickname,
        "frames": game_race_frames(game=ghost, origin=game_origin(game=ghost)),
    }


def standings_as_dicts(standings: list[Standing]) -> list[dict[str, Any]]:
    return [
        {
            "rank": rank,
            "player": s.player,
            "nickname": s.nickname,
            "game": s.game,
            "status": s.status,
            "cards_played": s.cards_played,
            "time_ms": s.time_ms,
            "moves": s.moves,
            "ghost": s.ghost,
            "bot": s.bot,
        }
        for rank, s in enumerate(standings, start=1)
    ]


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def race_version(*, race_id: int) -> int:
    return int(Race.objects.filter(pk=race_id).values_list("version", flat=True).get())


@contextmanager
def _one_moment() -> Iterator[None]:
    """Reads that all see the database as of one moment, so that a message's `v` names
    exactly the state it carries. PostgreSQL's default (READ COMMITTED) gives each
    statement its own moment; SQLite's transactions already read one snapshot."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def race_snapshot(*, race_id: int, player: Player | None) -> dict[str, Any]:
    """Everything a client needs to draw the race page, as `player` may see it."""
    SNAPSHOTS.inc()
    with _one_moment():
        # Every socket of a race asks for one when it starts: a few queries, not one per question.
        race = Race.objects.select_related("host").get(pk=race_id)
        games, entries = _games_by_player(race), _entries(race)
        game = games.get(player.pk) if player is not None else None
        role = _role(race, player, games, entries)
        you: dict[str, Any] = {"player": player.pk if player else None, "role": role, "game": None}
        if role == "racer" and game is not None:
            position = game_position(game=game)
            you["game"] = {
                "id": game.pk,
                "view": own_view(position.state, game.last_seq, position.moves),
            }
        finished = race.status == RaceStatus.FINISHED
        return protocol.snapshot(
            version=race.version,
            server_time=_iso(timezone.now()),
            race=race_info(race=race),
            you=you,
            racers=_racers(race, games, entries),
            results=standings_as_dicts(race_results(race=race)) if finished else None,
            ghost=race_ghost(race=race),
        )


@dataclass(frozen=True, slots=True)
class History:
    version: int  # the race's version now
    events: list[tuple[int, str, str]]  # (version, kind, payload) after the client's, in order


def race_history(*, race_id: int, after: int, limit: int = HISTORY_LIMIT) -> History | None:
    """The race's announcements after version `after`, as sent; None when they cannot
    bring that client up to date (too many, already pruned, or one of them a start,
    which each socket answers with a snapshot of its own)."""
    with _one_moment():
        version = race_version(race_id=race_id)
        if after == version:
            return History(version, [])
        if after > version or version - after > limit:
            return None
        rows = list(
            RaceEvent.objects.filter(race_id=race_id, version__gt=after)
            .order_by("version")
            .values_list("version", "kind", "payload")
        )
    if [v for v, _, _ in rows] != list(range(after + 1, version + 1)):
        return None
    if any(kind == "started" for _, kind, _ in rows):
        return None
    return History(version, rows)


def race_progress_version(*, race_id: int, player_id: int, seq: int) -> int | None:
    """The version a racer's move (their game's `seq`) took, while the history holds it."""
    # The payload is the encoded progress message, keys in a fixed order
    # (protocol.progress), so the racer's move is matched by its text.
    needle = f'"player":{player_id},"seq":{seq},'
    found = RaceEvent.objects.filter(race_id=race_id, kind="progress", payload__contains=needle)
    return found.values_list("version", flat=True).first()

"""Game records: a text export of a game's log, and its verification by replay.

The format, modelled on PGN, is specified in docs/record-format.md. Reading
is strict and every refusal names the line (and the move) where it fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils.translation import gettext as _

from games.engine import SEED_LIMIT, VARIANTS, IllegalMove, InvalidMove
from games.engine.positions import TIMEOUT, Position, advance
from games.i18n import messages
from games.models import Game, Move
from games.store.timing import elapsed_ms

PRACTICE = "-"
UNFINISHED = "*"
REQUIRED_TAGS = ("Variant", "Deal", "Race", "Result", "CardsPlayed", "Time")
TAG_ORDER = (
    "Site",
    "Game",
    "Date",
    "UTCTime",
    "Variant",
    "Deal",
    "Player",
    "Race",
    "Result",
    "CardsPlayed",
    "Time",
    "Voided",
)
MAX_MOVES = 100_000

_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]')
_MOVE = re.compile(r"(\d+) ([a-z0-9]+) \+(\d+)\.(\d{3})")
_MS = re.compile(r"(\d+)\.(\d{3})")


class RecordError(ValueError):
    """A record that cannot be read or does not replay: where and why."""

    def __init__(self, line: int, message: str, *, seq: int | None = None, token: str = "") -> None:
        self.line = line
        self.seq = seq
        self.token = token
        self.reason = message
        where = _("line %(line)d") % {"line": line}
        if seq is not None:
            where = _("line %(line)d, move %(seq)d (%(token)s)") % {
                "line": line,
                "seq": seq,
                "token": token,
            }
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True, slots=True)
class RecordMove:
    line: int
    seq: int
    token: str
    elapsed_ms: int


@dataclass(frozen=True, slots=True)
class ParsedRecord:
    tags: dict[str, str]
    tag_lines: dict[str, int]
    moves: list[RecordMove]


@dataclass(frozen=True, slots=True)
class VerifiedRecord:
    tags: dict[str, str]
    moves: list[RecordMove]
    variant: str
    seed: int
    is_race: bool
    position: Position

    @property
    def result(self) -> str:
        return self.position.status


# Writing ------------------------------------------------------------------


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _seconds(ms: int) -> str:
    return f"{ms // 1000}.{ms % 1000:03d}"


def render_record(game: Game, moves: Iterable[Move], *, site: str) -> str:
    """The record of `game` from its log `moves` (in seq order)."""
    log = list(moves)
    start = game.started_at or (log[0].accepted_at if log else game.created_at)
    lines: list[str] = []
    previous = 0
    # Elapsed times are differences of times since the start rounded once,
    # so they add up exactly to the Time tag.
    for move in log:
        since_start = elapsed_ms(move.accepted_at, start)
        lines.append(f"{move.seq} {move.token} +{_seconds(since_start - previous)}")
        previous = since_start
    tags = {
        "Site": site,
        "Game": str(game.pk),
        "Date": start.strftime("%Y.%m.%d"),
        "UTCTime": start.strftime("%H:%M:%S"),
        "Variant": game.variant,
        "Deal": str(game.seed),
        "Player": game.player.nickname,
        "Race": game.race.code if game.race is not None else PRACTICE,
        "Result": game.status if game.is_over else UNFINISHED,
        "CardsPlayed": str(game.cards_played),
        "Time": _seconds(previous),
    }
    if game.voided:
        tags["Voided"] = "yes"
    header = [f'[{name} "{_quote(tags[name])}"]' for name in TAG_ORDER if name in tags]
    return "\n".join([*header, "", *lines]) + "\n"


# Reading ------------------------------------------------------------------


def parse_record(text: str) -> ParsedRecord:
    """The tags and moves of a record; RecordError for anything out of format."""
    lines = text.splitlines()
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    n = 0
    while n < len(lines) and lines[n] != "":
        match = _TAG.fullmatch(lines[n])
        if match is None:
            raise RecordError(
                n + 1, _('expected a tag line like [Variant "sultan"] or a blank line')
            )
        name = match.group(1)
        if name in tags:
            raise RecordError(n + 1, _("the tag %(name)s appears twice") % {"name": name})
        tags[name] = re.sub(r"\\(.)", r"\1", match.group(2))
        tag_lines[name] = n + 1
        n += 1
    for name in REQUIRED_TAGS:
        if name not in tags:
            raise RecordError(n + 1, _("the header has no %(name)s tag") % {"name": name})
    n += 1  # the blank line
    moves: list[RecordMove] = []
    for number in range(n, len(lines)):
        line = lines[number]
        if line == "" and all(rest == "" for rest in lines[number:]):
            break
        match = _MOVE.fullmatch(line)
        if match is None:
            raise RecordError(number + 1, _("expected a move line like '12 w3 +1.250'"))
        seq, token = int(match.group(1)), match.group(2)
        if seq != len(moves) + 1:
            raise RecordError(
                number + 1,
                _("moves are numbered 1, 2, 3…: expected %(n)d") % {"n": len(moves) + 1},
                seq=seq,
                token=token,
            )
        if len(moves) >= MAX_MOVES:
            raise RecordError(number + 1, _("more than %(n)d moves") % {"n": MAX_MOVES})
        elapsed = int(match.group(3)) * 1000 + int(match.group(4))
        moves.append(RecordMove(number + 1, seq, token, elapsed))
    return ParsedRecord(tags, tag_lines, moves)


def verify_record(text: str) -> VerifiedRecord:
    """Parse a record and replay it; RecordError says where it fails."""
    record = parse_record(text)
    tags, at = record.tags, record.tag_lines
    variant = tags["Variant"]
    if variant not in VARIANTS:
        raise RecordError(at["Variant"], _("unknown variant %(variant)r") % {"variant": variant})
    seed = _whole(tags["Deal"], at["Deal"], "Deal")
    if seed >= SEED_LIMIT:
        raise RecordError(at["Deal"], _("the deal number must be below 2^63"))
    is_race = tags["Race"] != PRACTICE
    position = Position.start(seed, variant)
    for move in record.moves:
        if position.state.is_over:
            raise RecordError(
                move.line,
                _("the game is already over (%(status)s)") % {"status": position.status},
                seq=move.seq,
                token=move.token,
            )
        if move.token == TIMEOUT and not is_race:
            raise RecordError(
                move.line,
                _("only a race's clock times a game out"),
                seq=move.seq,
                token=move.token,
            )
        try:
            position, _events = advance(position, move.token, take_backs=not is_race)
        except InvalidMove:
            why = messages.not_a_move(move.token)
            raise RecordError(move.line, why, seq=move.seq, token=move.token) from None
        except IllegalMove as error:
            why = messages.illegal_move(error)
            raise RecordError(move.line, why, seq=move.seq, token=move.token) from None
    result = position.status if position.state.is_over else UNFINISHED
    if tags["Result"] != result:
        raise RecordError(
            at["Result"],
            _("Result says %(said)s, the replay gives %(result)s")
            % {"said": tags["Result"], "result": result},
        )
    cards = _whole(tags["CardsPlayed"], at["CardsPlayed"], "CardsPlayed")
    if cards != position.state.cards_played:
        raise RecordError(
            at["CardsPlayed"],
            _("CardsPlayed says %(said)d, the replay plays %(cards)d")
            % {"said": cards, "cards": position.state.cards_played},
        )
    time = _MS.fullmatch(tags["Time"])
    if time is None:
        raise RecordError(at["Time"], _("Time is seconds with three decimals, like 312.456"))
    total = sum(m.elapsed_ms for m in record.moves)
    if int(time.group(1)) * 1000 + int(time.group(2)) != total:
        raise RecordError(
            at["Time"],
            _("Time says %(said)s, the moves add up to %(total)s")
            % {"said": tags["Time"], "total": _seconds(total)},
        )
    return VerifiedRecord(tags, record.moves, variant, seed, is_race, position)


def _whole(value: str, line: int, name: str) -> int:
    if re.fullmatch(r"[0-9]{1,20}", value) is None:
        raise RecordError(
            line,
            _("%(name)s must be a whole number, got %(value)r") % {"name": name, "value": value},
        )
    return int(value)


def accepted_times(start: datetime, moves: Iterable[RecordMove]) -> list[datetime]:
    """Server times for a record's moves, rebuilt from its elapsed times."""
    times: list[datetime] = []
    total = 0
    for move in moves:
        total += move.elapsed_ms
        times.append(start + timedelta(milliseconds=total))
    return times

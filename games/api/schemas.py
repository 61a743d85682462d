"""The API's JSON shapes: one home for each, so the schema at /api/v1/schema is the code's.

Deal numbers are strings (they do not fit a double); times are ISO 8601 in UTC.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Annotated, Any, Literal

from ninja import Schema
from pydantic import BeforeValidator, Field, WithJsonSchema

from games.engine import VARIANTS
from games.models import Game, Player
from games.store.selectors import game_record_visible
from games.store.tally import game_move_count


class Error(Schema):
    type: Literal["error"] = "error"
    code: str = Field(description="The refusal's word, always English.")
    message: str = Field(description="For people, in the request's language.")


def refusals(*statuses: int) -> dict[int, type[Error]]:
    """The error answers an operation declares: every status it can answer besides 200
    (400: a parameter not of its type; 401: a token unknown or revoked, or none where one
    is needed; 429: the quota spent)."""
    return dict.fromkeys(statuses, Error)


# A variant's code. Checked by the endpoint (an unknown one is a 400 with its name), and
# declared as the list it is, so that every value the schema allows is one the API takes.
VariantCode = Annotated[str, WithJsonSchema({"type": "string", "enum": list(VARIANTS)})]


def _iso_day(value: Any) -> Any:
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return value
    raise ValueError("a day is YYYY-MM-DD")


# A day, as the schema declares it (`format: date`) and docs/api.md says: YYYY-MM-DD and
# nothing else (pydantic alone would also read `0` as a count of seconds since 1970).
IsoDay = Annotated[date, BeforeValidator(_iso_day)]


class PlayerRef(Schema):
    id: int
    nickname: str
    username: str | None = Field(description="Accounts only; guests have none.")
    bot: bool = Field(description="A program's account: shown as BOT.")


class RatingOut(Schema):
    variant: str
    rating: int
    races: int
    provisional: bool
    last_race_at: datetime | None


class ProfileOut(Schema):
    player: PlayerRef
    joined_at: datetime
    ratings: list[RatingOut]


class GameRow(Schema):
    id: int
    player: PlayerRef
    variant: str
    kind: Literal["race", "practice"]
    race: str | None = Field(description="The race's code, for a race game.")
    status: str
    cards_played: int
    moves: int = Field(
        description="Moves on the table: made and not taken back (a resignation is none)."
    )
    started_at: datetime | None
    finished_at: datetime | None
    deal: str | None = Field(description="Null while the deal is sealed to the viewer.")


class GamesPage(Schema):
    games: list[GameRow]
    page: int
    per_page: int
    next: int | None = Field(description="The next page's number, null on the last one.")


class GameRecordOut(Schema):
    game: GameRow
    record: str = Field(description="The text record (docs/record-format.md).")


class ResultRow(Schema):
    rank: int
    player: int
    nickname: str
    bot: bool
    game: int
    status: str
    cards_played: int
    time_ms: int | None
    moves: int
    ghost: bool


class RaceOut(Schema):
    race: dict[str, Any] = Field(description="As the race socket's snapshot has it.")
    racers: list[PlayerRef]
    results: list[ResultRow] | None = Field(description="Null until the race is over.")


class DailyRow(Schema):
    rank: int
    player: PlayerRef
    game: int
    status: str
    cards_played: int
    time_ms: int | None


class DailyOut(Schema):
    day: date
    variant: str
    deal: str
    results: list[DailyRow]


class BotOut(Schema):
    player: PlayerRef


class SeatOut(Schema):
    race: str
    version: int
    socket: str = Field(description="The race socket's path, to open with the same token.")


def player_ref(player: Player) -> PlayerRef:
    user = player.user
    return PlayerRef(
        id=player.pk,
        nickname=player.nickname,
        username=user.get_username() if user is not None else None,
        bot=player.is_bot,
    )


def game_row(game: Game, viewer: Player | None) -> GameRow:
    practice = game.race is None
    # The player picked a practice deal (it is in the page's address): theirs to see.
    shown = game_record_visible(game=game, viewer=viewer) or (
        practice and viewer is not None and viewer.pk == game.player_id
    )
    return GameRow(
        id=game.pk,
        player=player_ref(game.player),
        variant=game.variant,
        kind="practice" if practice else "race",
        race=game.race.code if game.race is not None else None,
        status=game.status,
        cards_played=game.cards_played,
        moves=game_move_count(game=game),
        started_at=game.started_at,
        finished_at=game.finished_at,
        deal=str(game.seed) if shown else None,
    )

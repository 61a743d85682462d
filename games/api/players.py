"""Players: a profile with its ratings, and a player's finished games (a page, or a stream)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from ninja import Query, Router, Schema
from pydantic import Field

from games.api import auth
from games.api.auth import PUBLIC, ApiRefused, viewer_of
from games.api.schemas import (
    GamesPage,
    IsoDay,
    ProfileOut,
    RatingOut,
    VariantCode,
    game_row,
    player_ref,
    refusals,
)
from games.api.selectors import player_by_username, player_finished_games
from games.api.streams import games_stream, wants_ndjson
from games.engine import VARIANTS
from games.models import Player
from games.ratings.selectors import player_ratings, rating_listed

router = Router(tags=["players"])
MAX_PER_PAGE = 100
MAX_STREAM = 10_000


class GamesFilter(Schema):
    variant: VariantCode | None = Field(None, description="Only this variant's games.")
    since: IsoDay | None = Field(None, description="Finished on or after this day (UTC).")
    until: IsoDay | None = Field(None, description="Finished on or before this day (UTC).")
    page: int = Field(1, ge=1, le=100_000, description="For a JSON page.")
    per_page: int = Field(50, ge=1, le=MAX_PER_PAGE, description="For a JSON page.")
    max: int = Field(
        MAX_STREAM, ge=1, le=MAX_STREAM, description="For a stream: at most this many."
    )


GAMES_DOC = (
    "Finished games, newest first: race games whose race has ended, and, for their own "
    "player only, practice games. With `Accept: application/json` a page of them; "
    "otherwise (`Accept: application/x-ndjson`, or none) a stream, one game a line."
)
GAMES_RESPONSES = {200: GamesPage, **refusals(400, 401, 404, 429)}
NDJSON_DOC: dict[str, Any] = {
    "responses": {
        200: {
            "content": {
                "application/x-ndjson": {"schema": {"$ref": "#/components/schemas/GameRow"}}
            }
        }
    }
}


def _player(username: str) -> Player:
    player = player_by_username(username=username)
    if player is None:
        raise ApiRefused(
            404, "not_found", _("no account is called %(name)r") % {"name": username[:40]}
        )
    return player


def _games(
    request: HttpRequest, response: HttpResponse, player: Player, query: GamesFilter
) -> HttpResponseBase | GamesPage:
    if query.variant is not None and query.variant not in VARIANTS:
        raise ApiRefused(
            400, "bad_request", _("unknown variant %(variant)r") % {"variant": query.variant[:40]}
        )
    viewer = viewer_of(request).player
    games = player_finished_games(
        player=player, viewer=viewer, variant=query.variant, since=query.since, until=query.until
    )
    if wants_ndjson(request):
        stream = games_stream(games=games, viewer=viewer, limit=query.max)
        patch_vary_headers(stream, ["Accept"])
        return stream
    # One address, two shapes: a cache keeps them apart by the Accept header.
    patch_vary_headers(response, ["Accept"])
    start = (query.page - 1) * query.per_page
    rows = list(games[start : start + query.per_page + 1])
    more = len(rows) > query.per_page
    return GamesPage(
        games=[game_row(game, viewer) for game in rows[: query.per_page]],
        page=query.page,
        per_page=query.per_page,
        next=query.page + 1 if more else None,
    )


def _profile(player: Player) -> ProfileOut:
    ratings = player_ratings(player=player)
    return ProfileOut(
        player=player_ref(player),
        joined_at=player.created_at,
        ratings=[
            RatingOut(
                variant=variant,
                rating=rating.rating,
                races=rating.races,
                provisional=not rating_listed(rating=rating),
                last_race_at=rating.last_race_at,
            )
            for variant in VARIANTS
            if (rating := ratings.get(variant)) is not None
        ],
    )


@router.get(
    "/account",
    response={200: ProfileOut, **refusals(401, 429)},
    auth=auth.read,
    summary="Your profile",
)
def account(request: HttpRequest) -> ProfileOut:
    """The profile of the token's owner (or of the signed-in account)."""
    return _profile(_own(request))


@router.get(
    "/account/games",
    response=GAMES_RESPONSES,
    auth=auth.read,
    summary="Your finished games",
    description=GAMES_DOC,
    openapi_extra=NDJSON_DOC,
)
def account_games(
    request: HttpRequest, response: HttpResponse, query: Query[GamesFilter]
) -> HttpResponseBase | GamesPage:
    return _games(request, response, _own(request), query)


@router.get(
    "/players/{username}",
    response={200: ProfileOut, **refusals(401, 404, 429)},
    auth=auth.read,
    summary="A player's profile",
    openapi_extra=PUBLIC,
)
def profile(request: HttpRequest, username: str) -> ProfileOut:
    """An account's profile and ratings, by its username (guests have none)."""
    return _profile(_player(username))


@router.get(
    "/players/{username}/games",
    response=GAMES_RESPONSES,
    auth=auth.read,
    summary="A player's finished games",
    description=GAMES_DOC,
    openapi_extra={**NDJSON_DOC, **PUBLIC},
)
def player_games(
    request: HttpRequest, response: HttpResponse, username: str, query: Query[GamesFilter]
) -> HttpResponseBase | GamesPage:
    return _games(request, response, _player(username), query)


def _own(request: HttpRequest) -> Player:
    player = viewer_of(request).player
    if player is None or player.user_id is None:
        raise ApiRefused(401, "unauthorized", _("send a token, or sign in"))
    return player

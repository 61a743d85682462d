"""JSON endpoints for practice games and replays (docs/pages.md).

A practice move answers with the race socket's shapes (docs/protocol.md §4):
`ack` or `reject`, with an HTTP status that says which kind of refusal it is.
Race moves never come through here: they belong to the race socket, where the
race's clock and broadcasts apply.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from games.analysis import game_analysis
from games.engine import DEFAULT_VARIANT, SEED_LIMIT, VARIANTS
from games.hints import HintRefused, practice_hint
from games.history import player_game
from games.models import Game, Player
from games.practice_services import PracticeRefused, practice_game_start, practice_random_deal
from games.protocol import MAX_ID, MAX_TOKEN, own_view
from games.race_selectors import deal_raced_now
from games.replays import HIDDEN, IN_PLAY, OPEN, game_for_replay, game_replay, replay_access
from games.selectors import game_state
from games.services import (
    MAX_NICKNAME,
    MoveRejected,
    game_append_move,
    player_for_request,
    player_start_guest_session,
)

MAX_BODY_BYTES: Final = 4096
GUEST_NICKNAME: Final = "Guest"
MODERATE: Final = "games.moderate"
REJECT_STATUS: Final = {
    "conflict": 409,
    "forbidden": 403,
    "banned": 403,
    "invalid": 422,
    "illegal": 422,
    "finished": 422,
    "not_started": 422,
    "too_late": 422,
}


class BadRequest(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"type": "error", "code": code, "message": message}, status=status)


def _body(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > MAX_BODY_BYTES:
        raise BadRequest("too_big", f"a request body holds at most {MAX_BODY_BYTES} bytes")
    try:
        data = json.loads(request.body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise BadRequest("bad_json", "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("bad_json", "the body is a JSON object")
    return data


def _text(data: dict[str, Any], field: str, limit: int) -> str:
    value = data.get(field)
    if not isinstance(value, str) or not 0 < len(value) <= limit:
        raise BadRequest("bad_message", f"'{field}' is a string of 1 to {limit} characters")
    return value


def _whole(data: dict[str, Any], field: str, limit: int) -> int:
    value = data.get(field)
    # Deal numbers reach 2**63: past 2**53 a browser sends them as digit strings.
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 20:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < limit:
        raise BadRequest("bad_message", f"'{field}' is a whole number from 0 to {limit - 1}")
    return value


def _game_info(game: Game) -> dict[str, Any]:
    """A practice game's facts; its deal is the player's own choice, so it is shown."""
    return {
        "id": game.pk,
        "variant": game.variant,
        "deal": str(game.seed),
        "status": game.status,
        "moves": game.last_seq,
        "cards_played": game.cards_played,
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "server_time": timezone.now().isoformat(),
        "replay_url": f"/games/{game.pk}/replay/",
    }


@require_POST
def practice_start(request: HttpRequest) -> JsonResponse:
    """Deal a practice game (or resume the player's open one on that deal and variant)."""
    try:
        data = _body(request)
        variant = data.get("variant", DEFAULT_VARIANT)
        if variant not in VARIANTS:
            raise BadRequest("bad_message", f"'variant' is one of {', '.join(VARIANTS)}")
        no_deal = data.get("deal") is None
        seed = practice_random_deal() if no_deal else _whole(data, "deal", SEED_LIMIT)
        nickname = data.get("nickname") or GUEST_NICKNAME
        if not isinstance(nickname, str) or not nickname.strip():
            raise BadRequest("bad_message", f"'nickname' is 1 to {MAX_NICKNAME} characters")
    except BadRequest as bad:
        return _error(400, bad.code, bad.message)
    player = player_for_request(request)
    if player is None:
        # Checked input first: a refused request leaves no stray guest behind.
        player = player_start_guest_session(request=request, nickname=nickname)
    try:
        start = practice_game_start(player=player, variant=variant, seed=seed)
    except PracticeRefused as refused:
        return _error(403 if refused.code == "banned" else 400, refused.code, refused.message)
    game = start.game
    return JsonResponse(
        {
            "type": "game",
            "resumed": start.resumed,
            "player": {"nickname": player.nickname, "guest": player.is_guest},
            "game": _game_info(game),
            "view": own_view(game_state(game=game), game.last_seq),
        },
        status=200 if start.resumed else 201,
    )


@dataclass(frozen=True, slots=True)
class Refusal:
    status: int
    code: str
    message: str


def _practice_game(player: Player | None, game_id: int) -> Game | Refusal:
    game = player_game(player=player, game_id=game_id)
    if game is None:
        return Refusal(403, "forbidden", "this is not your game")
    if game.race_id is not None:
        return Refusal(403, "forbidden", "race moves go through the race socket, not this API")
    return game


def _reject_response(status: int, move_id: str, code: str, message: str, seq: int) -> JsonResponse:
    body = {"type": "reject", "id": move_id, "code": code, "message": message, "seq": seq}
    return JsonResponse(body, status=status)


@require_GET
def game_detail(request: HttpRequest, game_id: int) -> JsonResponse:
    """Where the player's practice game stands: what a page needs to resync."""
    found = _practice_game(player_for_request(request), game_id)
    if isinstance(found, Refusal):
        return _reject_response(found.status, "", found.code, found.message, 0)
    return JsonResponse(
        {
            "type": "game",
            "game": _game_info(found),
            "view": own_view(game_state(game=found), found.last_seq),
        }
    )


@require_POST
def game_move(request: HttpRequest, game_id: int) -> JsonResponse:
    """One event of a practice game: a move, `undo` or `resign`."""
    try:
        data = _body(request)
        token = _text(data, "token", MAX_TOKEN)
        move_id = _text(data, "id", MAX_ID)
        seq = _whole(data, "seq", 2**53)
    except BadRequest as bad:
        return _error(400, bad.code, bad.message)
    player = player_for_request(request)
    found = _practice_game(player, game_id)
    if isinstance(found, Refusal):
        return _reject_response(found.status, move_id, found.code, found.message, 0)
    assert player is not None
    try:
        result = game_append_move(
            game_id=found.pk, player=player, token=token, client_move_id=move_id, expected_seq=seq
        )
    except MoveRejected as rejected:
        status = REJECT_STATUS.get(rejected.code, 422)
        return _reject_response(
            status, move_id, rejected.code, rejected.message, rejected.current_seq
        )
    return JsonResponse(
        {
            "type": "ack",
            "id": move_id,
            "seq": result.seq,
            "token": result.token,
            "duplicate": result.duplicate,
            "events": result.events,
            "view": own_view(result.state, result.seq),
        }
    )


@require_GET
def game_replay_data(request: HttpRequest, game_id: int) -> JsonResponse:
    """Every step of a game whose record is open to the viewer; nothing otherwise."""
    game = game_for_replay(game_id=game_id)
    access = replay_access(
        game=game,
        viewer=player_for_request(request),
        moderator=request.user.has_perm(MODERATE),
    )
    if access == OPEN and game is not None:
        return JsonResponse(game_replay(game=game))
    if access == HIDDEN:
        return _error(404, "not_found", "no replay here")
    if access == IN_PLAY:
        return _error(403, "in_play", "finish or resign this game to replay it")
    return _error(403, "race_running", "this race is still running: replays open when it ends")


@require_POST
def game_hint(request: HttpRequest, game_id: int) -> JsonResponse:
    """The next move of a winning line from the player's practice position (never in a race)."""
    player = player_for_request(request)
    found = _practice_game(player, game_id)
    if isinstance(found, Refusal):
        return _error(found.status, found.code, found.message)
    assert player is not None
    try:
        hint = practice_hint(game=found, player=player, state=game_state(game=found))
    except HintRefused as refused:
        return _error(refused.status, refused.code, refused.message)
    return JsonResponse({"type": "hint", "status": hint.status, "move": hint.move})


@require_GET
def game_analysis_data(request: HttpRequest, game_id: int) -> JsonResponse:
    """Where a finished game was lost, open exactly when its replay is."""
    game = game_for_replay(game_id=game_id)
    access = replay_access(
        game=game,
        viewer=player_for_request(request),
        moderator=request.user.has_perm(MODERATE),
    )
    if access != OPEN or game is None:
        return _error(404 if access == HIDDEN else 403, "closed", "no analysis here yet")
    if deal_raced_now(seed=game.seed, variant=game.variant):
        # The solver's line would play that race for its racers.
        text = "this deal is being raced: its analysis opens when that race ends"
        return _error(403, "deal_raced", text)
    analysis = game_analysis(game=game)
    return JsonResponse(
        {
            "type": "analysis",
            "verdict": analysis.verdict,
            "seq": analysis.seq,
            "line": list(analysis.line),
            "lost_seq": analysis.lost_seq,
            "exact": analysis.exact,
        }
    )

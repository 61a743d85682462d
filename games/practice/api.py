"""JSON endpoints for practice games: deal, resync, move, hint (docs/pages.md).

A move may ask for automatic moves (`"automatic": true`, the player's setting):
the safe moves after it come back in the same answer (games.store.services).

A practice move answers with the race socket's shapes (docs/protocol.md §4):
`ack` or `reject`, with an HTTP status that says which kind of refusal it is.
Race moves never come through here: they belong to the race socket, where the
race's clock and broadcasts apply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games.accounts.selectors import player_for_request, work_identity
from games.accounts.services import GuestRefused, nickname_clean, player_start_guest_session
from games.common import fields
from games.common.errors import BadInput
from games.common.http import error_response, json_body
from games.engine import DEFAULT_VARIANT, SEED_LIMIT, VARIANTS, new_game
from games.metrics.definitions import MOVES
from games.models import Game, Player
from games.practice.hints import HintRefused, practice_hint
from games.practice.selectors import practice_game_unfinished, variant_summary
from games.practice.services import (
    PracticeRefused,
    practice_deal_check,
    practice_game_start,
    practice_random_deal,
)
from games.quotas.quotas import WorkRefused
from games.races import protocol
from games.races.protocol import MAX_ID, MAX_TOKEN, line_steps, own_view
from games.store.selectors import game_position, game_state, player_game
from games.store.services import MoveRejected, game_append_move
from games.store.tally import game_move_count

# A new guest's name until they choose one, in the language they read the site in.
GUEST_NICKNAME: Final = gettext_lazy("Guest")
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


def _game_info(game: Game) -> dict[str, Any]:
    """A practice game's facts; its deal is the player's own choice, so it is shown."""
    return {
        "id": game.pk,
        "variant": game.variant,
        "deal": str(game.seed),
        "status": game.status,
        "moves": game_move_count(game=game),
        "cards_played": game.cards_played,
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "server_time": timezone.now().isoformat(),
        "replay_url": f"/games/{game.pk}/replay/",
    }


@require_POST
def practice_start(request: HttpRequest) -> JsonResponse:
    """Deal a practice game (or resume the player's open one on that deal and variant).

    With `"create": false` nothing is written: the player's open game on the
    deal if there is one, else the deal as it starts (`game` null). The page
    asks that way on opening, and creates the game with its first move, so a
    link merely opened leaves no game behind to "continue".
    """
    try:
        data = json_body(request)
        create = fields.flag(data, "create", True)
        variant = data.get("variant", DEFAULT_VARIANT)
        if variant not in VARIANTS:
            raise BadInput(
                "bad_message",
                _("'variant' is one of %(variants)s") % {"variants": ", ".join(VARIANTS)},
            )
        no_deal = data.get("deal") is None
        seed = practice_random_deal() if no_deal else fields.whole(data, "deal", SEED_LIMIT)
        chosen = bool(data.get("nickname"))
        nickname = nickname_clean(data.get("nickname") or str(GUEST_NICKNAME))
    except BadInput as bad:
        return error_response(400, bad.code, bad.message)
    player = player_for_request(request)
    try:
        practice_deal_check(seed=seed)
    except PracticeRefused as refused:
        return error_response(403, refused.code, refused.message)
    if not create:
        open_game = (
            None
            if player is None
            else practice_game_unfinished(player=player, variant=variant, seed=seed)
        )
        if open_game is None:
            return _unplayed_deal(player, variant, seed)
    if player is None:
        # Checked input first: a refused request leaves no stray guest behind.
        try:
            player = player_start_guest_session(request=request, nickname=nickname, chosen=chosen)
        except GuestRefused as refused:
            retry_after = refused.retry_after or None
            return error_response(
                refused.status, refused.code, refused.message, retry_after=retry_after
            )
    try:
        start = practice_game_start(player=player, variant=variant, seed=seed)
    except PracticeRefused as refused:
        status = 403 if refused.code in ("banned", "sealed") else 400
        return error_response(status, refused.code, refused.message)
    game = start.game
    return JsonResponse(
        {
            "type": "game",
            "resumed": start.resumed,
            "player": {"nickname": player.nickname, "guest": player.is_guest},
            "game": _game_info(game),
            "view": _view(game),
        },
        status=200 if start.resumed else 201,
    )


def _unplayed_deal(player: Player | None, variant: str, seed: int) -> JsonResponse:
    who = None if player is None else {"nickname": player.nickname, "guest": player.is_guest}
    return JsonResponse(
        {
            "type": "deal",
            "resumed": False,
            "player": who,
            "game": None,
            "deal": str(seed),
            "variant": variant,
            "view": own_view(new_game(seed, variant), 0),
        }
    )


def _view(game: Game) -> dict[str, Any]:
    position = game_position(game=game)
    return own_view(position.state, game.last_seq, position.moves)


@dataclass(frozen=True, slots=True)
class Refusal:
    status: int
    code: str
    message: str


def _practice_game(player: Player | None, game_id: int) -> Game | Refusal:
    game = player_game(player=player, game_id=game_id)
    if game is None:
        return Refusal(403, "forbidden", _("this is not your game"))
    if game.race_id is not None:
        return Refusal(403, "forbidden", _("race moves go through the race socket, not this API"))
    return game


def _reject_response(status: int, move_id: str, code: str, message: str, seq: int) -> JsonResponse:
    body = protocol.reject(move_id=move_id, code=code, message=message, seq=seq)
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
            "view": _view(found),
            # The board's statistics line for this variant, this game counted once it is over.
            "summary": variant_summary(player=found.player, variant=found.variant),
        }
    )


@require_POST
def game_move(request: HttpRequest, game_id: int) -> JsonResponse:
    """One event of a practice game: a move, `undo` or `resign`."""
    try:
        data = json_body(request)
        token = fields.text(data, "token", MAX_TOKEN)
        move_id = fields.text(data, "id", MAX_ID)
        seq = fields.whole(data, "seq", 2**53)
        automatic = fields.flag(data, "automatic", False)
    except BadInput as bad:
        return error_response(400, bad.code, bad.message)
    player = player_for_request(request)
    found = _practice_game(player, game_id)
    if isinstance(found, Refusal):
        return _reject_response(found.status, move_id, found.code, found.message, 0)
    assert player is not None
    try:
        result = game_append_move(
            game_id=found.pk,
            player=player,
            token=token,
            client_move_id=move_id,
            expected_seq=seq,
            automatic_moves=automatic,
        )
    except MoveRejected as rejected:
        MOVES.labels("practice", "refused", rejected.code).inc()
        status = REJECT_STATUS.get(rejected.code, 422)
        return _reject_response(
            status, move_id, rejected.code, rejected.message, rejected.current_seq
        )
    MOVES.labels("practice", "accepted", "ok").inc()
    # The race socket's answer (docs/pages.md), with no race version: `v` is null.
    return JsonResponse(
        protocol.ack(
            move_id=move_id,
            seq=result.seq,
            token=result.token,
            duplicate=result.duplicate,
            events=result.events,
            automatic=list(result.automatic),
            view=own_view(result.state, result.seq, result.moves),
            version=None,
        )
    )


@require_POST
def game_hint(request: HttpRequest, game_id: int) -> JsonResponse:
    """The next move of a winning line from the player's practice position (never in a race)."""
    found = _practice_game(player_for_request(request), game_id)
    if isinstance(found, Refusal):
        return error_response(found.status, found.code, found.message)
    # Whom the solver's work counts against, as for an analysis or a winnable deal.
    player_id, address = work_identity(request)
    try:
        hint = practice_hint(
            game=found, player_id=player_id, state=game_state(game=found), address=address
        )
    except (HintRefused, WorkRefused) as refused:
        retry_after = refused.retry_after if isinstance(refused, WorkRefused) else None
        return error_response(
            refused.status, refused.code, refused.message, retry_after=retry_after
        )
    return JsonResponse(
        {
            "type": "hint",
            "status": hint.status,
            "move": hint.move,
            "shown": line_steps(game_state(game=found), hint.shown),
            "reach": hint.reach,
            "reason": hint.reason,
        }
    )

"""JSON endpoints for the replay viewer: every step of a game, and its analysis.

Both answer exactly when the replay is open (games.replays.access), with the
same refusal codes: `not_found`, `in_play`, `race_running`, `sealed`.
"""

from __future__ import annotations

from typing import Final

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from games.accounts.selectors import work_identity
from games.common.http import error_response
from games.fairness.rules import deal_sealed_message
from games.i18n.lines import line_phrases
from games.quotas.quotas import WorkRefused
from games.races.protocol import line_steps
from games.races.selectors import deal_raced_now
from games.replays.access import HIDDEN, IN_PLAY, SEALED, ReplayGate, replay_gate
from games.replays.analysis import game_analysis
from games.replays.selectors import game_replay
from games.store.selectors import game_position

CLOSED: Final = {
    HIDDEN: (404, "not_found", gettext_lazy("no replay here")),
    IN_PLAY: (403, "in_play", gettext_lazy("finish or resign this game to replay it")),
}
RACE_RUNNING_ERROR: Final = (
    403,
    "race_running",
    gettext_lazy("this race is still running: replays open when it ends"),
)


def _closed(gate: ReplayGate) -> JsonResponse:
    if gate.access == SEALED:
        return error_response(403, "sealed", deal_sealed_message())
    status, code, message = CLOSED.get(gate.access, RACE_RUNNING_ERROR)
    return error_response(status, code, str(message))


@require_GET
def game_replay_data(request: HttpRequest, game_id: int) -> JsonResponse:
    """Every step of a game whose record is open to the viewer; nothing otherwise."""
    gate = replay_gate(request, game_id)
    if not gate.open or gate.game is None:
        return _closed(gate)
    return JsonResponse(game_replay(game=gate.game))


@require_GET
def game_analysis_data(request: HttpRequest, game_id: int) -> JsonResponse:
    """Where a finished game was lost, open exactly when its replay is."""
    gate = replay_gate(request, game_id)
    game = gate.game
    if not gate.open or game is None:
        return _closed(gate)
    if deal_raced_now(seed=game.seed, variant=game.variant):
        # The solver's line would play that race for its racers.
        text = _("this deal is being raced: its analysis opens when that race ends")
        return error_response(403, "deal_raced", text)
    player_id, address = work_identity(request)
    try:
        analysis = game_analysis(game=game, player_id=player_id, address=address)
    except WorkRefused as refused:
        return error_response(
            refused.status, refused.code, refused.message, retry_after=refused.retry_after
        )
    start = (
        game_position(game=game, seq=analysis.seq).state
        if analysis.seq is not None and analysis.line
        else None
    )
    return JsonResponse(
        {
            "type": "analysis",
            "verdict": analysis.verdict,
            "seq": analysis.seq,
            "line": list(analysis.line),
            # The line played out, for watching it on the board from move `seq`.
            "steps": line_steps(start, analysis.line) if start is not None else [],
            # The same line in the reader's words, a phrase per group of moves.
            "phrases": (
                [p.as_dict() for p in line_phrases(start, analysis.line)]
                if start is not None
                else []
            ),
            "lost_seq": analysis.lost_seq,
            "exact": analysis.exact,
        }
    )

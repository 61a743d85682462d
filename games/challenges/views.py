"""Challenge pages: make one from a finished game (POST /games/<id>/challenge),
its page /c/<code>/, and taking it (POST /c/<code>/take, then the race page)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from games.accounts.selectors import player_for_request, player_who_browses
from games.accounts.services import GuestRefused, player_identify
from games.challenges.models import Challenge, ChallengeAttempt
from games.challenges.selectors import (
    Versus,
    challenge_attempt_of,
    challenge_by_code,
    challenge_ranking,
    challenge_versus,
)
from games.challenges.services import (
    ChallengeRefused,
    challenge_attempt_start,
    challenge_create,
)
from games.fairness.rules import ranking_for, ranking_notice
from games.i18n.labels import variant_label
from games.models import Game, Player
from games.store.selectors import race_has_ended


@require_POST
def challenge_new(request: HttpRequest, game_id: int) -> HttpResponse:
    game = Game.objects.select_related("race").filter(pk=game_id).first()
    try:
        # The challenge page shows the challenger's name: a default one is replaced first.
        player = player_identify(request=request, nickname=request.POST.get("nickname"))
    except GuestRefused as refused:
        context = {"title": refused.message}
        return render(request, "notice.html", context, status=refused.status)
    if player is None or game is None:
        raise Http404("No such game")
    try:
        challenge = challenge_create(player=player, game=game)
    except ChallengeRefused as refused:
        if refused.code == "not_found":
            raise Http404("No such game") from None
        context = {"title": refused.message[:1].upper() + refused.message[1:]}
        return render(request, "notice.html", context, status=400)
    return redirect("games:challenge", code=challenge.code)


def _challenge(code: str) -> Challenge:
    challenge = challenge_by_code(code=code)
    if challenge is None:
        raise Http404("No challenge with this code")
    return challenge


@require_GET
def challenge_page(request: HttpRequest, code: str) -> HttpResponse:
    return _page(request, _challenge(code))


@require_POST
def challenge_take(request: HttpRequest, code: str) -> HttpResponse:
    challenge = _challenge(code)
    try:
        player = player_identify(request=request, nickname=request.POST.get("nickname"))
    except GuestRefused as refused:
        return _page(request, challenge, error=refused.message)
    if player is None:
        return _page(request, challenge, error=gettext("Pick a nickname to play, or log in."))
    try:
        start = challenge_attempt_start(challenge=challenge, player=player)
    except ChallengeRefused as refused:
        return _page(request, challenge, error=refused.message)
    return redirect("games:race", code=start.attempt.race.code)


def _page(request: HttpRequest, challenge: Challenge, error: str | None = None) -> HttpResponse:
    player = player_for_request(request)
    attempt = challenge_attempt_of(challenge=challenge, player=player)
    recorded = challenge.game
    mine_over = attempt is not None and race_has_ended(race=attempt.race)
    # Replays show the deal: only to whoever can no longer gain from it here
    # (the replay gate still decides, by the deal's one rule).
    reveal = mine_over or (player is not None and player.pk == recorded.player_id)
    context: dict[str, Any] = {
        "challenge": challenge,
        "recorded": recorded,
        "variant_label": variant_label(recorded.variant),
        "rows": challenge_ranking(challenge=challenge),
        "attempt": attempt,
        "attempt_over": mine_over,
        "reveal": reveal,
        "player": player,
        "share_url": request.build_absolute_uri(f"/c/{challenge.code}/"),
        "error": error,
        "unranked": _unranked(player_who_browses(request=request), attempt, recorded),
        **_head_to_head(challenge, player),
    }
    return render(request, "challenge.html", context, status=400 if error else 200)


def _head_to_head(challenge: Challenge, viewer: Player | None) -> dict[str, list[Versus]]:
    """A signed-in viewer's record against the recorded game's player; its player's
    own page lists each who attempted it, with their records (accounts only)."""
    author = challenge.game.player
    if viewer is None or viewer.is_guest or author.is_guest:
        return {}
    if viewer.pk != author.pk:
        return {"versus": challenge_versus(me=viewer, players=Player.objects.filter(pk=author.pk))}
    attempters = Player.objects.filter(challengeattempts__challenge=challenge)
    return {"attempters": challenge_versus(me=viewer, players=attempters)}


def _unranked(player: Player | None, attempt: ChallengeAttempt | None, recorded: Game) -> str:
    """Why the viewer's attempt is, or would be, unranked: told before they take it."""
    if attempt is not None:
        judged = getattr(attempt.game, "unranked", None)
        return ranking_notice(judged.reason) if judged is not None else ""
    if player is None:
        return ""
    return ranking_for(player=player, seed=recorded.seed).notice

"""The daily deal's pages: today's at /daily/, a past day's at /daily/<yyyy-mm-dd>/,
and taking today's attempt (POST /daily/play, then the race page)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Final

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from games.accounts.selectors import player_for_request, player_who_browses
from games.accounts.services import GuestRefused, player_identify
from games.daily.models import DailyAttempt
from games.daily.rules import (
    DAILY_TIME_LIMIT_S,
    daily_day_over,
    daily_sealed_until,
    daily_seed,
    daily_today,
)
from games.daily.selectors import (
    DailyResult,
    daily_attempt_of,
    daily_board,
    daily_deal_revealed,
    daily_share_text,
    daily_streaks,
)
from games.daily.services import (
    DailyRefused,
    daily_attempt_start,
    daily_attempts_close_overdue,
)
from games.engine import DEFAULT_VARIANT, VARIANTS
from games.fairness.rules import ranking_for, ranking_notice
from games.i18n.labels import variant_label
from games.models import Player

SHOWN_ROWS: Final = 100  # the top of the board; the visitor's own row is added below it


def _variant(request: HttpRequest) -> str:
    variant = request.GET.get("variant") or request.POST.get("variant") or DEFAULT_VARIANT
    if variant not in VARIANTS:
        raise Http404("No such variant")
    return variant


@require_GET
def daily_today_page(request: HttpRequest) -> HttpResponse:
    return _day_page(request, daily_today(), _variant(request))


@require_GET
def daily_day_page(request: HttpRequest, day: str) -> HttpResponse:
    try:
        when = date.fromisoformat(day)
    except ValueError:
        raise Http404("A day is written yyyy-mm-dd") from None
    today = daily_today()
    if when > today or len(day) != 10:
        raise Http404("No deal for that day yet")
    if when == today:
        return redirect(f"/daily/?variant={_variant(request)}")
    return _day_page(request, when, _variant(request))


@require_POST
def daily_play(request: HttpRequest) -> HttpResponse:
    """Take (or resume) today's attempt and go to its race page."""
    variant = _variant(request)
    try:
        player = player_identify(request=request, nickname=request.POST.get("nickname"))
    except GuestRefused as refused:
        return _day_page(request, daily_today(), variant, error=refused.message)
    if player is None:
        return _day_page(
            request, daily_today(), variant, error=gettext("Pick a nickname to play, or log in.")
        )
    try:
        start = daily_attempt_start(player=player, variant=variant)
    except DailyRefused as refused:
        return _day_page(request, daily_today(), variant, error=refused.message)
    return redirect("games:race", code=start.attempt.race.code)


def _unranked(
    player: Player | None, attempt: DailyAttempt | None, day: date, variant: str, today: date
) -> str:
    """Why the viewer's attempt is, or would be, unranked: told before they start."""
    if attempt is not None:
        judged = getattr(attempt.game, "unranked", None)
        return ranking_notice(judged.reason) if judged is not None else ""
    if player is None or day != today:
        return ""
    return ranking_for(player=player, seed=daily_seed(day=day, variant=variant)).notice


def _day_page(
    request: HttpRequest, day: date, variant: str, error: str | None = None
) -> HttpResponse:
    player = player_for_request(request)
    today = daily_today()
    # A page is where an abandoned attempt is noticed: settled before it is ranked.
    daily_attempts_close_overdue(day=day, variant=variant)
    board = daily_board(day=day, variant=variant, top=SHOWN_ROWS, player=player)
    mine = board.mine
    attempt = daily_attempt_of(player=player, day=day, variant=variant)
    day_over = daily_day_over(day=day)
    context: dict[str, Any] = {
        "day": day,
        "today": today,
        "is_today": day == today,
        "variant": variant,
        "variant_label": variant_label(variant),
        "variants": [(v, variant_label(v)) for v in VARIANTS],
        # The viewer's own row follows the top when it is below it.
        "rows": [*board.top, mine] if mine is not None and mine[0] > SHOWN_ROWS else board.top,
        "mine": mine,
        "you": player.pk if player is not None else None,
        "replay_label": gettext("Replay"),
        "count": board.count,
        "attempt": attempt,
        "player": player,
        "day_over": day_over,
        "opens_at": daily_sealed_until(day=day),
        "next_deal_at": datetime.combine(day + timedelta(days=1), time(0), tzinfo=UTC),
        "time_limit_min": DAILY_TIME_LIMIT_S // 60,
        "deal": daily_deal_revealed(day=day, variant=variant),
        "previous_day": day - timedelta(days=1),
        "next_day": day + timedelta(days=1) if day < today else None,
        "error": error,
        "unranked": _unranked(player_who_browses(request=request), attempt, day, variant, today),
    }
    if player is not None:
        context["streaks"] = daily_streaks(player=player, today=today)
    if mine is not None and mine[1].status != "playing":
        url = request.build_absolute_uri(f"/daily/{day.isoformat()}/?variant={variant}")
        result = DailyResult(day, variant, mine[1])
        context["share"] = daily_share_text(
            result=result, variant_label=variant_label(variant), url=url
        )
    return render(request, "daily.html", context, status=400 if error else 200)

"""The leaderboard and players' profiles.

A profile's address is `/@/<username>/`: nicknames are display names and not
unique (two guests may both be "alice"), usernames are. So only accounts have a
profile, as only accounts have ratings; a guest's name links nowhere. A profile
shows what anyone may see: race games only (practice is private to its
player), and only once their race has ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Final

from django.contrib.auth import get_user_model
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.accounts.selectors import player_for_request
from games.common.http import notice
from games.daily.records import daily_records
from games.daily.rules import daily_today
from games.daily.selectors import daily_streaks
from games.engine import DEFAULT_VARIANT, VARIANTS
from games.fairness.worth import established_opponents
from games.friends.headtohead import head_to_head
from games.friends.selectors import relation_of
from games.i18n.labels import variant_choices, variant_label
from games.models import Game, Player, RaceStatus
from games.pages.refusals import unknown_variant
from games.practice.selectors import player_variant_stats
from games.ratings.chart import rating_chart_svg
from games.ratings.models import Rating
from games.ratings.selectors import (
    leaderboard,
    leaderboard_size,
    player_rank,
    player_ratings,
    rating_history,
)
from games.ratings.skill import ESTABLISHED_RACES, START, shown
from games.store.selectors import game_record_visible

BOARD_PAGE: Final = 50
RECENT_GAMES: Final = 10


def _page_number(text: str | None) -> int:
    if text and text.isascii() and text.isdigit() and 0 < len(text) < 7:
        return max(1, int(text))
    return 1


@require_GET
def leaderboard_page(request: HttpRequest) -> HttpResponse:
    variant = request.GET.get("variant", DEFAULT_VARIANT)
    if variant not in VARIANTS:
        return unknown_variant(
            request,
            variant=variant,
            actions=[(_("Leaderboard"), "/leaderboard/"), (_("Home"), "/")],
        )
    page = _page_number(request.GET.get("page"))
    size = leaderboard_size(variant=variant)
    pages = max(1, -(-size // BOARD_PAGE))
    page = min(page, pages)
    context: dict[str, Any] = {
        "variant": variant,
        "variants": VARIANTS,
        "rows": leaderboard(variant=variant, offset=(page - 1) * BOARD_PAGE, limit=BOARD_PAGE),
        "size": size,
        "page": page,
        "pages": pages,
        "established": ESTABLISHED_RACES,
        "opponents": established_opponents(),
        # A second table beside the ratings: days that are over only (cached per day).
        "daily_records": daily_records(variant=variant) or None,
    }
    return render(request, "leaderboard.html", context)


@dataclass(frozen=True, slots=True)
class RatingPanel:
    variant: str
    rating: Rating
    rank: int | None  # on the leaderboard; None while provisional
    chart: SafeString


@dataclass(frozen=True, slots=True)
class RecentGame:
    game: Game
    rank: int | None
    racers: int
    delta: int | None  # the rating change, for a rated race that counted
    # A daily attempt's race has ended, but its deal stays secret until the day is over.
    replay_open: bool
    # A race of one is an attempt at something else, named instead of a place in
    # it (a challenge's recorded game is ranked by its page, not the standing).
    daily_day: date | None = None
    challenge_code: str | None = None


@require_GET
def profile_page(request: HttpRequest, username: str) -> HttpResponse:
    user = get_user_model().objects.filter(username=username).first()
    player = Player.objects.filter(user=user).first() if user is not None else None
    if player is None:
        unknown = _(
            "No account is called “%(name)s”. Profiles belong to accounts; guests have none."
        )
        message = unknown % {"name": username[:40]}
        back = [(_("Leaderboard"), "/leaderboard/"), (_("Home"), "/")]
        return notice(request, status=404, title=_("No such player"), message=message, actions=back)
    ratings = player_ratings(player=player)
    panels = [
        RatingPanel(
            variant,
            rating,
            player_rank(rating=rating),
            rating_chart_svg(
                rating_history(player=player, variant=variant),
                start=shown(START),
                variant_label=variant_label(variant),
            ),
        )
        for variant in VARIANTS
        if (rating := ratings.get(variant)) is not None
    ]
    # Today's attempt counts as soon as it is taken, as on /daily/: taking it is public.
    streaks = daily_streaks(player=player, today=daily_today())
    context = {
        "profile": player,
        "username": username,
        "panels": panels,
        "established": ESTABLISHED_RACES,
        "stats": player_variant_stats(player=player, races_only=True),
        "recent": _recent_games(player),
        "streaks": streaks if streaks.best_played else None,
    }
    viewer = player_for_request(request)
    if (relation := relation_of(viewer=viewer, other=player)) is not None and viewer is not None:
        context["relation"] = relation
        # The invitation offers the race form's choices, as /friends/ does.
        context["invite_variants"] = variant_choices()
        context["default_variant"] = DEFAULT_VARIANT
        context["head_to_head"] = head_to_head(me=viewer, other=player)
    return render(request, "profile.html", context)


def _recent_games(player: Player) -> list[RecentGame]:
    games = (
        Game.objects.filter(player=player, race__status=RaceStatus.FINISHED)
        .select_related(
            "race", "standing", "rating_change", "dailyattempt", "challengeattempt__challenge"
        )
        .annotate(racers=Count("race__games"))
        .order_by("-race__finished_at", "-pk")[:RECENT_GAMES]
    )
    rows = []
    for game in games:
        standing = getattr(game, "standing", None)
        change = getattr(game, "rating_change", None)
        daily = getattr(game, "dailyattempt", None)
        challenge = getattr(game, "challengeattempt", None)
        one = daily is not None or challenge is not None
        rows.append(
            RecentGame(
                game=game,
                rank=standing.rank if standing is not None and not one else None,
                racers=game.racers,
                delta=change.delta if change is not None else None,
                replay_open=game_record_visible(game=game, viewer=None),
                daily_day=daily.day if daily is not None else None,
                challenge_code=challenge.challenge.code if challenge is not None else None,
            )
        )
    return rows

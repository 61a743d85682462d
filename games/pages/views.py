"""The site's pages around the games: home, practice, replay, history, joining.

Views stay thin: reads come from games.pages.history / games.replays.selectors, writes from
the service modules. Refusals render a page that says what went wrong and
what to do instead, with a status that says the same to machines.
"""

from __future__ import annotations

import re
from typing import Any, Final
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

from games.accounts.selectors import player_for_request, work_identity
from games.accounts.services import GuestRefused, player_rename, player_start_guest_session
from games.common.errors import BadInput
from games.common.http import notice
from games.engine import DEFAULT_VARIANT, SEED_LIMIT, VARIANTS
from games.fairness.rules import deal_sealed, deal_sealed_message
from games.i18n.labels import variant_label
from games.models import Game, Player
from games.pages.forms import PracticeForm
from games.pages.history import history_rows, player_games
from games.pages.home import home_context
from games.pages.refusals import unknown_variant
from games.practice.selectors import player_variant_stats, variant_summary
from games.practice.services import PracticeRefused, practice_random_deal, practice_winnable_deal
from games.quotas.quotas import WorkRefused
from games.races.selectors import race_by_code
from games.replays.access import HIDDEN, IN_PLAY, SEALED, replay_gate
from games.store.selectors import game_record, race_has_ended

HISTORY_PAGE: Final = 25
_CODE_CHARS = re.compile(r"[^0-9a-z]")


@require_GET
def practice_random(request: HttpRequest) -> HttpResponse:
    """`/practice/`: the deal asked for by number, else a random one."""
    form = PracticeForm(request.GET)
    if not form.is_valid():
        context = home_context(request, practice_form=form)
        return render(request, "home.html", context, status=400)
    deal = form.cleaned_data.get("deal")
    variant = form.cleaned_data.get("variant") or DEFAULT_VARIANT
    winnable = bool(form.cleaned_data.get("winnable")) and deal is None
    query = {"variant": variant} | ({"winnable": "1"} if winnable else {})
    if not winnable:
        seed = practice_random_deal() if deal is None else deal
        return redirect(f"/practice/{seed}/?{urlencode(query)}")
    player_id, address = work_identity(request)
    try:
        seed = practice_winnable_deal(variant=variant, player_id=player_id, address=address)
    except (PracticeRefused, WorkRefused) as refused:
        return notice(
            request,
            status=getattr(refused, "status", 503),
            title=_("No winnable deal right now"),
            message=refused.message,
            actions=[
                (_("Try again"), f"/practice/?{urlencode(query)}"),
                (_("Play a random deal"), f"/practice/?{urlencode({'variant': variant})}"),
            ],
        )
    return redirect(f"/practice/{seed}/?{urlencode(query)}")


def _deal_number(text: str) -> int | None:
    if not (text.isascii() and text.isdigit()) or len(text) > 19:
        return None
    seed = int(text)
    return seed if seed < SEED_LIMIT else None


@require_GET
@ensure_csrf_cookie
def practice_page(request: HttpRequest, deal: str) -> HttpResponse:
    seed = _deal_number(deal)
    if seed is None:
        return notice(
            request,
            status=404,
            title=_("No such deal"),
            message=_(
                "“%(deal)s” is not a deal number: deals are whole numbers from 0 to %(last)s."
            )
            % {"deal": deal[:40], "last": SEED_LIMIT - 1},
            actions=[(_("Play a random deal"), "/practice/"), (_("Home"), "/")],
        )
    variant = request.GET.get("variant", DEFAULT_VARIANT)
    if variant not in VARIANTS:
        return unknown_variant(
            request,
            variant=variant,
            actions=[
                (
                    _("Deal %(deal)s in %(variant)s")
                    % {"deal": seed, "variant": variant_label(DEFAULT_VARIANT)},
                    f"/practice/{seed}/",
                ),
                (_("Home"), "/"),
            ],
        )
    if deal_sealed(seed=seed):
        return notice(
            request,
            status=403,
            title=_("This deal is sealed"),
            message=deal_sealed_message(),
            actions=[(_("Play a random deal"), "/practice/"), (_("Home"), "/")],
        )
    player = player_for_request(request)
    context = {
        "deal": str(seed),
        "variant": variant,
        "variants": VARIANTS,
        # The keyboard help names the last reserve slot (a–f, or a–h with 8 slots).
        "last_slot": "h" if "8" in variant else "f",
        "player": player,
        "variant_summary": variant_summary(player=player, variant=variant),
        "winnable": request.GET.get("winnable") == "1",
    }
    return render(request, "practice.html", context)


def _closed_replay(request: HttpRequest, access: str, game: Game | None) -> HttpResponse:
    if access == HIDDEN or game is None:
        return notice(
            request,
            status=404,
            title=_("No replay here"),
            message=_(
                "There is no game with this number that you can watch. Practice games "
                "are private to their player; race games open to all once the race is over."
            ),
        )
    if access == IN_PLAY:
        url = f"/practice/{game.seed}/?{urlencode({'variant': game.variant})}"
        return notice(
            request,
            status=403,
            title=_("This game is still on"),
            message=_("Finish or resign the game first: its replay opens once it is over."),
            actions=[(_("Continue the game"), url), (_("Home"), "/")],
        )
    if access == SEALED or game.race is None:
        return notice(
            request,
            status=403,
            title=_("This deal is sealed"),
            message=deal_sealed_message(),
            actions=[(_("Home"), "/")],
        )
    sealed_until = game.race.secret_until
    if race_has_ended(race=game.race) and (sealed_until is None or sealed_until < timezone.now()):
        # Sealed past its end with no day to wait for: a challenge on a deal that
        # another challenger is still playing (games.store.selectors.race_deal_sealed).
        return notice(
            request,
            status=403,
            title=_("This deal is still secret"),
            message=_(
                "Someone is still racing this challenge on the same deal: its games can be"
                " replayed once every attempt at it is over."
            ),
            actions=[(_("Home"), "/")],
        )
    if race_has_ended(race=game.race):  # sealed past its end: a daily deal's day
        return notice(
            request,
            status=403,
            title=_("This deal is still secret"),
            message=_(
                "Others may still play this deal today: its games can be replayed once the"
                " day is over for everyone (%(at)s UTC)."
            )
            % {"at": f"{game.race.secret_until:%Y-%m-%d %H:%M}"},
            actions=[(_("The daily deal"), "/daily/"), (_("Home"), "/")],
        )
    return notice(
        request,
        status=403,
        title=_("The race is still running"),
        message=_(
            "Other racers are still playing this deal. Its games can be replayed "
            "as soon as the race ends."
        ),
        actions=[(_("Back to the race"), f"/r/{game.race.code}/"), (_("Home"), "/")],
    )


@require_GET
def replay_page(request: HttpRequest, game_id: int) -> HttpResponse:
    gate = replay_gate(request, game_id)
    game, player = gate.game, gate.viewer
    if not gate.open or game is None:
        return _closed_replay(request, gate.access, game)
    own = player is not None and player.pk == game.player_id
    # Racing a recorded game needs a player to race it and a game that is over.
    can_challenge = player is not None and game.is_over
    context = {"game": game, "race": game.race, "own": own, "can_challenge": can_challenge}
    return render(request, "replay.html", context)


@require_GET
def record_download(request: HttpRequest, game_id: int) -> HttpResponse:
    gate = replay_gate(request, game_id)
    game = gate.game
    if not gate.open or game is None:
        return _closed_replay(request, gate.access, game)
    text = game_record(game=game, viewer=gate.viewer, as_moderator=gate.moderator)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="sultan-game-{game.pk}.txt"'
    return response


@require_GET
def history_page(request: HttpRequest) -> HttpResponse:
    player = player_for_request(request)
    context: dict[str, Any] = {"player": player, "rows": [], "stats": [], "page": None}
    if player is not None:
        games = player_games(player=player)
        page_number = _page_number(request.GET.get("page"))
        start = (page_number - 1) * HISTORY_PAGE
        chunk = list(games[start : start + HISTORY_PAGE + 1])
        context.update(
            rows=history_rows(games=chunk[:HISTORY_PAGE], player=player),
            stats=player_variant_stats(player=player),
            page=page_number,
            has_older=len(chunk) > HISTORY_PAGE,
        )
    return render(request, "history.html", context)


def _page_number(text: str | None) -> int:
    if text and text.isascii() and text.isdigit() and 0 < len(text) < 7:
        return max(1, int(text))
    return 1


def race_code_normalised(text: str) -> str:
    """What people paste: the code with or without its dash, in any case, or the whole link."""
    text = text.strip().lower()
    if "/r/" in text:
        text = text.split("/r/", 1)[1].split("/", 1)[0]
    chars = _CODE_CHARS.sub("", text)
    return f"{chars[:4]}-{chars[4:]}" if len(chars) == 8 else text


@require_GET
def join_by_code(request: HttpRequest) -> HttpResponse:
    raw = request.GET.get("code", "")
    code = race_code_normalised(raw)
    race = race_by_code(code=code) if code else None
    if race is None:
        error = (
            _("Type the race's code, e.g. k7m2-x9pq.")
            if not raw.strip()
            else _("No race has the code “%(code)s”. Check it with the race's host.")
            % {"code": raw.strip()[:40]}
        )
        context = home_context(request, join_error=error, join_code=raw[:80])
        return render(request, "home.html", context, status=404 if raw.strip() else 400)
    return redirect("games:race", code=race.code)


@require_POST
def guest_start(request: HttpRequest) -> HttpResponse:
    """Play as a guest under a nickname (or, as a guest already, change it)."""
    nickname = request.POST.get("nickname", "")
    player: Player | None = player_for_request(request)
    try:
        if player is None:
            player_start_guest_session(request=request, nickname=nickname)
        elif player.is_guest:
            player_rename(player=player, nickname=nickname)
    except GuestRefused as refused:
        context = home_context(request, guest_error=refused.message)
        return render(request, "home.html", context, status=refused.status)
    except BadInput as bad:
        context = home_context(request, guest_error=bad.message)
        return render(request, "home.html", context, status=400)
    target = request.POST.get("next", "/")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    return redirect(target)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's 404 page (handler404): a notice, not a bare error."""
    return notice(
        request,
        status=404,
        title=_("Page not found"),
        message=_("There is nothing at this address. It may have been mistyped."),
    )


def favicon(request: HttpRequest) -> HttpResponse:
    """`/favicon.ico`, asked for by browsers whatever the page says: the site's icon."""
    return redirect(static("img/favicon.svg"), permanent=True)

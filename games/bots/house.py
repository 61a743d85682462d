"""The house bot, `Sultan bot`: seated in a race, then racing it as any program would.

Seating is a write like any other (`race_join`); after its commit a thread
of this process opens the race socket with a play token issued for that race
alone (revoked when the thread ends) and runs client.py. The socket goes to
`address.bot_socket_base()` alone (the setting, else this process's own
address), never to an address a request named. The house bot joins
a private race when its host adds it from the lobby, and a public race whose
lone racer waited SULTAN_BOT_FILL_AFTER_S for company (its lobby says so).
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Final

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import close_old_connections, transaction
from django.utils.translation import gettext as _

from games.api.models import SCOPE_PLAY
from games.api.services import token_issue, token_revoke
from games.bots.address import bot_socket_base
from games.bots.client import RaceClient
from games.bots.pace import bot_min_gap_ms
from games.bots.rules import HOUSE_USERNAME
from games.bots.think import PACES, STRENGTHS, plan
from games.common.errors import Refused
from games.models import Player, Race, RaceEntry, RaceStatus
from games.quotas.quotas import quota_take
from games.races.services import race_join

logger = logging.getLogger(__name__)
# Fills waiting for SULTAN_BOT_FILL_AFTER_S, each on a timer thread of its own.
_fills: set[threading.Timer] = set()
_fills_lock = threading.Lock()

HOUSE_NICKNAME: Final = "Sultan bot"
# A public lobby's filler plays at the middle strength, at a person's pace.
FILL_STRENGTH: Final = "quick"
FILL_PACE: Final = "brisk"


class HouseBotRefused(Refused):
    """`code`: not_host, not_open, public, bad_request, unavailable (and the lobby's own:
    full, …)."""


@dataclass(frozen=True, slots=True)
class BotRun:
    race: Race
    strength: str
    gap_ms: int


def house_bot_player() -> Player:
    """The house bot's account, made the first time it is needed."""
    user, _created = get_user_model().objects.get_or_create(
        username=HOUSE_USERNAME, defaults={"is_active": True}
    )
    player, _created = Player.objects.get_or_create(
        user=user, defaults={"nickname": HOUSE_NICKNAME, "is_bot": True}
    )
    if not player.is_bot:
        Player.objects.filter(pk=player.pk).update(is_bot=True)
        player.is_bot = True
    return player


def house_bot_add(*, race: Race, by: Player, strength: str, pace: str, address: str) -> BotRun:
    """The host of a private race's lobby seats the house bot, which then races."""
    if strength not in STRENGTHS or pace not in PACES:
        raise HouseBotRefused("bad_request", _("pick a strength and a pace"))
    if race.public:
        raise HouseBotRefused("public", _("a public race seats whoever comes"))
    if race.host_id != by.pk:
        raise HouseBotRefused("not_host", _("only the host adds a bot"))
    if race.status != RaceStatus.LOBBY:
        raise HouseBotRefused("not_open", _("the race has already started"))
    socket_base = bot_socket_base()
    if socket_base is None:
        # Nowhere of ours to send its token: say so rather than guess an address.
        logger.error("no address for the house bot's socket: set SULTAN_BOT_SOCKET_URL")
        raise HouseBotRefused("unavailable", _("the house bot is not available on this server"))
    quota_take(kind="bot", player_id=by.pk, address=address)
    return _seat(race, strength, PACES[pace][1], socket_base)


def house_bot_fill(*, race_id: int) -> BotRun | None:
    """A public lobby still alone after SULTAN_BOT_FILL_AFTER_S: the house bot takes the
    second seat (which starts the countdown). None when someone came meanwhile, or when
    the bot has no address to race at."""
    socket_base = bot_socket_base()
    if socket_base is None:
        logger.error("no address for the house bot's socket: set SULTAN_BOT_SOCKET_URL")
        return None
    race = Race.objects.filter(pk=race_id, public=True, status=RaceStatus.LOBBY).first()
    if race is None:
        return None
    seated = RaceEntry.objects.filter(race=race, left_at__isnull=True, connections__gt=0)
    if seated.count() != 1:
        return None
    try:
        return _seat(race, FILL_STRENGTH, PACES[FILL_PACE][1], socket_base)
    except Refused:
        return None


def house_bot_fill_later(*, race_id: int) -> None:
    """Ask `house_bot_fill` once the wait is over (a timer thread of this process)."""
    wait = settings.SULTAN_BOT_FILL_AFTER_S
    if wait <= 0:
        return
    timer = threading.Timer(wait, _fill_in_thread, kwargs={"race_id": race_id})
    timer.daemon = True
    with _fills_lock:
        _fills.add(timer)
    timer.start()


def house_bot_forget() -> None:
    """Drop every fill still waiting. The tests' housekeeping, at each test's end: a
    fill armed by one test fired in a later one, in its timer's thread (an error logged
    into tests/races/test_outbox.py's records)."""
    with _fills_lock:
        waiting = list(_fills)
        _fills.clear()
    for timer in waiting:
        timer.cancel()
        timer.join(timeout=30)  # one already filling finishes before its test's database goes


def _fill_in_thread(*, race_id: int) -> None:
    try:
        house_bot_fill(race_id=race_id)
    except Exception:
        logger.exception("the house bot could not fill race %s", race_id)
    finally:
        with _fills_lock:
            _fills.discard(threading.current_thread())  # type: ignore[arg-type]
        close_old_connections()


def _seat(race: Race, strength: str, pace_ms: int, socket_base: str) -> BotRun:
    bot = house_bot_player()
    gap_ms = max(pace_ms, bot_min_gap_ms())
    with transaction.atomic():
        race_join(race=race, player=bot)
        issued = token_issue(player=bot, name=f"race {race.code}", scope=SCOPE_PLAY)
        run = BotRun(race, strength, gap_ms)
        url = f"{socket_base}/ws/races/{race.code}/"
        transaction.on_commit(lambda: _start(run, url, issued.secret, issued.token.pk, bot))
    return run


def _start(run: BotRun, url: str, secret: str, token_id: int, bot: Player) -> None:
    race = run.race

    def planner(moves: list[str]) -> list[str]:
        return plan(strength=run.strength, variant=race.variant, seed=race.seed, moves=moves)

    def play() -> None:
        try:
            RaceClient(url=url, token=secret, gap_ms=run.gap_ms, planner=planner).run()
        except Exception:
            logger.exception("the house bot failed in race %s", race.code)
        finally:
            token_revoke(player=bot, token_id=token_id)
            close_old_connections()

    threading.Thread(target=play, name=f"house-bot-{race.code}", daemon=True).start()

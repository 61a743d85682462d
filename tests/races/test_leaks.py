"""Hidden information never leaks: every frame of a scripted race, checked.

A racer may see their own reserve, waste and foundation tops, and the cards
their own moves turned; opponents and spectators see heights and counts,
never a card; nobody sees a stock's order or the seed before the end.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client as DjangoClient

from games.daily.services import daily_attempt_start
from games.engine import player_view, replay
from games.models import Game, Race
from tests.daily.helpers import challenge_made_before_the_seal_rule
from tests.races.conftest import Lobby
from tests.races.helpers import (
    SEED,
    VARIANT,
    Client,
    careless_policy,
    connect,
    db,
    good_policy,
    guest_session,
    recorded_game,
)
from tests.sealed import shows_number

pytestmark = pytest.mark.django_db(transaction=True)

CARD_IN_TEXT = re.compile(r"\b[A2-9TJQK][CDHS]\b")
RACE_KEYS = {
    "code",
    "variant",
    "status",
    "host",
    "open_deal",
    "winnable_deal",
    "public",
    "rated",
    "time_limit_s",
    "seat_limit",
    "starts_at",
    "ends_at",
    "closed",  # a lobby closed before its start: a flag, no deal
    "rematch",
}
STATUSES = {"playing", "won", "lost", "resigned", "timeout"}
RACE_VIEW_KEYS = {"foundations", "cards_played", "passes_used", "status"}


def _walk(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        return [item for k, v in value.items() for item in _walk(v, (*path, k))]
    if isinstance(value, list):
        return [item for i, v in enumerate(value) for item in _walk(v, (*path, i))]
    return [(path, value)]


def _visible(view: dict[str, Any]) -> set[str]:
    return {c for c in [*view["foundations"], *view["reserve"], *view["waste"]] if c}


def _check_frame(frame: dict[str, Any], own_cards: set[str], ended: bool) -> None:
    text = json.dumps(frame)
    if not ended:
        # Keys, not the number: a short scripted seed may well appear in a timestamp.
        assert '"seed"' not in text, frame
        assert set(frame.get("race") or {}) <= RACE_KEYS, frame
    assert '"stock":' not in text, frame  # a key; "stock" as an event's source is fine
    for path, value in _walk(frame):
        if not isinstance(value, str):
            continue
        for card in CARD_IN_TEXT.findall(value):
            assert card in own_cards, (path, value, frame["type"])
        if "progress" in path:
            assert path[-1] == "status", f"a string in a race view: {path}"
            assert value in STATUSES, (path, value)
    for racer in frame.get("racers") or []:
        if racer["progress"] is not None:
            assert set(racer["progress"]) == RACE_VIEW_KEYS
    if frame["type"] == "progress":
        for racer in frame["racers"]:
            assert set(racer["progress"]) == RACE_VIEW_KEYS
            assert all(isinstance(v, int) for v in racer["progress"]["foundations"])
    ghost = frame.get("ghost")
    if ghost is not None:  # a challenge's recorded game: race views over time, nothing more
        assert set(ghost) == {"player", "nickname", "frames"}
        assert ghost["player"] == "ghost"  # not the recorded game's id: its replay may be open
        for step in ghost["frames"]:
            assert set(step) == {"t", *RACE_VIEW_KEYS}
            assert all(isinstance(v, int) for v in step["foundations"])


def _check_receiver(
    client: Client, seed: int, variant: str, own_log: list[str] | None, sealed: bool = False
) -> int:
    """Check every frame `client` got; returns how many frames held cards. A `sealed`
    deal (a daily deal before the day is over) stays secret past the race's end."""
    own_cards: set[str] = set()
    with_cards = 0
    ended = False
    for frame in client.frames:
        ended = not sealed and (
            ended or frame["type"] == "end" or (frame.get("race") or {}).get("status") == "finished"
        )
        view = None
        if frame["type"] == "ack":
            view = frame["view"]
        elif frame["type"] == "snapshot" and (frame["you"]["game"] or {}).get("view"):
            view = frame["you"]["game"]["view"]
        if view is not None:
            assert own_log is not None, "a spectator got a player's view"
            seq = view["seq"]
            # The view is exactly the player's view of the logged position: nothing more.
            expected = player_view(
                replay(seed, variant, [t for t in own_log[:seq] if t != "resign"])
            )
            if "resign" in own_log[:seq]:
                expected["status"] = "resigned"
            # `moves` and `finishable` are a number and a yes/no, worked out from seen cards.
            assert isinstance(view["moves"], int)
            assert isinstance(view["finishable"], bool)
            extra = ("legal", "seq", "moves", "finishable")
            assert {k: v for k, v in view.items() if k not in extra} == expected
            own_cards = _visible(view)
            for event in frame.get("events", []):
                if "card" in event:
                    assert event["card"] in own_cards, event
            with_cards += 1
        _check_frame(frame, own_cards, ended)
    return with_cards


async def test_no_frame_tells_anyone_more_than_they_may_know(started: Lobby):
    race = started.race
    alice = await connect(race, started.keys["alice"])
    bob = await connect(race, started.keys["bob"])
    charlie = await connect(race, started.keys["charlie"])
    dave = await connect(race, started.keys["dave"])
    anonymous = await connect(race, None)
    logs: dict[str, list[str]] = {"alice": [], "bob": [], "charlie": []}

    async def play(name: str, client: Client, token: str) -> None:
        answer = await client.move(token)
        if answer["type"] == "ack":
            logs[name].append(token)

    good, careless = recorded_game(good_policy), recorded_game(careless_policy)
    for i in range(max(len(good), len(careless))):
        if i < len(careless):
            await play("bob", bob, careless[i])
            # Always illegal (the Sultan takes nothing); its refusal names a card.
            await play("bob", bob, "w5")
        if i < 60:
            await play("charlie", charlie, good[i])
        elif i == 60:
            await play("charlie", charlie, "resign")
        if i < len(good):
            await play("alice", alice, good[i])
    for client in (alice, bob, charlie, dave, anonymous):
        if not any(f["type"] == "end" for f in client.frames):
            await client.receive_until("end")
        await client.drain(0.2)

    seed, variant = race.seed, race.variant
    assert _check_receiver(alice, seed, variant, logs["alice"]) > 100
    assert _check_receiver(bob, seed, variant, logs["bob"]) > 100
    assert _check_receiver(charlie, seed, variant, logs["charlie"]) > 50
    assert _check_receiver(dave, seed, variant, None) == 0
    assert _check_receiver(anonymous, seed, variant, None) == 0
    assert any(f["type"] == "reject" for f in bob.frames)
    end = next(f for f in dave.frames if f["type"] == "end")
    assert end["race"]["seed"] == str(seed)
    for client in (alice, bob, charlie, dave, anonymous):
        await client.close()


# The daily deal and challenges ------------------------------------------------


async def _play_to_the_end(client: Client, log: list[str], tokens: list[str]) -> None:
    for token in tokens:
        answer = await client.move(token)
        if answer["type"] == "ack":
            log.append(token)
    if not any(f["type"] == "end" for f in client.frames):
        await client.receive_until("end")
    await client.drain(0.2)


def _sealed_channels(
    game_id: int, code: str | None, clients: list[DjangoClient], seed: int
) -> None:
    """Every HTTP way to the deal, for every kind of visitor: no seed, no card."""
    urls = [
        "/daily/",
        f"/api/games/{game_id}/replay",
        f"/games/{game_id}/replay/",
        f"/games/{game_id}/record.txt",
        f"/api/games/{game_id}/analysis",
    ]
    if code is not None:
        urls.append(f"/c/{code}/")
    for client in clients:
        for url in urls:
            body = client.get(url).content.decode()
            assert not shows_number(body, seed), url
            assert not CARD_IN_TEXT.findall(body), url


async def test_a_daily_deal_and_a_challenge_on_it_tell_nothing_before_the_day_is_over(
    transactional_db: None, settings: Any
):
    settings.RACE_COUNTDOWN_S = 0
    settings.WS_RATE_PER_S = 10_000
    alice, alice_key = await db(guest_session)("alice")
    bob, bob_key = await db(guest_session)("bob")
    _, dave_key = await db(guest_session)("dave")
    attempt = (await db(daily_attempt_start)(player=alice, variant=VARIANT)).attempt
    # A secret deal, but one the scripted player knows how to win.
    await db(_deal)(attempt.race_id, SEED)
    race = await db(Race.objects.get)(pk=attempt.race_id)

    alice_socket = await connect(race, alice_key)
    watcher = await connect(race, dave_key)
    alice_log: list[str] = []
    await _play_to_the_end(alice_socket, alice_log, recorded_game(good_policy))
    # Reloading after the end: a fresh snapshot, still sealed.
    again = await connect(race, alice_key)
    await watcher.drain(0.2)
    assert _check_receiver(alice_socket, SEED, VARIANT, alice_log, sealed=True) > 50
    assert _check_receiver(again, SEED, VARIANT, alice_log, sealed=True) == 1
    assert _check_receiver(watcher, SEED, VARIANT, None, sealed=True) == 0

    game = await db(Game.objects.select_related("race").get)(race=race)
    # A sealed daily refuses new challenges (tests/fairness); one made before still leaks nothing.
    challenge, taken = await db(challenge_made_before_the_seal_rule)(
        recorded=game, maker=alice, player=bob
    )
    challenge_race = await db(Race.objects.get)(pk=taken.race_id)
    bob_socket = await connect(challenge_race, bob_key)
    bob_log: list[str] = []
    await _play_to_the_end(bob_socket, bob_log, recorded_game(careless_policy))
    assert bob_socket.frames[0]["ghost"]["frames"][-1]["status"] == "won"
    assert _check_receiver(bob_socket, SEED, VARIANT, bob_log, sealed=True) > 50
    for client in (alice_socket, again, watcher, bob_socket):
        await client.close()

    def http_checks() -> None:
        visitors = [DjangoClient() for _ in range(3)]
        for visitor, key in zip(visitors, (alice_key, bob_key, None), strict=True):
            if key:
                visitor.cookies["sessionid"] = key
        for game_id in (game.pk, taken.game_id):
            _sealed_channels(game_id, challenge.code, visitors, SEED)

    await db(http_checks)()


def _deal(race_id: int, seed: int) -> None:
    Race.objects.filter(pk=race_id).update(seed=seed)
    Game.objects.filter(race_id=race_id).update(seed=seed)

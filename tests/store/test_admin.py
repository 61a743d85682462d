"""The moderation admin: moderators see and judge; nobody edits a log."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from games.models import Game, ModerationAction, Player
from games.store.selectors import game_record
from games.store.services import game_create, game_resign
from tests.races.play import race_append
from tests.store.helpers import append, log_of

pytestmark = pytest.mark.django_db

PAGES: list[tuple[str, list[int]]] = [
    ("admin:games_game_changelist", []),
    ("admin:games_player_changelist", []),
    ("admin:games_race_changelist", []),
    ("admin:games_moderationaction_changelist", []),
]


@pytest.fixture
def game(alice, running_race) -> Game:
    game = game_create(player=alice, variant="sultan", race=running_race)
    race_append(game, alice, "draw")
    race_append(game, alice, "draw")
    return game


@pytest.fixture
def as_moderator(moderator) -> Client:
    client = Client()
    client.force_login(moderator)
    return client


@pytest.fixture
def as_staff(staff_without_permission) -> Client:
    client = Client()
    client.force_login(staff_without_permission)
    return client


def _game_pages(game: Game) -> list[str]:
    return [
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_game_moderate", args=[game.pk, "flag"]),
        reverse("admin:games_game_verify_record"),
    ]


def test_pages_render_for_a_moderator(as_moderator, game):
    for name, args in PAGES:
        assert as_moderator.get(reverse(name, args=args)).status_code == 200, name
    for url in _game_pages(game):
        assert as_moderator.get(url).status_code == 200, url
    page = as_moderator.get(reverse("admin:games_game_changelist"), {"q": "alice"})
    assert f"/admin/games/game/{game.pk}/change/" in page.content.decode()


def test_the_game_page_shows_the_log_timing_and_replay_links(as_moderator, game):
    html = as_moderator.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert f"/games/{game.pk}/replay/#move=1" in html
    assert f"/games/{game.pk}/replay/#move=2" in html
    assert "2 moves, mean gap" in html
    assert 'name="_save"' not in html  # a view page, not a form


def test_staff_without_the_permission_see_nothing_of_it(as_staff, game):
    for name, args in PAGES:
        assert as_staff.get(reverse(name, args=args)).status_code == 403, name
    for url in _game_pages(game):
        assert as_staff.get(url).status_code == 403, url
    assert "Games" not in as_staff.get(reverse("admin:index")).content.decode()


def test_anonymous_visitors_are_sent_to_the_login(game):
    response = Client().get(reverse("admin:games_game_changelist"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_no_add_change_or_delete_of_moves_exists(as_moderator, game):
    with pytest.raises(NoReverseMatch):
        reverse("admin:games_move_changelist")
    before = log_of(game)
    assert as_moderator.get(reverse("admin:games_game_add")).status_code == 403
    change = reverse("admin:games_game_change", args=[game.pk])
    posted = as_moderator.post(change, {"moves-TOTAL_FORMS": "0", "status": "won"})
    assert posted.status_code == 403
    delete = reverse("admin:games_game_delete", args=[game.pk])
    assert as_moderator.post(delete, {"post": "yes"}).status_code == 403
    changelist = as_moderator.get(reverse("admin:games_game_changelist")).content.decode()
    assert "delete_selected" not in changelist
    assert log_of(game) == before


def test_a_bulk_action_asks_for_a_reason_then_records_it(as_moderator, game):
    url = reverse("admin:games_game_changelist")
    selected = {"action": "void_results", "_selected_action": [str(game.pk)]}
    asked = as_moderator.post(url, selected)
    assert asked.status_code == 200
    assert "reason" in asked.content.decode()
    assert not ModerationAction.objects.exists()

    before = log_of(game)
    done = as_moderator.post(url, {**selected, "apply": "1", "reason": "collusion"})
    assert done.status_code == 302
    action = ModerationAction.objects.get()
    assert (action.action, action.game_id, action.reason) == ("void", game.pk, "collusion")
    assert action.moderator_name == "moderator"
    game.refresh_from_db()
    assert game.voided
    assert log_of(game) == before


def test_flag_clear_and_ban_from_the_game_page(as_moderator, game, alice):
    def act(kind: str, reason: str) -> None:
        url = reverse("admin:games_game_moderate", args=[game.pk, kind])
        assert as_moderator.post(url, {"reason": reason}).status_code == 302

    act("flag", "flat timing")
    game.refresh_from_db()
    assert game.flagged
    act("clear_flag", "a fast human")
    game.refresh_from_db()
    assert not game.flagged
    act("ban", "a script")
    assert Player.objects.get(pk=alice.pk).banned_at is not None
    kinds = list(ModerationAction.objects.order_by("pk").values_list("action", flat=True))
    assert kinds == ["flag", "clear_flag", "ban"]


def test_a_void_is_taken_back_by_a_new_event_never_by_an_edit(as_moderator, game):
    page = reverse("admin:games_game_change", args=[game.pk])

    def act(kind: str, reason: str) -> None:
        url = reverse("admin:games_game_moderate", args=[game.pk, kind])
        assert as_moderator.post(url, {"reason": reason}).status_code == 302

    assert "Reinstate result" not in as_moderator.get(page).content.decode()
    act("void", "collusion")
    assert "Reinstate result" in as_moderator.get(page).content.decode()
    reinstated = as_moderator.post(
        reverse("admin:games_game_moderate", args=[game.pk, "reinstate"]),
        {"reason": "cleared on appeal"},
        follow=True,
    ).content.decode()
    assert f"Game #{game.pk}: result reinstated" in reinstated
    game.refresh_from_db()
    assert not game.voided
    # A second reinstatement is refused and records nothing.
    refused = as_moderator.post(
        reverse("admin:games_game_moderate", args=[game.pk, "reinstate"]),
        {"reason": "again"},
        follow=True,
    ).content.decode()
    assert "is not void" in refused
    log = list(ModerationAction.objects.order_by("pk").values_list("action", "reason"))
    assert log == [("void", "collusion"), ("reinstate", "cleared on appeal")]


def test_verify_replay_shows_the_result(as_moderator, game):
    url = reverse("admin:games_game_moderate", args=[game.pk, "verify"])
    page = as_moderator.post(url, {"reason": "routine"}, follow=True).content.decode()
    assert "the replay matches" in page
    assert ModerationAction.objects.get().action == "verify"


def test_a_record_upload_is_verified_by_replay(as_moderator, alice):
    game = game_create(player=alice, variant="sultan", seed=12)
    append(game, alice, "draw")
    game_resign(game_id=game.pk, player=alice, client_move_id="r", expected_seq=1)
    game.refresh_from_db()
    record = game_record(game=game, viewer=alice)
    url = reverse("admin:games_game_verify_record")

    def upload(text: str) -> str:
        file = SimpleUploadedFile("game.txt", text.encode(), content_type="text/plain")
        content: bytes = as_moderator.post(url, {"record": file}).content
        return content.decode()

    assert "The record replays" in upload(record)
    refused = upload(record.replace("\n1 draw", "\n1 w5"))
    assert "Refused" in refused
    assert "move 1 (w5)" in refused


SECRET_SEED = 7_316_402_958_113_470_221  # long enough never to turn up in a page by chance


@pytest.fixture
def secret_race_game(alice, running_race) -> Game:
    running_race.seed = SECRET_SEED
    running_race.save()
    game = game_create(player=alice, variant="sultan", race=running_race)
    race_append(game, alice, "draw")
    return game


def _admin_pages(game: Game) -> list[str]:
    return [
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_game_changelist"),
        reverse("admin:games_race_change", args=[game.race_id]),
        reverse("admin:games_race_changelist"),
        reverse("admin:games_game_moderate", args=[game.pk, "flag"]),
    ]


def test_a_running_races_deal_stays_secret_in_the_admin(as_moderator, secret_race_game):
    for url in _admin_pages(secret_race_game):
        page = as_moderator.get(url)
        assert page.status_code == 200, url
        assert str(SECRET_SEED) not in page.content.decode(), url
    change = as_moderator.get(reverse("admin:games_game_change", args=[secret_race_game.pk]))
    assert "secret until the race ends" in change.content.decode()
    assert reverse("admin:games_game_record", args=[secret_race_game.pk]) not in (
        change.content.decode()
    )
    record = as_moderator.get(reverse("admin:games_game_record", args=[secret_race_game.pk]))
    assert record.status_code == 403
    assert str(SECRET_SEED) not in record.content.decode()


def test_the_deal_opens_in_the_admin_once_the_race_ends(as_moderator, secret_race_game):
    race = secret_race_game.race
    race.status = "finished"
    race.finished_at = timezone.now()
    race.save()
    for url in (_admin_pages(secret_race_game)[0], _admin_pages(secret_race_game)[2]):
        assert str(SECRET_SEED) in as_moderator.get(url).content.decode(), url
    record = as_moderator.get(reverse("admin:games_game_record", args=[secret_race_game.pk]))
    assert record.status_code == 200
    assert f'[Deal "{SECRET_SEED}"]' in record.content.decode()


def test_a_practice_game_in_play_keeps_its_record_from_moderators(as_moderator, alice):
    game = game_create(player=alice, variant="sultan", seed=SECRET_SEED)
    append(game, alice, "draw")
    url = reverse("admin:games_game_record", args=[game.pk])
    assert as_moderator.get(url).status_code == 403
    game_resign(game_id=game.pk, player=alice, client_move_id="r", expected_seq=1)
    assert str(SECRET_SEED) in as_moderator.get(url).content.decode()


def test_an_open_deals_number_shows_while_its_race_runs(as_moderator, secret_race_game):
    race = secret_race_game.race
    race.open_deal = True
    race.save()
    for url in (_admin_pages(secret_race_game)[0], _admin_pages(secret_race_game)[2]):
        assert str(SECRET_SEED) in as_moderator.get(url).content.decode(), url
    # The record holds the racer's moves so far: it still waits for the end.
    record = as_moderator.get(reverse("admin:games_game_record", args=[secret_race_game.pk]))
    assert record.status_code == 403

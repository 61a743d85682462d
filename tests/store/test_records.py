"""Records: export, import by replay, refusal with line and move, and who may see them."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.models import Game, Move, RaceStatus
from games.store.records import RecordError, verify_record
from games.store.selectors import RecordHidden, game_record, game_state
from games.store.services import game_create, game_import_record, game_resign
from tests.races.play import race_append
from tests.store.helpers import append, greedy_move, play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_game(alice) -> Game:
    """A practice game with a take-back, resigned after 40 events."""
    game = game_create(player=alice, variant="sultan", seed=11)
    append(game, alice, "draw")
    append(game, alice, "undo")
    state = game_state(game=game)
    for _ in range(37):
        state = append(game, alice, greedy_move(state)).state
    game_resign(game_id=game.pk, player=alice, client_move_id="bye", expected_seq=39)
    game.refresh_from_db()
    return game


@pytest.fixture
def played_out_game(alice) -> Game:
    """A practice game played until no move is left (or won)."""
    game = game_create(player=alice, variant="sultan", seed=11)
    append(game, alice, "draw")
    append(game, alice, "undo")
    return play_to_end(game, alice)


def _moves_section(record: str) -> str:
    return record.split("\n\n", 1)[1]


@pytest.mark.parametrize("fixture", ["finished_game", "played_out_game"])
def test_export_then_import_round_trips(request, fixture, alice):
    finished_game = request.getfixturevalue(fixture)
    record = game_record(game=finished_game, viewer=alice)
    verified = verify_record(record)
    assert verified.seed == finished_game.seed
    assert verified.result == finished_game.status
    assert verified.position.state == game_state(game=finished_game)

    imported = game_import_record(
        record=verified, player=alice, started_at=finished_game.started_at
    )
    again = game_record(game=imported, viewer=alice)
    assert _moves_section(again) == _moves_section(record)
    assert (imported.status, imported.cards_played, imported.last_seq) == (
        finished_game.status,
        finished_game.cards_played,
        finished_game.last_seq,
    )
    times = list(
        Move.objects.filter(game=imported).order_by("seq").values_list("accepted_at", flat=True)
    )
    originals = list(
        Move.objects.filter(game=finished_game)
        .order_by("seq")
        .values_list("accepted_at", flat=True)
    )
    assert all(
        abs(a - b) <= timedelta(milliseconds=1) for a, b in zip(times, originals, strict=True)
    )


def test_the_record_header_carries_the_tags(finished_game, alice):
    record = game_record(game=finished_game, viewer=alice)
    header = record.split("\n\n", 1)[0].splitlines()
    tags = dict(line[1:-2].split(' "', 1) for line in header)
    assert tags["Variant"] == "sultan"
    assert tags["Deal"] == "11"
    assert tags["Player"] == "alice"
    assert tags["Race"] == "-"
    assert tags["Result"] == finished_game.status
    assert tags["CardsPlayed"] == str(finished_game.cards_played)
    assert _moves_section(record).splitlines()[1].startswith("2 undo +")


def _corrupt(record: str, old: str, new: str) -> str:
    assert old in record
    return record.replace(old, new, 1)


def test_a_corrupted_move_is_refused_with_its_line_and_move(finished_game, alice):
    record = game_record(game=finished_game, viewer=alice)
    lines = record.splitlines()
    blank = lines.index("")
    target = blank + 3  # the line of move 3
    seq, _, elapsed = lines[target].split(" ")
    wrong = "w5"  # the Sultan never takes a card
    lines[target] = f"{seq} {wrong} {elapsed}"
    with pytest.raises(RecordError) as caught:
        verify_record("\n".join(lines) + "\n")
    assert caught.value.line == target + 1
    assert caught.value.seq == 3
    assert str(caught.value).startswith(f"line {target + 1}, move 3 (w5): ")


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('[Deal "11"]', '[Deal "12"]', "Result says|CardsPlayed says|move"),
        ('[Variant "sultan"]', '[Variant "klondike"]', "line 5: unknown variant 'klondike'"),
        ('[Race "-"]\n', "", "the header has no Race tag"),
        ("\n2 undo", "\n7 undo", "moves are numbered 1, 2, 3"),
        ('[Time "', '[Time "9', "Time says"),
        ("\n1 draw +", "\n1 draw -", "line 13: expected a move line"),
    ],
)
def test_a_corrupted_record_is_refused_with_a_clear_message(
    finished_game, alice, old, new, expected
):
    record = _corrupt(game_record(game=finished_game, viewer=alice), old, new)
    with pytest.raises(RecordError, match=expected):
        verify_record(record)


def test_a_race_record_may_not_take_back_moves(finished_game, alice):
    record = _corrupt(
        game_record(game=finished_game, viewer=alice), '[Race "-"]', '[Race "abcd-efgh"]'
    )
    with pytest.raises(RecordError, match="line 14, move 2 \\(undo\\): races have no take-backs"):
        verify_record(record)


def test_import_game_command_verifies_saves_and_refuses(
    finished_game, alice, tmp_path: Path, capsys
):
    good = tmp_path / "good.txt"
    good.write_text(game_record(game=finished_game, viewer=alice), encoding="utf-8")
    call_command("import_game", str(good), "--save")
    out = capsys.readouterr().out
    assert "the record replays" in out
    assert "stored as game #" in out
    assert Game.objects.count() == 2

    bad = tmp_path / "bad.txt"
    bad.write_text(_corrupt(good.read_text(), "\n2 undo", "\n2 w5"), encoding="utf-8")
    with pytest.raises(CommandError, match="refused: line 14, move 2 \\(w5\\)"):
        call_command("import_game", str(bad), "--save")
    assert Game.objects.count() == 2


def test_export_game_command_prints_the_record(finished_game, capsys):
    call_command("export_game", str(finished_game.pk))
    assert verify_record(capsys.readouterr().out).seed == finished_game.seed


def test_a_practice_record_is_open_to_its_player_once_over(alice, charlie):
    game = game_create(player=alice, variant="sultan", seed=3)
    append(game, alice, "draw")
    with pytest.raises(RecordHidden):
        game_record(game=game, viewer=alice)  # the deal would tell the stock's order
    game_resign(game_id=game.pk, player=alice, client_move_id="r", expected_seq=1)
    game.refresh_from_db()
    assert '[Deal "3"]' in game_record(game=game, viewer=alice)
    with pytest.raises(RecordHidden):
        game_record(game=game, viewer=charlie)
    with pytest.raises(RecordHidden):
        game_record(game=game, viewer=None)


def test_a_race_record_is_hidden_until_the_race_has_ended(alice, bob, running_race):
    game = game_create(player=alice, variant="sultan", race=running_race)
    game_create(player=bob, variant="sultan", race=running_race)  # still playing: no end yet
    race_append(game, alice, "draw")
    race_append(game, alice, "resign")
    game.refresh_from_db()
    for viewer in (alice, bob, None):
        with pytest.raises(RecordHidden):
            game_record(game=game, viewer=viewer)
    running_race.status = RaceStatus.FINISHED
    running_race.ends_at = running_race.finished_at = timezone.now()
    running_race.save()
    game.refresh_from_db()
    assert f'[Race "{running_race.code}"]' in game_record(game=game, viewer=bob)

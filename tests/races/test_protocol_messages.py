"""Client frames parsed into a frozen type each (races/protocol.py, docs/protocol.md §3)."""

from __future__ import annotations

import dataclasses

import pytest

from games.races.protocol import (
    BadMessage,
    Leave,
    Move,
    Ping,
    Ready,
    Rematch,
    Resign,
    Start,
    Sync,
    parse_client_message,
)


@pytest.mark.parametrize(
    ("frame", "parsed"),
    [
        ('{"type":"move","token":"draw","id":"m1","seq":3}', Move("draw", "m1", 3)),
        ('{"type":"move","token":"w1","id":"m2","seq":0,"game":7}', Move("w1", "m2", 0, 7)),
        ('{"type":"resign","id":"r","seq":5}', Resign("r", 5)),
        ('{"type":"ready"}', Ready(True)),
        ('{"type":"ready","ready":false}', Ready(False)),
        ('{"type":"leave"}', Leave()),
        ('{"type":"start"}', Start()),
        ('{"type":"rematch"}', Rematch()),
        ('{"type":"sync","v":12}', Sync(12)),
        ('{"type":"sync","v":12,"force":true}', Sync(12, force=True)),
        ('{"type":"ping"}', Ping()),
    ],
)
def test_each_client_message_parses_into_its_own_frozen_type(frame, parsed):
    message = parse_client_message(frame)
    assert message == parsed
    assert type(message) is type(parsed)
    assert dataclasses.is_dataclass(message)
    assert getattr(type(message), "__dataclass_params__").frozen  # noqa: B009


def test_a_resignation_is_a_move_whose_token_is_resign():
    message = parse_client_message('{"type":"resign","id":"r","seq":0}')
    assert isinstance(message, Resign)
    assert message.token == "resign"


@pytest.mark.parametrize("kind", ["[]", '["move"]', '{"a": 1}', "null", "7"])
def test_it_refuses_a_type_that_is_no_message_name_as_unknown(kind):
    with pytest.raises(BadMessage) as refused:
        parse_client_message(f'{{"type": {kind}}}')
    assert refused.value.code == "unknown_type"

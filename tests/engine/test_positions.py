"""A log's position: the line of moves that stood, and the one walk over a log."""

from __future__ import annotations

from games.engine.positions import Position, walk_log, walk_steps


def test_a_line_is_the_states_of_the_moves_not_taken_back() -> None:
    start = Position.start(7, "sultan")
    first = start.push("draw")
    taken_back = first.push("draw").pop()
    assert taken_back.line() == [start.state, first.state]
    assert start.line() == [start.state]


def test_walking_a_log_steps_each_event_with_its_stamp() -> None:
    log = [("draw", 1), ("draw", 2), ("resign", 3)]
    steps = list(walk_steps(Position.start(7, "sultan"), log, take_backs=False))
    assert [stamp for _, _, stamp in steps] == [1, 2, 3]
    assert steps[-1][0].status == "resigned"
    assert walk_log(7, "sultan", log, take_backs=False).position == steps[-1][0]

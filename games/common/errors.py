"""One refusal for every room: a `(code, message)` pair, nothing written.

Each room raises its own subclass so callers can tell whose rule said no, and
adds only what its answer needs (the seq a move refusal reports, the HTTP
status a hint refusal maps to). The codes are documented with the messages
that carry them (docs/protocol.md, docs/pages.md).
"""

from __future__ import annotations


class Refused(Exception):
    """Something the caller asked for that the rules do not allow; nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class BadInput(Refused):
    """A request body or a socket frame that is not a well-formed message."""

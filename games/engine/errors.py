class InvalidMove(ValueError):
    """The token is not move notation at all (`"zz"`, `"W3"`, `""`)."""


class IllegalMove(ValueError):
    """A well-formed move that the rules forbid in this position."""

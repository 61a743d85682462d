class InvalidMove(ValueError):
    """The token is not move notation at all (`"zz"`, `"W3"`, `""`)."""


class IllegalMove(ValueError):
    """A well-formed move that the rules forbid in this position.

    `reason` names the rule (`foundation_refuses`, `stock_empty`, ...) and
    `details` its particulars (card, foundation, slot, status, variant): the
    site words them in the reader's language (games/i18n/messages.py), the
    English message stays for logs and the engine's own callers.
    """

    def __init__(self, message: str, reason: str = "", **details: str | int) -> None:
        super().__init__(message)
        self.reason = reason
        self.details = details

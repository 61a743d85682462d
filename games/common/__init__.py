"""What every room shares: the refusal every service raises, the field checks
that JSON bodies and socket frames go through, the one rule for a name people type
and others see (`names`), and signals sent after commit.

May import: Django (its translation: refusals are worded in the request's language;
its templates: `notice` renders a refusal as a page; its signals and transactions:
`send_after_commit`) and the standard library; no models, no other room.
"""

"""What every room shares: the refusal every service raises, the field checks
that JSON bodies and socket frames go through, the one rule for a name people type
and others see (`names`), signals sent after commit, and the one way async code
calls the database (`db_threads.db`: a worker thread per call).

May import: Django (its translation: refusals are worded in the request's language;
its templates: `notice` renders a refusal as a page; its signals and transactions:
`send_after_commit`), Channels' `database_sync_to_async` (`db_threads`) and the
standard library; no models, no other room.
"""

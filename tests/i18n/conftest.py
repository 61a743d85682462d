"""The race fixtures, for the socket's language."""

from tests.races.conftest import _close_worker_connections, lobby  # noqa: F401

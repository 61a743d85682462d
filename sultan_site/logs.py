"""One JSON object per log line, for log collectors (`DJANGO_LOG_FORMAT=json`).

Only the standard library: a collector parses the line, so a field must never
break it (a message holding quotes or new lines, an exception's traceback).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any, Final

# The attributes every LogRecord has; anything else was passed with `extra=`.
_STANDARD: Final = frozenset(
    vars(logging.LogRecord("", logging.INFO, "", 0, "", None, None)).keys()
    | {"message", "asctime", "taskName"}
)


class JsonFormatter(logging.Formatter):
    """`{"time", "level", "logger", "message", ...extra, "exc_info"?}` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack_info"] = self.formatStack(record.stack_info)
        # `default=repr`: an extra that JSON cannot hold (a request, a socket)
        # is written as its repr rather than losing the whole line.
        return json.dumps(entry, default=repr, ensure_ascii=False)

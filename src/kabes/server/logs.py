"""Structured logs: one JSON object per line, with the table code and seat where there is one.

Tables log a line per change of the table (``kabes.table``); nothing logged ever holds a tile
of a hidden hand or a token.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any


class JsonLines(logging.Formatter):
    """Formats a record as one JSON line: time, level, logger, message and its fields."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as JSON."""
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            out.update(fields)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def configure(level: str = "info") -> None:
    """Send the server's logs to standard error as JSON lines."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    root = logging.getLogger("kabes")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False
    logging.Formatter.converter = time.gmtime

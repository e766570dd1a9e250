"""Structured logs: one JSON object per line, with the table code and seat where there is one.

Tables log a line per change of the table (``kabes.table``); nothing logged ever holds a tile
of a hidden hand or a token.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from typing import Any, TextIO

import msgspec

from kabes.table.entries import Entry

_ENCODER = msgspec.json.Encoder()


def _json(out: dict[str, Any]) -> str:
    """``out`` as compact JSON text, non-ASCII kept as it is (msgspec: a table writes a
    line at every change, and the standard library's encoder was a good part of its cost).
    Raises TypeError for a value of no JSON type, as ``json.dumps`` did."""
    return _ENCODER.encode(out).decode()


def log_entry(log: logging.Logger, code: str, entry: Entry) -> None:
    """One structured line per table event: never a hidden tile, never a token."""
    if not log.isEnabledFor(logging.INFO):
        return  # the line is not built at every move of a server logging warnings only
    fields: dict[str, Any] = {"table": code, "seq": entry.seq, "event": entry.kind}
    if entry.seat is not None:
        fields["seat"] = entry.seat
    elif "seat" in entry.data:
        fields["seat"] = entry.data["seat"]
    if entry.kind == "move":
        fields["timeout"] = entry.data["move"] == "timeout"
    handler = _only_handler(log)
    if handler is None:
        log.info(entry.kind, extra={"fields": fields})
        return
    # What log.info would write through configure()'s handler, without a LogRecord (built
    # at every change of every table, it was most of a line's cost): the same line.
    line = json_line(time.time(), "info", log.name, entry.kind, fields) + handler.terminator
    handler.acquire()
    try:
        handler.put(line)
    finally:
        handler.release()


def _only_handler(log: logging.Logger) -> LinesOnTheLoop | None:
    """The handler of :func:`configure` if it is the one place ``log``'s INFO records go,
    untouched (no filter anywhere, no other handler, the formatter JsonLines), else None."""
    parent = log.parent
    if log.handlers or log.filters or not log.propagate or parent is None \
            or parent.filters or parent.propagate or len(parent.handlers) != 1:
        return None
    handler = parent.handlers[0]
    if type(handler) is not LinesOnTheLoop or type(handler.formatter) is not JsonLines \
            or handler.filters or handler.level > logging.INFO:
        return None
    return handler


def json_line(at: float, level: str, logger: str, message: str,
              fields: dict[str, Any] | None = None, error: str | None = None) -> str:
    """One log line: time, level, logger, message, its fields and the error, as JSON (the
    only place a line's shape is written)."""
    out: dict[str, Any] = {"ts": round(at, 3), "level": level, "logger": logger,
                           "msg": message}
    if fields:
        out.update(fields)
    if error:
        out["error"] = error
    return _json(out)


class JsonLines(logging.Formatter):
    """Formats a record as one JSON line: time, level, logger, message and its fields."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as JSON."""
        fields = getattr(record, "fields", None)
        return json_line(record.created, record.levelname.lower(), record.name,
                         record.getMessage(), fields if isinstance(fields, dict) else None,
                         self.formatException(record.exc_info) if record.exc_info else None)


class LinesOnTheLoop(logging.StreamHandler):  # type: ignore[type-arg]
    """A stream handler that, on an event loop, writes the lines of one turn of the loop in
    one write, at the end of that turn (a table logs a line per change: one system call a
    line was a good part of a move's cost). Off the loop, it writes at once."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__(stream)
        self.pending: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Format ``record`` and write it, or queue it for the end of the loop's turn."""
        try:
            line = self.format(record) + self.terminator
        except Exception:
            self.handleError(record)
            return
        self.put(line)

    def put(self, line: str) -> None:
        """Write ``line`` (formatted), or queue it for the end of the loop's turn."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.pending.append(line)
            self.flush()
            return
        if not self.pending:
            loop.call_soon(self.flush)
        self.pending.append(line)

    def flush(self) -> None:
        """Write what is queued."""
        self.acquire()
        try:
            if self.pending:
                lines, self.pending = self.pending, []
                self.stream.write("".join(lines))
            super().flush()
        except Exception:
            pass
        finally:
            self.release()


def configure(level: str = "info") -> None:
    """Send the server's logs to standard error as JSON lines."""
    handler = LinesOnTheLoop(sys.stderr)
    handler.setFormatter(JsonLines())
    root = logging.getLogger("kabes")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False
    logging.Formatter.converter = time.gmtime

"""The table, pure: what a table is, what its seats may do, and what each seat and watcher is
sent. Standard library and ``kabes`` only (no asyncio, no msgspec, nothing of the server), so
that the same table runs inside the server and, with no network, in a browser (Pyodide).

- ``entries``: a table's log entries; ``state``: :class:`~kabes.table.state.TableState`,
  what the entries make of a table (``apply``, ``replay``), and its facts (whose turn, the
  clocks' deadlines);
- ``actions``: the checks of a seat's action against the state, each returning the entry it
  makes or raising ``Refused`` (``refusals``: the protocol's error codes); ``self_start``:
  when a table starts by itself; ``presence``: which connection changes reach the log;
- ``messages``: what a table sends (welcome, update, ack, error...), plain data classes;
  ``wire``: engine values in their wire form; ``outbox``: the summary, the clocks, each
  seat's view and the watchers', welcomes and updates; ``encoding``: the :class:`Encoder`
  that turns them into bytes, handed in by whoever drives the table (msgspec's at the server,
  :data:`~kabes.table.encoding.JSON` elsewhere), so the parts every seat is sent alike are
  still encoded once a change at the server;
- ``outcomes``: what a change also does (its ``effects``: a status, a match begun or ended,
  a hand rated, by the rank of its sides: ``rankings``);
- ``creation``: a new table's first entry from the host's request, checked (at the server,
  and for a table on a phone: kabes.local).
- ``replays``: a record's finished hand as positions, a watcher's VIEW and every hand face up
  after the deal and after each move (the replay page's ``GET /api/tables/{code}/replay``).

A driver owns a state and does what the server's actor (``kabes.server.table.actor``) does: checks
an action (``actions``), makes its entry, applies it (``TableState.apply``), keeps it and its
``outcomes`` where it keeps them, and sends each seat and watcher what ``outbox`` builds.
Clocks, sockets, the store, the computer's workers and the retried action ids are the
driver's: the table is told the time and who is connected, and never asks.

May import: the engine (``kabes`` and ``kabes.rules``) and, for types only, the levels'
review (``kabes.ai``; and the levels' names, ``LEVELS``, which a request may seat); never
``kabes.server`` or ``kabes.cli`` (tests/test_layering.py), nor a package outside the
standard library (tests/table/test_pure_table.py).
"""

from kabes.table.encoding import JSON, Encoder, JsonEncoder
from kabes.table.entries import Entry
from kabes.table.refusals import ErrorCode, Refused
from kabes.table.state import Status, TableState, Timing, replay

__all__ = [
    "JSON", "Encoder", "Entry", "ErrorCode", "JsonEncoder", "Refused", "Status", "TableState",
    "Timing", "replay",
]

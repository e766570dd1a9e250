"""A new table's first log entry, from the host's request (``POST /api/tables``, decoded by
msgspec as :class:`~kabes.server.protocol.NewTable`), checked against the rules.

The checks are the pure table's (kabes.table.creation), so that a table opened on a phone
with no network (kabes.local) is opened exactly as here.
"""

from __future__ import annotations

from kabes.table.creation import created, unknown_variant

__all__ = ["created", "unknown_variant"]

"""How a table's messages become bytes: an :class:`Encoder`, given by whoever drives the table.

The table builds its messages (``kabes.table.messages``) and, after a change, encodes every
seat's update through the encoder it is handed (``outbox.updates``), preparing the parts every
seat is sent alike once (:meth:`Encoder.shared`). The server hands msgspec's
(``kabes.server.common.protocol.MSGSPEC``: a shared part is encoded once and spliced into each
message as it is); a pure caller, where no compiled wheel is at hand (a browser), hands
:data:`JSON`, the standard library's ``json``. Both write the same JSON values, fields in
order, with no spaces and non-ASCII text as UTF-8.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Protocol


class Encoder(Protocol):
    """What the table needs to turn its messages into bytes."""

    def encode(self, message: object) -> bytes:
        """``message`` (a message of ``kabes.table.messages``, or a part of one: plain JSON
        values and those data classes) as JSON bytes."""
        ...

    def shared(self, part: object) -> object:
        """``part``, made ready to go into many messages (encoded once, where the encoder
        can splice bytes in): what a message's ``Part`` field may hold."""
        ...

    @property
    def hole(self) -> object | None:
        """A part that :meth:`encode` writes as the one byte :data:`HOLE`, a byte it writes
        nowhere else; None where the encoder has no such part. With it, the messages of one
        change that differ only in a few fields (every seat's update) are encoded once with
        holes in those fields, and each is that message's bytes with its own fields' bytes
        put in the holes (``kabes.table.outbox.updates``)."""
        ...


HOLE = b"\x00"
"""The byte an encoder's ``hole`` is written as: NUL, which JSON never writes bare (inside a
string it is the escape ``\\u0000``), so it cannot come from any value a message holds."""


_FIELDS: dict[type, tuple[str, ...]] = {}


def _plain(value: object) -> dict[str, Any]:
    """A message data class as the JSON object it is written as: its fields, in order."""
    kind = type(value)
    names = _FIELDS.get(kind)
    if names is None:
        if not dataclasses.is_dataclass(kind):
            raise TypeError(f"{kind.__name__} is not a message")
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return {name: getattr(value, name) for name in names}


class JsonEncoder:
    """The standard library's encoder: messages as msgspec writes them, with ``json``."""

    def __init__(self) -> None:
        self._json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"),
                                      default=_plain)

    def encode(self, message: object) -> bytes:
        """``message`` as compact JSON bytes (UTF-8)."""
        return self._json.encode(message).encode()

    def shared(self, part: object) -> object:
        """``part`` itself: ``json`` has no way to splice in bytes already written."""
        return part

    @property
    def hole(self) -> object | None:
        """None: ``json`` has no way to splice in bytes, so every message is written whole."""
        return None


JSON = JsonEncoder()
"""The pure encoder, for a table run without the server."""

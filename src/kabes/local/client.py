"""What the page sends the local table, read as the server reads its socket's messages
(PROTOCOL.md, "Client to server"; kabes.server.common.protocol decodes them with msgspec there).

Standard library only, for Pyodide. A message is a hello or an action with the same fields
and limits as at the server; one that is not gets the same refusal (``bad_message``, with the
action's id when one can be read), though its words may differ from msgspec's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from kabes.table.refusals import ErrorCode, Refused

ID_MOST: Final = 64
"""An action id's most characters."""
TOKEN_MOST: Final = 1024
"""A hello's token's most characters."""
ACTIONS: Final = frozenset({
    "play", "start", "next_hand", "finish", "hint", "review", "sync", "leave", "play_again",
    "remove", "say",
})
"""Every action's type."""
STRINGS: Final = {"play": ("move", 32), "say": ("phrase", 32)}
"""The actions with a text field: its name and most characters."""


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message on a socket."""

    token: str | None
    watch: bool


@dataclass(frozen=True, slots=True)
class Action:
    """An action of the socket's seat: its type, id and own field (a move, a seat, a
    phrase), if it has one."""

    type: str
    id: str
    move: str = ""
    seat: int = 0
    phrase: str = ""


class BadInput(Refused):
    """A message that is not a hello or an action as the protocol writes them; ``action_id``:
    its id, if one can be read (the ``error`` names it)."""

    def __init__(self, message: str, action_id: str | None) -> None:
        super().__init__(ErrorCode.BAD_MESSAGE, message)
        self.action_id = action_id


def decode(text: str) -> Hello | Action:
    """``text`` as a hello or an action; BadInput else."""
    try:
        raw = json.loads(text)
    except ValueError:
        raise BadInput("not JSON", None) from None
    if not isinstance(raw, dict):
        raise BadInput("a message is a JSON object", None)
    found = raw.get("id")
    action_id = found if isinstance(found, str) and len(found) <= ID_MOST else None
    kind = raw.get("type")
    if kind == "hello":
        return _hello(raw)
    if kind not in ACTIONS:
        raise BadInput(f"no message of type {kind!r}", action_id)
    if action_id is None:
        raise BadInput(f"a {kind} needs an id of at most {ID_MOST} characters", None)
    if kind in STRINGS:
        name, most = STRINGS[kind]
        value = raw.get(name)
        if not isinstance(value, str) or len(value) > most:
            raise BadInput(f"a {kind} needs {name!r}: text of at most {most} characters",
                           action_id)
        return Action(kind, action_id, move=value) if name == "move" else \
            Action(kind, action_id, phrase=value)
    if kind == "remove":
        seat = raw.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise BadInput("a remove needs 'seat': a whole number from 0", action_id)
        return Action(kind, action_id, seat=seat)
    return Action(kind, action_id)


def _hello(raw: dict[str, Any]) -> Hello:
    token = raw.get("token")
    watch = raw.get("watch", False)
    if ((token is not None and not (isinstance(token, str) and len(token) <= TOKEN_MOST))
            or not isinstance(watch, bool)):
        raise BadInput("a hello has a text 'token' and a true or false 'watch'", None)
    return Hello(token, watch)

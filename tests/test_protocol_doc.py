"""docs/protocol.md keeps up with the code and with the shared PROTOCOL.md.

- Every client message the server decodes (the tags of the msgspec structs in
  ``kabes.server.common.protocol.ClientMessage``, read with ``msgspec.inspect``, so the check holds
  however the union is spelled) is named in the "Client messages" section, and every message
  the table sends (``ServerMessage``: the pure table's data classes, whose ``type`` is a
  field set by the class) in the "Server messages" section.
- Every event kind of ``kabes.events`` is named in the "Events" section.
- Every code of the shared PROTOCOL.md's "Error codes" list is in the error table. The shared
  file lives beside the repository (``../shared/PROTOCOL.md``), which a clone may not have:
  that check alone is skipped when it is missing.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path

import msgspec
import pytest

from kabes import events
from kabes.server.common import protocol

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "protocol.md"
SHARED = ROOT.parent / "shared" / "PROTOCOL.md"


def section(text: str, heading: str) -> str:
    """The text under the ``## heading`` of a markdown page, up to the next ``## ``."""
    parts = re.split(rf"^## {re.escape(heading)}\s*$", text, maxsplit=1, flags=re.MULTILINE)
    assert len(parts) == 2, f"no section '## {heading}'"
    return re.split(r"^## ", parts[1], maxsplit=1, flags=re.MULTILINE)[0]


def named(text: str) -> set[str]:
    """Every name written in backticks in ``text``."""
    return set(re.findall(r"`([^`\s]+)`", text))


def first_column(text: str) -> set[str]:
    """The backticked names in the first column of the tables in ``text``."""
    out: set[str] = set()
    for line in text.splitlines():
        cells = line.split("|")
        if line.startswith("|") and len(cells) > 2:
            out |= named(cells[1])
    return out


def tags_of(union: object) -> set[str]:
    """The ``type`` of every tagged msgspec struct in ``union``, and of every data class
    whose ``type`` field has a default."""
    members = typing.get_args(union) or (union,)
    if all(dataclasses.is_dataclass(member) for member in members):
        found = {str(f.default) for member in members for f in dataclasses.fields(member)
                 if f.name == "type" and isinstance(f.default, str)}
        assert len(found) == len(members), f"{union} has a message with no type"
        return found
    tags: set[str] = set()
    todo = [msgspec.inspect.type_info(union)]
    while todo:
        info = todo.pop()
        if isinstance(info, msgspec.inspect.Metadata):  # Annotated[..., msgspec.Meta(...)]
            todo.append(info.type)
        elif isinstance(info, msgspec.inspect.UnionType):
            todo += info.types
        elif isinstance(info, msgspec.inspect.StructType) and info.tag is not None:
            tags.add(str(info.tag))
    assert tags, f"{union} names no tagged message"
    return tags


def event_kinds() -> set[str]:
    """The ``kind`` of every event class in ``kabes.events``."""
    found: set[str] = set()
    todo = list(events.Event.__subclasses__())
    while todo:
        kind = todo.pop()
        todo += kind.__subclasses__()
        value = getattr(kind, "kind", None)
        if not isinstance(value, str):  # a property: read it off a bare instance
            value = object.__new__(kind).kind
        found.add(value)
    assert found, "kabes.events has no event class"
    return found


def test_every_client_message_is_documented() -> None:
    documented = named(section(DOC.read_text(encoding="utf-8"), "Client messages"))
    missing = sorted(tags_of(protocol.ClientMessage) - documented)
    assert not missing, f"client messages missing from docs/protocol.md: {missing}"


def test_every_server_message_is_documented() -> None:
    documented = named(section(DOC.read_text(encoding="utf-8"), "Server messages"))
    missing = sorted(tags_of(protocol.ServerMessage) - documented)
    assert not missing, f"server messages missing from docs/protocol.md: {missing}"


def test_every_error_code_of_the_server_is_in_the_error_table() -> None:
    table = first_column(section(DOC.read_text(encoding="utf-8"), "Error codes"))
    missing = sorted({str(code) for code in protocol.ErrorCode} - table)
    assert not missing, f"error codes missing from docs/protocol.md's table: {missing}"
    unknown = sorted(c for c in table - {str(code) for code in protocol.ErrorCode}
                     if re.fullmatch(r"[a-z_]+", c))
    assert not unknown, f"docs/protocol.md lists codes the server does not have: {unknown}"


def test_every_event_kind_is_documented() -> None:
    documented = first_column(section(DOC.read_text(encoding="utf-8"), "Events"))
    missing = sorted(event_kinds() - documented)
    assert not missing, f"event kinds missing from docs/protocol.md's Events tables: {missing}"


def test_every_shared_error_code_is_in_the_error_table() -> None:
    if not SHARED.is_file():
        pytest.skip(f"the shared PROTOCOL.md is not beside this checkout ({SHARED})")
    shared = named(section(SHARED.read_text(encoding="utf-8"), "Error codes"))
    shared = {code for code in shared if re.fullmatch(r"[a-z_]+", code)}
    assert shared, "the shared PROTOCOL.md's Error codes section lists no code"
    table = first_column(section(DOC.read_text(encoding="utf-8"), "Error codes"))
    missing = sorted(shared - table)
    assert not missing, f"error codes missing from docs/protocol.md's table: {missing}"

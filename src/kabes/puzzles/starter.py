"""The starter set: puzzles shipped with Kabès, so a server has puzzles from its first start.

Finding puzzles takes minutes (every candidate position is proven over every deal), too long
for a server's start. So a set found ahead of time ships as package data
(``data/starter.json.gz``): about forty puzzles for each line variant at each seat count,
found in the computer's own matches from a fixed seed by ``kabes puzzles export`` (the exact
command is in docs/puzzles.md). The server loads it into an empty store; the offline pack
can read it too. The file is gzip JSON, ``{"format": 1, "puzzles": [...]}``, each puzzle its
``to_dict``, sorted by key: the same puzzles always give the same bytes (the gzip header's
time is 0), so a regenerated file differs only where the puzzles do.

Standard library only, like the rest of the engine layer.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from kabes.puzzles.model import Puzzle
from kabes.puzzles.prove import LINE_VARIANTS
from kabes.rules import VARIANTS, get_rules

FORMAT = 1
"""The file's format number: a reader refuses another."""
STARTER = "starter.json.gz"
"""The starter set's name in ``kabes.puzzles.data``."""


def seatings() -> list[tuple[str, int]]:
    """Every line variant with every seat count its rules allow, in the catalogue's order:
    the set covers each (a four-seat Haitian puzzle is not a two-seat one)."""
    return [(v, n) for v in VARIANTS if v in LINE_VARIANTS for n in get_rules(v).seat_counts]


def dumps(puzzles: Iterable[Puzzle]) -> bytes:
    """``puzzles`` as the file's bytes: one of each key, sorted by key, gzip with no time."""
    unique = {p.key: p for p in puzzles}
    data = {"format": FORMAT, "puzzles": [unique[k].to_dict() for k in sorted(unique)]}
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def write(path: Path, puzzles: Iterable[Puzzle]) -> int:
    """Write ``puzzles`` to ``path`` (see :func:`dumps`); the number written."""
    data = dumps(puzzles)
    path.write_bytes(data)
    return len(json.loads(gzip.decompress(data))["puzzles"])


def loads(data: bytes) -> list[Puzzle]:
    """The puzzles of a file's bytes; ValueError if they are not a puzzle set."""
    try:
        parsed: Any = json.loads(gzip.decompress(data))
    except (OSError, EOFError, ValueError) as err:
        raise ValueError(f"not a gzip JSON puzzle set: {err}") from None
    if not isinstance(parsed, dict) or parsed.get("format") != FORMAT:
        raise ValueError(f"not a puzzle set of format {FORMAT}")
    try:
        return [Puzzle.from_dict(p) for p in parsed["puzzles"]]
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"a puzzle of the set does not read: {err!r}") from None


def read(path: Path) -> list[Puzzle]:
    """The puzzles of the file at ``path``."""
    return loads(path.read_bytes())


def starter_bytes() -> bytes:
    """The shipped starter set's bytes (package data, so installed or editable alike)."""
    return resources.files("kabes.puzzles").joinpath("data", STARTER).read_bytes()


def starter() -> list[Puzzle]:
    """The shipped starter set, sorted by key."""
    return loads(starter_bytes())


"""The server's rooms (docs/server.md, "The house"): ``kabes.server`` is a few modules that
put the server together and one subpackage per job, each importing only the rooms drawn
below it, so that a newcomer finds a thing by its job and a change stays in its room.

``common`` (configuration, protocol, logs, metrics, limits) is below every room; the store
and the computer's workers stand on it; a table's actor on them; the hub of live tables on the
table; the lobby and the tournaments on the hub; the processes and the services the routes
share on all of these; the HTTP edge on everything; the assembly and the runtime on top.
"""

from __future__ import annotations

from pathlib import Path

from test_layering import SRC, imports

SERVER = SRC / "kabes" / "server"

COMMON = frozenset({"common"})
BASE = COMMON | {"store", "compute"}
HUB = BASE | {"table", "hub"}
PLACE = HUB | {"lobby", "tournaments"}
GLUE = PLACE | {"processes", "services"}

ROOMS_BELOW: dict[str, frozenset[str]] = {
    "common": frozenset(),
    "store": COMMON,
    "compute": COMMON,
    "table": BASE,
    "hub": BASE | {"table"},
    "lobby": HUB,
    "tournaments": HUB,
    "processes": PLACE,
    "services": PLACE | {"processes"},
    "http": GLUE,
    "runtime": GLUE | {"http"},
    "assembly": GLUE | {"http", "runtime"},
}
"""Each room of ``kabes.server`` (a subpackage, or a module at its root) and the rooms it
may import."""

MOST_AT_ROOT = 10
"""Modules at ``kabes.server``'s root (its ``__init__`` included): the assembly's few."""

MOST_LINES = 600
"""No module of ``kabes`` (the web client's included) grows past this: a sign that it holds
two things."""


def room(module: str) -> str | None:
    """The room of ``kabes.server`` that ``module`` is in (None: outside the server, or the
    package ``kabes.server`` itself)."""
    parts = module.split(".")
    if parts[:2] != ["kabes", "server"] or len(parts) < 3:
        return None
    return parts[2]


def wrong_ways(root: Path = SRC) -> list[str]:
    """Each import between two rooms that ``ROOMS_BELOW`` does not draw; an unknown room is
    wrong whatever it imports."""
    found = []
    seen: set[tuple[str, str]] = set()
    for each in imports(root):
        source, target = room(each.module), room(each.target)
        if source is None or target is None or source == target:
            continue
        if target not in ROOMS_BELOW.get(source, frozenset()) and (source, target) not in seen:
            seen.add((source, target))
            found.append(f"{source} -> {target}: {each}")
    return found


def test_each_room_imports_only_the_rooms_drawn_below_it() -> None:
    assert wrong_ways() == []


def test_every_room_is_drawn() -> None:
    """A new subpackage or root module of the server is given its place here first."""
    rooms = {p.name for p in SERVER.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    rooms |= {p.stem for p in SERVER.glob("*.py") if p.stem != "__init__"}
    assert rooms == set(ROOMS_BELOW)


def test_the_server_root_holds_its_rooms_and_a_few_modules() -> None:
    assert len(list(SERVER.glob("*.py"))) <= MOST_AT_ROOT


def test_each_room_says_what_it_is_and_what_it_may_import() -> None:
    for package in SERVER.iterdir():
        init = package / "__init__.py"
        if init.exists():
            text = init.read_text(encoding="utf-8")
            assert text.startswith('"""') and "May import" in text, package.name


def test_an_import_upward_is_named(tmp_path: Path) -> None:
    for module, text in {
        "kabes.server.table.actor": "from kabes.server.lobby.board import Board\n",
        "kabes.server.lobby.board": "from kabes.server.table.actor import Table\n",
        "kabes.server.store.store": "from kabes.server.common.config import Settings\n",
        "kabes.server.common.config": "X = 1\n",
    }.items():
        path = tmp_path.joinpath(*module.split(".")).with_suffix(".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in path.relative_to(tmp_path).parents:
            if parent != Path("."):
                (tmp_path / parent / "__init__.py").touch()
        path.write_text(text, encoding="utf-8")
    assert wrong_ways(tmp_path) == [
        "table -> lobby: kabes/server/table/actor.py:1 imports kabes.server.lobby.board",
    ]


def long_modules(root: Path = SRC) -> list[str]:
    """The modules of ``kabes`` (Python and the web client's JavaScript) over ``MOST_LINES``."""
    kabes = root / "kabes"
    found = []
    for path in sorted([*kabes.rglob("*.py"), *kabes.rglob("*.js")]):
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > MOST_LINES:
            found.append(f"{path.relative_to(root)}: {lines} lines")
    return found


def test_no_module_grows_past_six_hundred_lines() -> None:
    assert long_modules() == []


def test_a_long_module_is_named(tmp_path: Path) -> None:
    (tmp_path / "kabes").mkdir()
    (tmp_path / "kabes" / "long.js").write_text("x\n" * (MOST_LINES + 1), encoding="utf-8")
    (tmp_path / "kabes" / "short.py").write_text("x\n" * MOST_LINES, encoding="utf-8")
    assert long_modules(tmp_path) == [f"kabes/long.js: {MOST_LINES + 1} lines"]

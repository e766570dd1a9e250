"""The layers of kabes import one way only (docs/engine.md draws them): no layer imports
another that imports it back, each imports only the layers drawn below it, only the terminal
draws with Rich, and the computer players ask a variant's Rules for its traits, never which
variant it is.

The engine is one layer, as DESIGN.md draws it: every module at the top of ``kabes``
(``kabes.match``, ``kabes.views``, ``kabes.tiles``, ...) and the rules (``kabes.rules``).
Every other package (``kabes.ai``, ``kabes.cli``, ``kabes.lessons``, ``kabes.server``,
``kabes.table``, ``kabes.words``) is a layer of its own.

Every import counts, those inside functions and under ``TYPE_CHECKING`` too: an import moved
into a function still ties the two layers together.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kabes.rules import VARIANTS

SRC = Path(__file__).resolve().parents[1] / "src"
KABES = SRC / "kabes"
AI = KABES / "ai"
CLI = KABES / "cli"

VARIANT_IDS = frozenset(VARIANTS) | {
    "partnership",
    "plaza",
    "plaza-partners",
    "haitian",
    "haitian-partners",
    "mexican-train",
}
"""Every variant id: those registered, and those the issue named, should one be renamed."""


@dataclass(frozen=True, slots=True)
class Import:
    """One import statement: the module it is in, where, and the module it names."""

    module: str
    where: str
    """The module's file, from the source root (``kabes/ai/expert.py``)."""
    line: int
    target: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line} imports {self.target}"


def module_name(path: Path, root: Path) -> str:
    """``kabes.ai.expert`` for ``<root>/kabes/ai/expert.py``; a package is its ``__init__``."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(root: Path) -> Iterator[Import]:
    """Every import of a ``kabes`` module in every module under ``<root>/kabes``, wherever
    it stands in the module (at the top, in a function, under ``TYPE_CHECKING``)."""
    for path in sorted((root / "kabes").rglob("*.py")):
        module = module_name(path, root)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                # ``from kabes import ai`` imports the package ``kabes.ai``.
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            for target in targets:
                if target.startswith("kabes.") and _exists(root, target):
                    yield Import(module, path.relative_to(root).as_posix(), node.lineno, target)


def _exists(root: Path, module: str) -> bool:
    where = root.joinpath(*module.split("."))
    return where.is_dir() or where.with_suffix(".py").is_file()


ENGINE = "engine"
"""The game engine's layer: the modules at the top of ``kabes`` and ``ENGINE_PACKAGES``."""

ENGINE_PACKAGES = frozenset({"kabes.rules"})
"""The packages DESIGN.md counts in the engine ("tiles, rules/<variant>, match, views,
records"): one module per variant, built on the engine's pieces and scoring its matches."""

BELOW: dict[str, frozenset[str]] = {
    "kabes.cli": frozenset({"kabes.server", "kabes.local", "kabes.table", "kabes.lessons",
                            "kabes.ai", "kabes.words", "kabes.tournaments", "kabes.puzzles",
                            ENGINE}),
    "kabes.server": frozenset({"kabes.local", "kabes.table", "kabes.lessons", "kabes.ai",
                               "kabes.words", "kabes.tournaments", "kabes.puzzles", ENGINE}),
    "kabes.local": frozenset({"kabes.table", "kabes.lessons", "kabes.ai", "kabes.words",
                              "kabes.puzzles", ENGINE}),
    "kabes.table": frozenset({"kabes.ai", ENGINE}),
    "kabes.puzzles": frozenset({"kabes.table", "kabes.ai", ENGINE}),
    "kabes.tournaments": frozenset({ENGINE}),
    "kabes.lessons": frozenset({"kabes.words", ENGINE}),
    "kabes.ai": frozenset({ENGINE}),
    "kabes.words": frozenset(),
    ENGINE: frozenset(),
}
"""Each layer, and the layers it may import (docs/engine.md's diagram): the terminal starts
the server; the server seats the levels, serves the lessons and drives the pure table; the
phone alone (kabes.local) drives the same table and answers the same lessons; the
table (what a table is, may do and sends, kabes.table) stands on the engine and words the
levels' reviews, and runs without the server; the lessons and the levels stand side by side
on the engine; the puzzles (kabes.puzzles) are found and proven with the levels' solver on
the engine, their positions shown as the table shows a seat's; the words (the catalogs) and
the engine import nothing of the others."""


def layer(module: str, root: Path = SRC) -> str:
    """The node of the layer graph ``module`` (under ``root``) belongs to: ``ENGINE`` for
    ``kabes`` itself, a module at the top of ``kabes`` or one in ``ENGINE_PACKAGES``, else the
    package at the first level under ``kabes`` (``kabes.ai``, ``kabes.cli``, ``kabes.server``)."""
    parts = module.split(".")
    package = ".".join(parts[:2])
    if len(parts) == 1 or package in ENGINE_PACKAGES:
        return ENGINE
    return package if root.joinpath(*parts[:2]).is_dir() else ENGINE


def package_graph(root: Path = SRC) -> dict[str, dict[str, Import]]:
    """Which layer imports which, with one import that shows it (the first in file order)."""
    graph: dict[str, dict[str, Import]] = {}
    for found in imports(root):
        source, target = layer(found.module, root), layer(found.target, root)
        if source != target:
            graph.setdefault(source, {}).setdefault(target, found)
    return graph


def find_cycle(graph: dict[str, dict[str, Import]]) -> list[Import] | None:
    """One cycle of the graph, as the imports that make it up, or None."""
    done: set[str] = set()
    path: list[str] = []
    edges: list[Import] = []

    def visit(node: str) -> list[Import] | None:
        if node in path:
            return edges[path.index(node) :]
        if node in done:
            return None
        path.append(node)
        for target, found in sorted(graph.get(node, {}).items()):
            edges.append(found)
            cycle = visit(target)
            if cycle is not None:
                return cycle
            edges.pop()
        path.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        cycle = visit(node)
        if cycle is not None:
            return cycle
    return None


def _short(node: str) -> str:
    return node.removeprefix("kabes.")


def describe(cycle: list[Import], root: Path = SRC) -> str:
    """A cycle as a reader can follow it: the layers, then the import behind each step."""
    if not cycle:
        return "no cycle"
    nodes = [layer(cycle[0].module, root), *(layer(i.target, root) for i in cycle)]
    return f"layer cycle {' -> '.join(map(_short, nodes))}:\n" + "\n".join(
        f"  {i}" for i in cycle
    )


def wrong_ways(graph: dict[str, dict[str, Import]]) -> list[str]:
    """The imports of a layer that ``BELOW`` does not draw under it, one per pair of layers;
    a layer ``BELOW`` does not know is wrong whatever it imports."""
    found = []
    for source, targets in sorted(graph.items()):
        for target, shown in sorted(targets.items()):
            if target not in BELOW.get(source, frozenset()):
                found.append(f"{_short(source)} -> {_short(target)}: {shown}")
    return found


def test_no_layer_imports_a_layer_that_imports_it_back() -> None:
    cycle = find_cycle(package_graph(SRC))
    assert cycle is None, describe(cycle or [])


def test_each_layer_imports_only_the_layers_drawn_below_it() -> None:
    """The engine imports none of ai, cli, server, lessons, words; the levels import neither
    the terminal nor the server (nor the lessons); the server imports no terminal."""
    assert wrong_ways(package_graph(SRC)) == []


def test_every_package_is_placed_in_a_layer() -> None:
    """A new package under ``kabes`` is put in the engine or given its place in ``BELOW``."""
    packages = {
        f"kabes.{path.relative_to(KABES).parts[0]}"
        for path in KABES.glob("*/**/*.py")
    }
    assert packages - ENGINE_PACKAGES - set(BELOW) == set()


def test_the_layers_drawn_make_no_cycle() -> None:
    drawn = {
        source: {target: Import(source, source, 0, target) for target in targets}
        for source, targets in BELOW.items()
    }
    assert find_cycle(drawn) is None


def test_the_graph_sees_the_layers_as_docs_engine_draws_them() -> None:
    """Every layer is built on the engine, the terminal on the server and the levels, the
    server on the levels and the lessons: if these edges vanished, the graph would be reading
    nothing. The rules are the engine's, and the review and the tournaments the levels'."""
    graph = package_graph(SRC)
    for source in set(BELOW) - {ENGINE, "kabes.words"}:
        assert ENGINE in graph[source], source
    assert {"kabes.ai", "kabes.server", "kabes.lessons", "kabes.words"} <= set(graph["kabes.cli"])
    assert {"kabes.ai", "kabes.lessons", "kabes.table", "kabes.words"} <= set(
        graph["kabes.server"])
    assert set(graph["kabes.table"]) <= {ENGINE, "kabes.ai"}, "the table runs without the server"
    assert "kabes.words" in graph["kabes.lessons"]
    assert ENGINE not in graph, "the engine imports another layer"
    assert layer("kabes.rules.haitian") == layer("kabes.match") == layer("kabes.tiles") == ENGINE
    assert layer("kabes.ai.review") == layer("kabes.ai.tournament") == "kabes.ai"


def _write(root: Path, module: str, text: str) -> None:
    path = root.joinpath(*module.split(".")).with_suffix(".py")
    path.parent.mkdir(parents=True, exist_ok=True)
    for parent in path.relative_to(root).parents:
        if parent != Path("."):
            (root / parent / "__init__.py").touch()
    path.write_text(text, encoding="utf-8")


def test_a_cycle_through_an_import_inside_a_function_is_named(tmp_path: Path) -> None:
    _write(tmp_path, "kabes.ai.player", "from kabes.cli.words import Names\n")
    _write(tmp_path, "kabes.cli.words", "def names():\n    from kabes.ai import player\n")
    _write(tmp_path, "kabes.views", "from kabes.tiles import Tile\n")
    _write(tmp_path, "kabes.tiles", "X = 1\n")
    cycle = find_cycle(package_graph(tmp_path))
    assert cycle is not None
    told = describe(cycle, tmp_path)
    assert told.startswith("layer cycle ai -> cli -> ai:"), told
    assert "kabes/cli/words.py:2 imports kabes.ai" in told
    _write(tmp_path, "kabes.cli.words", "X = 1\n")
    assert find_cycle(package_graph(tmp_path)) is None


def test_the_engine_and_the_rules_are_one_layer(tmp_path: Path) -> None:
    """The match imports the rules and the rules import the engine's pieces: one layer, no
    cycle. A module at the top of ``kabes`` importing the levels that import it back is one."""
    _write(tmp_path, "kabes.match", "from kabes.rules import get_rules\n")
    _write(tmp_path, "kabes.rules.base", "from kabes.tiles import Tile\n")
    _write(tmp_path, "kabes.tiles", "X = 1\n")
    _write(tmp_path, "kabes.ai.expert", "from kabes.views import View\n")
    _write(tmp_path, "kabes.views", "from kabes.match import Match\n")
    assert find_cycle(package_graph(tmp_path)) is None
    _write(tmp_path, "kabes.review", "from kabes.ai.expert import Expert\n")
    graph = package_graph(tmp_path)
    cycle = find_cycle(graph)
    assert cycle is not None
    told = describe(cycle, tmp_path)
    assert told.startswith("layer cycle engine -> ai -> engine:"), told
    assert "kabes/review.py:1 imports kabes.ai.expert" in told
    assert wrong_ways(graph) == ["engine -> ai: kabes/review.py:1 imports kabes.ai.expert"]


def test_an_import_against_the_layers_is_named_without_a_cycle(tmp_path: Path) -> None:
    _write(tmp_path, "kabes.ai.expert", "from kabes.server.common.config import Settings\n")
    _write(tmp_path, "kabes.server.common.config", "X = 1\n")
    _write(tmp_path, "kabes.gadgets.thing", "X = 1\n")
    _write(tmp_path, "kabes.lessons.check", "from kabes.gadgets import thing\n")
    graph = package_graph(tmp_path)
    assert find_cycle(graph) is None
    assert wrong_ways(graph) == [
        "ai -> server: kabes/ai/expert.py:1 imports kabes.server.common.config",
        "lessons -> gadgets: kabes/lessons/check.py:1 imports kabes.gadgets",
    ]


def rich_imports(root: Path) -> list[str]:
    """The imports of Rich outside ``kabes/cli``."""
    found = []
    for path in sorted((root / "kabes").rglob("*.py")):
        if (root / "kabes" / "cli") in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            if any(name == "rich" or name.startswith("rich.") for name in names):
                found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_only_the_terminal_imports_rich() -> None:
    """The server's workers and the levels never load the terminal's drawing library."""
    assert rich_imports(SRC) == []


def test_a_rich_import_outside_the_terminal_is_found(tmp_path: Path) -> None:
    _write(tmp_path, "kabes.cli.display", "from rich.text import Text\n")
    _write(tmp_path, "kabes.ai.boards.line", "def f():\n    import rich.panel\n")
    assert rich_imports(tmp_path) == ["kabes/ai/boards/line.py:2"]


RUNS_MATCHES = frozenset({AI / "tournament.py"})
"""The modules of ``ai/`` that play the levels against each other rather than choose moves:
a tournament is of the variant it is given, which it passes on whole (to ``Match``,
``get_rules`` and its report), so it may read a ``.variant``; it compares none and writes
none. (The review replays a record and reads no ``.variant``.)"""


def variant_switches(source: str, passes_variant_on: bool = False) -> list[str]:
    """Where the code asks which variant it plays rather than what its rules are: a
    comparison of a ``variant`` (``variant ==``, the issue's grep), a variant id written as a
    string, or a ``.variant`` read for anything but fetching its Rules (``get_rules``), unless
    ``passes_variant_on`` (``RUNS_MATCHES``)."""
    found = [m.group(0) for m in re.finditer(r"variant\s*(===?|!==?)", source)]
    tree = ast.parse(source)
    fetched: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "get_rules":
            fetched.update(id(arg) for arg in node.args)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in VARIANT_IDS:
            found.append(f"line {node.lineno}: {node.value!r}")
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "variant"
            and id(node) not in fetched
            and not passes_variant_on
        ):
            found.append(f"line {node.lineno}: .variant read but not to fetch its Rules")
    return found


@pytest.mark.parametrize(
    "path", sorted(AI.rglob("*.py")), ids=lambda p: str(p.relative_to(AI))
)
def test_the_computer_players_read_traits_never_a_variant(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert variant_switches(source, passes_variant_on=path in RUNS_MATCHES) == []


def test_a_tournament_may_pass_its_variant_on_but_never_switch_on_it() -> None:
    passed_on = "match = Match(setup.variant, setup.players)\n"
    assert variant_switches(passed_on) != []
    assert variant_switches(passed_on, passes_variant_on=True) == []
    for switch in ("if setup.variant == 'plaza':\n    pass", "BUDGETS = {'haitian': 2.0}"):
        assert variant_switches(switch, passes_variant_on=True) != [], switch


@pytest.mark.parametrize(
    "source",
    [
        "LEADS = {'plaza': 0.15}",
        "reads = view.variant in READS",
        "if view.variant == other:\n    pass",
        "key = (view.variant, view.scores)",
        "if rules.id != 'haitian-partners':\n    pass",
    ],
)
def test_a_variant_named_in_the_levels_is_found(source: str) -> None:
    assert variant_switches(source) != []


def test_fetching_the_rules_by_the_views_variant_is_allowed() -> None:
    assert variant_switches("rules = get_rules(view.variant)\ntop = rules.top\n") == []

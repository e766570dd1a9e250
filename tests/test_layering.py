"""The layers of kabes import one way only (docs/engine.md draws them): no package imports
another that imports it back, only the terminal draws with Rich, and the computer players ask
a variant's Rules for its traits, never which variant it is.

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


def layer(module: str) -> str:
    """The node of the package graph ``module`` belongs to: the package at the first level
    under ``kabes`` (``kabes.ai``, ``kabes.cli``, ``kabes.rules``, ``kabes.server``), or for
    a module at that level (the engine's: ``kabes.match``, ``kabes.views``, ``kabes.tiles``)
    the module itself. The engine is layered within itself, around the rules and the levels
    (tiles and hands below ``kabes.rules``, the match above them; ``kabes.review`` and
    ``kabes.tournament`` above ``kabes.ai``), so it is never one node: that would make a cycle
    of layers that depend one way."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else module


def package_graph(root: Path) -> dict[str, dict[str, Import]]:
    """Which layer imports which, with one import that shows it."""
    graph: dict[str, dict[str, Import]] = {}
    for found in imports(root):
        source, target = layer(found.module), layer(found.target)
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


def describe(cycle: list[Import]) -> str:
    """A cycle as a reader can follow it: the layers, then the import behind each step."""
    if not cycle:
        return "no cycle"
    layers = " -> ".join([cycle[0].module.split(".")[1], *(i.target.split(".")[1] for i in cycle)])
    return f"package cycle {layers}:\n" + "\n".join(f"  {i}" for i in cycle)


def test_no_package_imports_a_package_that_imports_it_back() -> None:
    cycle = find_cycle(package_graph(SRC))
    assert cycle is None, describe(cycle or [])


def test_the_graph_sees_the_layers_as_docs_engine_draws_them() -> None:
    """The terminal is built on the levels, the levels on the rules and the engine: if these
    edges vanished, the graph would be reading nothing."""
    graph = package_graph(SRC)
    assert {"kabes.ai", "kabes.rules", "kabes.views"} <= set(graph["kabes.cli"])
    assert {"kabes.rules", "kabes.views"} <= set(graph["kabes.ai"])
    assert "kabes.tiles" in graph["kabes.rules"]
    assert "kabes.ai" not in graph["kabes.rules"]


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
    told = describe(cycle)
    assert told.startswith("package cycle ai -> cli -> ai:"), told
    assert "kabes/cli/words.py:2 imports kabes.ai" in told
    _write(tmp_path, "kabes.cli.words", "X = 1\n")
    assert find_cycle(package_graph(tmp_path)) is None


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


def variant_switches(source: str) -> list[str]:
    """Where the code asks which variant it plays rather than what its rules are: a
    comparison of a ``variant`` (``variant ==``, the issue's grep), a variant id written as a
    string, or a ``.variant`` read for anything but fetching its Rules (``get_rules``)."""
    found = [m.group(0) for m in re.finditer(r"variant\s*(===?|!==?)", source)]
    tree = ast.parse(source)
    fetched: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "get_rules":
            fetched.update(id(arg) for arg in node.args)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value in VARIANT_IDS:
            found.append(f"line {node.lineno}: {node.value!r}")
        if isinstance(node, ast.Attribute) and node.attr == "variant" and id(node) not in fetched:
            found.append(f"line {node.lineno}: .variant read but not to fetch its Rules")
    return found


@pytest.mark.parametrize(
    "path", sorted(AI.rglob("*.py")), ids=lambda p: str(p.relative_to(AI))
)
def test_the_computer_players_read_traits_never_a_variant(path: Path) -> None:
    assert variant_switches(path.read_text(encoding="utf-8")) == []


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

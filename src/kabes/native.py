"""The expert's hot modules compiled to C by mypyc, used only while they match their sources.

The expert's strength is the playouts and endgame searches it fits into its budget, so the
modules where its time goes (``COMPILED``) are compiled with mypyc (which ships with mypy)
into ``<venv>/kabes-compiled/``, outside ``src``: the pure ``.py`` files stay what the page
runs under Pyodide, what the offline pack ships, and what runs where no C compiler is at hand.

:func:`install` (called from ``kabes/__init__.py``) puts a finder before Python's own on
``sys.meta_path``. It serves a compiled module only while the SHA-256 of every source file
of the build is the one it was built from: one module edited since, and the whole build is
set aside (compiled modules call each other's C code directly, so one stale module would
run stale code in the others) and everything runs as pure Python until the next build.
``KABES_PURE_PYTHON=1`` forces pure Python. Where there is no build (Pyodide, a fresh
checkout) the cost is one failed ``stat``.

:func:`build` compiles (``kabes compiled`` / ``python -m kabes.cli.compiled`` call it, and
``scripts/setup`` calls them); docs/levels.md, "Compiled where it counts", says what it gained.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

COMPILED = (
    "kabes.ai.bits",
    "kabes.ai.fastline",
    "kabes.ai.endgame",
    "kabes.ai.worlds",
    "kabes.ai.reading",
    "kabes.table.wire",
    "kabes.table.outbox",
)
"""The modules compiled, as one mypyc group: where the expert's time goes (docs/levels.md),
and where the server's goes in building every seat's update at each change of a table
(docs/server.md, "The floor"). Only modules whose classes never cross a process or a copy:
a class compiled by mypyc cannot be pickled (a view to the computer workers) or deep-copied
(a hand, in a lesson), so ``kabes.views``, ``kabes.line_hand`` and ``kabes.table.state``,
which would gain as much again, stay pure."""

GROUP = "kabes_native"
"""The mypyc group's name: its shared library is the top-level module ``kabes_native__mypyc``."""

LIBRARY = f"{GROUP}__mypyc"

PURE_ENV = "KABES_PURE_PYTHON"
"""Set to 1 to run pure Python whatever is built."""

DIR_ENV = "KABES_COMPILED_DIR"
"""Where the build is, if not ``<sys.prefix>/kabes-compiled`` (for tests)."""

MANIFEST = "manifest.json"

PACKAGE = os.path.dirname(os.path.abspath(__file__))
"""The ``kabes`` package whose sources the build must match. (Paths are strings here, and
``importlib.abc``, ``pathlib``, ``json`` and ``dataclasses`` are not imported up front: they
made importing ``kabes`` 35 ms slower.)"""


def compiled_dir() -> str:
    """Where the compiled modules are built and looked for."""
    return os.environ.get(DIR_ENV) or os.path.join(sys.prefix, "kabes-compiled")


def source_of(module: str) -> str:
    """The pure source file of a ``kabes`` module."""
    return os.path.join(PACKAGE, *module.split(".")[1:]) + ".py"


def digest(path: str) -> str:
    """SHA-256 of a file's bytes."""
    import hashlib

    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


def pure_forced() -> bool:
    """Whether ``KABES_PURE_PYTHON`` asks for pure Python."""
    return os.environ.get(PURE_ENV, "").strip() not in ("", "0")


def platform_tag() -> str:
    """The Python an extension must be built for: its cache tag and extension suffix."""
    return f"{sys.implementation.cache_tag}{importlib.machinery.EXTENSION_SUFFIXES[0]}"


class Build:
    """A build as its manifest describes it: the extension file of each module (and of the
    group's shared library), and the hash of each source it was compiled from."""

    def __init__(
        self, folder: str, files: dict[str, str], sources: dict[str, str], tag: str
    ) -> None:
        self.folder = folder
        self.files = files
        self.sources = sources
        self.tag = tag

    @classmethod
    def read(cls, folder: str) -> Build | None:
        """The build in ``folder``, or None if there is none (or its manifest is unreadable)."""
        import json

        try:
            with open(os.path.join(folder, MANIFEST), encoding="utf-8") as file:
                data = json.load(file)
            return cls(folder, dict(data["files"]), dict(data["sources"]), str(data["tag"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def stale(self) -> list[str]:
        """The modules whose source differs from the one built (or that are missing), and
        a word if the build is for another Python: empty when the build can be used."""
        if self.tag != platform_tag():
            return [f"built for {self.tag}"]
        changed = []
        for module, built in self.sources.items():
            try:
                if built != digest(source_of(module)):
                    changed.append(module)
            except OSError:
                changed.append(module)
        return changed


class CompiledFinder:
    """A finder for ``sys.meta_path`` that serves ``COMPILED`` (and the group's library)
    from a build, only while it is fresh. Freshness is checked once, at the first import of
    a compiled module: a process runs one kind of code throughout."""

    def __init__(self, build: Build) -> None:
        self.build = build
        self._fresh: bool | None = None
        self.reason = ""
        """Why the build is not used, once checked."""

    def fresh(self) -> bool:
        """Whether every source of the build is unchanged (checked once)."""
        if self._fresh is None:
            stale = self.build.stale()
            self._fresh = not stale
            self.reason = "changed since the build: " + ", ".join(stale) if stale else ""
        return self._fresh

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """The compiled module's spec, or None to let Python's own finders find the ``.py``."""
        name = self.build.files.get(fullname)
        if name is None or not self.fresh():
            return None
        file = os.path.join(self.build.folder, name)
        if not os.path.isfile(file):  # a build being replaced: the .py will do
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, file)
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)

    def invalidate_caches(self) -> None:
        """Nothing cached but the freshness, which stays for the process's life."""


def install() -> CompiledFinder | None:
    """Put the compiled modules' finder first on ``sys.meta_path`` if there is a build and
    pure Python is not forced; cheap where there is none. Returns the finder."""
    for finder in sys.meta_path:
        if isinstance(finder, CompiledFinder):
            return finder
    if pure_forced():
        return None
    folder = compiled_dir()
    if not os.path.isfile(os.path.join(folder, MANIFEST)):
        return None
    build = Build.read(folder)
    if build is None:
        return None
    finder = CompiledFinder(build)
    sys.meta_path.insert(0, finder)
    return finder


def is_compiled(module: ModuleType) -> bool:
    """Whether a module was loaded from an extension (not from its ``.py``)."""
    loader = getattr(module, "__loader__", None)
    return isinstance(loader, importlib.machinery.ExtensionFileLoader)


def running() -> list[str]:
    """The compiled modules this process runs as C (of those imported so far)."""
    return [m for m in COMPILED if m in sys.modules and is_compiled(sys.modules[m])]


def status() -> tuple[bool, str]:
    """Whether the compiled modules would be used in a new process, and why not if not."""
    if pure_forced():
        return False, f"{PURE_ENV} is set"
    build = Build.read(compiled_dir())
    if build is None:
        return False, "not built"
    stale = build.stale()
    if stale:
        return False, "changed since the build: " + ", ".join(stale)
    if set(build.sources) != set(COMPILED):
        return False, "built for other modules"
    return True, ""


class BuildError(Exception):
    """The compiled modules could not be built (the message says why)."""


def compiler() -> str | None:
    """The C compiler setuptools would use, if one is on the PATH."""
    import shutil
    import sysconfig

    name = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(name) or shutil.which("cc") or shutil.which("gcc")


def build(
    folder: str | None = None, *, modules: Sequence[str] = COMPILED, quiet: bool = True
) -> str:
    """Compile ``modules`` (all of ``COMPILED`` unless given: fewer to measure each one's
    effect) with mypyc into ``folder`` (``compiled_dir()`` unless given), replacing what is
    there only once the new build is complete. Raises BuildError.
    (Its imports are here: importing ``kabes`` must stay cheap, under Pyodide too.)"""
    import importlib
    import json
    import subprocess
    import tempfile
    from pathlib import Path

    target = Path(compiled_dir() if folder is None else folder)
    if compiler() is None:
        raise BuildError("no C compiler")
    for needed in ("mypyc", "setuptools"):
        try:
            importlib.import_module(needed)
        except ImportError:
            raise BuildError(f"{needed} is not installed (pip install -e '.[native]')") from None
    sources = {module: source_of(module) for module in modules}
    hashes = {module: digest(path) for module, path in sources.items()}
    root = Path(PACKAGE).parent
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kabes-compiled-", dir=target.parent) as temp:
        work = Path(temp)
        out = work / "out"
        script = (
            "import sys\n"
            "from setuptools import setup\n"
            "from mypyc.build import mypycify\n"
            "paths = sys.argv[1:]\n"
            "sys.argv = [sys.argv[0]]\n"
            f"setup(name={GROUP!r}, ext_modules=mypycify(paths, group_name={GROUP!r},"
            f" target_dir={str(work / 'c')!r}, opt_level='3'),"
            f" script_args=['-q', 'build_ext', '--build-lib', {str(out)!r},"
            f" '--build-temp', {str(work / 'tmp')!r}])\n"
        )
        relative = [str(Path(path).relative_to(root)) for path in sources.values()]
        done = subprocess.run(
            [sys.executable, "-c", script, *relative],
            cwd=root,
            capture_output=True,
            text=True,
            env={**os.environ, PURE_ENV: "1", "MYPY_FORCE_COLOR": "0"},
            check=False,
        )
        if done.returncode != 0:
            lines = (done.stdout + done.stderr).strip().splitlines()
            tail = "; ".join(lines[-3:]) if lines else f"exit {done.returncode}"
            raise BuildError(f"mypyc failed: {tail}")
        suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
        files = {module: module.replace(".", "/") + suffix for module in modules}
        files[LIBRARY] = LIBRARY + suffix
        for name in files.values():
            if not (out / name).is_file():
                raise BuildError(f"mypyc built no {name}")
        manifest = {"tag": platform_tag(), "files": files, "sources": hashes}
        (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        if target.exists():
            target.rename(work / "old")
        out.rename(target)
    if not quiet:
        print(f"built {', '.join(modules)} into {target}")
    return str(target)

"""`python -m kabes.cli.compiled`: build the compiled modules if their sources changed, and
say in one line which code runs.

``scripts/setup`` runs it, so ``./scripts/serve`` and ``./scripts/test`` use the compiled
modules wherever a C compiler is at hand. It never fails: without a compiler, without mypyc,
or when the build breaks, it says why and everything runs as pure Python (``kabes.native``).
``--check`` only says what a new process would run, building nothing.
"""

from __future__ import annotations

import sys

from kabes import native


def short(module: str) -> str:
    """``fastline`` for ``kabes.ai.fastline``."""
    return module.rpartition(".")[2]


def ensure(*, build: bool = True) -> str:
    """Build if the sources changed since the last build (and ``build``), then the line
    saying which code a new process runs."""
    if native.pure_forced():
        return f"kabes: pure Python ({native.PURE_ENV} is set)"
    fresh, why = native.status()
    if not fresh and build:
        try:
            native.build()
        except native.BuildError as error:
            return f"kabes: pure Python ({error})"
        except Exception as error:  # the setup goes on whatever breaks in the build
            return f"kabes: pure Python (the build broke: {type(error).__name__}: {error})"
        fresh, why = native.status()
    if not fresh:
        return f"kabes: pure Python ({why})"
    return "kabes: compiled modules: " + ", ".join(short(m) for m in native.COMPILED)


def main(argv: list[str] | None = None) -> int:
    """Print the line; always exit 0."""
    args = sys.argv[1:] if argv is None else argv
    print(ensure(build="--check" not in args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

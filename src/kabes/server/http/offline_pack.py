"""The offline pack: what a phone downloads once to play with no network (issue 26).

A phone that lost its signal can still play the computer, take the lessons and keep its
games, with the same engine, levels and words as the server, run by Pyodide (CPython built
for WebAssembly) in the page: one implementation of the rules, never a second one in
JavaScript. The pack is two things, both under one folder (``offline/pack`` in the source
tree) that the server serves at ``/offline/`` (kabes.server.http.offline_api):

- ``pyodide-<hash>/``: Pyodide's runtime as the npm package ``pyodide`` ships it (pinned in
  ``offline/package.json`` and its lock, fetched by ``./scripts/setup`` with ``npm ci``):
  its loader, its JavaScript and WebAssembly halves and its standard library, and a lock
  file naming no package (the compiled wheels it lists are not in the npm package, and the
  page needs none of them: what runs there is standard library only).
- ``kabes-<hash>.zip``: the ``kabes`` packages the page needs (:data:`PACKAGES`: the engine,
  the rules, the levels, the lessons and their data, the words' catalogs, the pure table),
  as ``pyodide.unpackArchive`` takes them; never the server, the terminal or the web
  client.

Each name carries a hash of its content, so a file is cached for ever and a new one has a
new name: a new engine costs the phone the archive (a few hundred KB), not Pyodide (6 MB).
Every file sits beside its gzip and brotli forms, compressed once here rather than at each
request. ``manifest.json`` names the files with their sizes and hashes, paths relative to
itself; it is written last, so a pack is whole once it exists. The pack is built from the
source tree by ``./scripts/setup`` (``python -m kabes.server.http.offline_pack``) and never
committed; building it again with nothing changed writes nothing.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import brotli  # type: ignore[import-untyped]

import kabes

SOURCE: Final = Path(kabes.__file__).resolve().parent.parent
"""The folder ``kabes`` is imported from (``src`` in the source tree)."""
TREE: Final = SOURCE.parent
"""The source tree, where ``./scripts/setup`` runs (an editable install's)."""
PACK: Final = TREE / "offline" / "pack"
"""Where the pack is built, and served from unless ``--offline-pack`` says otherwise."""
PYODIDE: Final = TREE / "offline" / "node_modules" / "pyodide"
"""Pyodide as ``npm ci`` puts it (``offline/package-lock.json`` pins its version)."""

PACKAGES: Final = ("kabes.rules", "kabes.ai", "kabes.lessons", "kabes.words", "kabes.table",
                   "kabes.puzzles", "kabes.local")
"""The packages the page runs, each whole (its subpackages and data too), besides the
engine's modules at the top of ``kabes``: the local table that drives the pure table on the
phone (``kabes.local``) and all it stands on (the puzzles' engine and its starter set among
it); one that does not exist is left out. Nothing
else of ``kabes`` goes: not the server, the terminal, the web client or the club tournaments,
which need the network or another library."""
KINDS: Final = (".py", ".json", ".gz")
"""The files of a package that go: its modules and its data (lessons, catalogs, phrases, the
starter puzzles' gzip JSON)."""
RUNTIME: Final = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
"""Pyodide's files that loading it reads, besides its lock file: the loader (an ES module,
for a module worker and for Node), the runtime's JavaScript and WebAssembly halves, and the
standard library. Not the classic-script loader, the consoles, the source maps or the
type declarations."""
LOCK: Final = "pyodide-lock.json"
"""Pyodide's lock file, which loading reads; the pack's names no package (see above)."""
MANIFEST: Final = "manifest.json"
ENCODINGS: Final = {"br": ".br", "gzip": ".gz"}
"""The compressed forms kept beside each file, by ``Content-Encoding``, best first."""
HASHED: Final = 16
"""Hex digits of a SHA-256 in a file's name: 64 bits, no collision among a pack's versions."""
BROTLI_QUALITY: Final = 11
"""Brotli's best: about 0.8 MB less than gzip over Pyodide (5.4 MB against 6.3), at some
40 seconds of one core, once per Pyodide version on a machine (its folder is kept)."""


@dataclass(frozen=True, slots=True)
class PackFile:
    """One file of the pack as the manifest names it."""

    path: str
    """From the pack's folder, and so from the manifest's URL (``pyodide-<hash>/x.wasm``)."""
    sha256: str
    bytes: int
    gzip: int
    br: int

    def to_json(self) -> dict[str, Any]:
        return {"sha256": self.sha256, "bytes": self.bytes, "gzip": self.gzip, "br": self.br}


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def package_files(source: Path = SOURCE) -> Iterator[tuple[str, Path]]:
    """Every file the archive holds, as (its name in the archive, where it is), in order:
    the engine's modules at the top of ``kabes``, then each package of :data:`PACKAGES`."""
    top = source / "kabes"
    yield from ((f"kabes/{path.name}", path) for path in sorted(top.iterdir())
                if path.is_file() and path.suffix == ".py")
    for package in PACKAGES:
        folder = source.joinpath(*package.split("."))
        if not (folder / "__init__.py").is_file():
            continue
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix in KINDS and "__pycache__" not in path.parts:
                yield path.relative_to(source).as_posix(), path


def archive(source: Path = SOURCE) -> bytes:
    """The zip of :func:`package_files`, the same bytes for the same files (fixed times and
    modes, a fixed order), so that its hash changes only with its content. Stored, not
    deflated: the whole archive compresses better over the wire than file by file."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zipped:
        for name, path in package_files(source):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            zipped.writestr(info, path.read_bytes())
    return out.getvalue()


def runtime(pyodide: Path = PYODIDE) -> dict[str, bytes]:
    """Pyodide's files for the pack, by name: :data:`RUNTIME` as npm ships them, and the lock
    file cut down to its ``info`` (the runtime's versions) with no package."""
    files = {name: (pyodide / name).read_bytes() for name in RUNTIME}
    lock = json.loads((pyodide / LOCK).read_text(encoding="utf-8"))
    files[LOCK] = json.dumps({"info": lock["info"], "packages": {}}, sort_keys=True).encode()
    return files


def pyodide_version(pyodide: Path = PYODIDE) -> str:
    version: str = json.loads((pyodide / "package.json").read_text(encoding="utf-8"))["version"]
    return version


def build(pack: Path = PACK, pyodide: Path = PYODIDE, source: Path = SOURCE,
          quality: int = BROTLI_QUALITY) -> dict[str, Any]:
    """Build the pack in ``pack`` from Pyodide's npm folder and the source tree, and return its
    manifest. What is already there under the same hash is kept as it is; folders and files of
    earlier packs are removed once the new manifest is in place."""
    pack.mkdir(parents=True, exist_ok=True)
    files = runtime(pyodide)
    folder = "pyodide-" + digest(b"".join(
        name.encode() + b"\0" + digest(data).encode() for name, data in sorted(files.items())
    ))[:HASHED]
    entries = _write_folder(pack / folder, files, quality)
    zipped = archive(source)
    name = f"kabes-{digest(zipped)[:HASHED]}.zip"
    entries[name] = _write(pack, name, zipped, quality)
    listed = {f"{folder}/{n}" if n in files else n: e for n, e in entries.items()}
    lock = json.loads(files[LOCK])
    manifest: dict[str, Any] = {
        "format": 1,
        "pyodide": {"version": pyodide_version(pyodide), "python": lock["info"]["python"],
                    "index": folder + "/", "files": [*RUNTIME, LOCK]},
        "kabes": name,
        "files": {path: entry.to_json() for path, entry in sorted(listed.items())},
        "bytes": sum(entry.bytes for entry in listed.values()),
        "gzip": sum(entry.gzip for entry in listed.values()),
        "br": sum(entry.br for entry in listed.values()),
    }
    text = json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    if _read_text(pack / MANIFEST) != text:
        _atomic(pack / MANIFEST, text.encode())
    _remove_older(pack, {folder, name, MANIFEST})
    return manifest


def _remove_older(pack: Path, kept: set[str]) -> None:
    """Remove what earlier packs left in ``pack``: every file and folder but ``kept`` and
    the compressed forms beside them. A build's temporary files and folders (their names
    start with a dot) are left alone for an hour, in case another build is writing them."""
    stale = time.time() - 3600
    for old in pack.iterdir():
        if old.name.removesuffix(".gz").removesuffix(".br") in kept:
            continue
        if old.name.startswith(".") and old.stat().st_mtime > stale:
            continue
        if old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
        else:
            old.unlink(missing_ok=True)


def stale(manifest: Mapping[str, Any], source: Path = SOURCE) -> bool:
    """Whether ``manifest``'s kabes archive is not the one the sources make now (they changed
    since the pack was built: tests that run it would run older code)."""
    return bool(manifest["kabes"] != f"kabes-{digest(archive(source))[:HASHED]}.zip")


def read_manifest(pack: Path = PACK) -> dict[str, Any] | None:
    """The manifest of the pack in ``pack``, or None where there is none (npm was missing, or
    the setup has not run)."""
    text = _read_text(pack / MANIFEST)
    if text is None:
        return None
    manifest: dict[str, Any] = json.loads(text)
    return manifest


def _write_folder(folder: Path, files: Mapping[str, bytes], quality: int
                  ) -> dict[str, PackFile]:
    """Pyodide's folder, written (to a temporary folder first, renamed into place) unless a
    folder of the same hash, and so the same files, is there already."""
    if not (folder / LOCK).is_file():
        shutil.rmtree(folder, ignore_errors=True)
        building = Path(tempfile.mkdtemp(prefix=".building-", dir=folder.parent))
        for name, data in files.items():
            _write(building, name, data, quality)
        building.chmod(0o755)
        building.rename(folder)
    return {name: _entry(folder, name, data) for name, data in files.items()}


def _write(folder: Path, name: str, data: bytes, quality: int) -> PackFile:
    """``name`` and its compressed forms in ``folder``, unless there already."""
    path = folder / name
    if not path.is_file() or path.stat().st_size != len(data):
        _atomic(folder / (name + ".gz"), gzip.compress(data, 9, mtime=0))
        _atomic(folder / (name + ".br"), brotli.compress(data, quality=quality))
        _atomic(path, data)
    return _entry(folder, name, data)


def _entry(folder: Path, name: str, data: bytes) -> PackFile:
    return PackFile(name, digest(data), len(data), (folder / (name + ".gz")).stat().st_size,
                    (folder / (name + ".br")).stat().st_size)


def _atomic(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all (a server may be reading the folder)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_bytes(data)
    temporary.chmod(0o644)
    os.replace(temporary, path)


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def main(argv: list[str]) -> int:
    """``python -m kabes.server.http.offline_pack [PACK]``: build the pack, or say why not; says
    nothing when the pack was already built from the same files."""
    pack = Path(argv[0]) if argv else PACK
    if not (PYODIDE / "package.json").is_file():
        print(f"No offline pack: Pyodide is not in {PYODIDE} (npm ci in offline/ fetches it); "
              "the page will offer no offline play.")
        return 0
    before = read_manifest(pack)
    manifest = build(pack)
    if manifest == before:
        return 0
    print(f"Offline pack in {pack}: Pyodide {manifest['pyodide']['version']}, "
          f"{manifest['kabes']}, {manifest['br'] / 1e6:.1f} MB over the wire (brotli), "
          f"{manifest['gzip'] / 1e6:.1f} MB (gzip)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The offline pack (docs/offline.md): built by kabes.server.http.offline_pack from the source tree
and Pyodide's npm folder, served under /offline/ by kabes.server.http.offline_api.

These tests build packs in a temporary folder from a small Pyodide folder of their own (the
files named as npm ships them, a few KB each: brotli's best over the real 9.6 MB WebAssembly
takes half a minute) and from the real source tree or a copy of it. tests/offline plays the
real pack in Node.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import logging
import random
import shutil
import zipfile
from pathlib import Path
from typing import Any

import brotli  # type: ignore[import-untyped]
import pytest
from harness import running, sqlite_url

from kabes.server.http.offline_api import IMMUTABLE
from kabes.server.http.offline_pack import (
    KINDS,
    LOCK,
    MANIFEST,
    PACKAGES,
    RUNTIME,
    SOURCE,
    archive,
    build,
    read_manifest,
    stale,
)

LEFT_OUT = ("kabes/server/", "kabes/cli/", "kabes/web/", "kabes/tournaments/")


def pyodide_folder(where: Path, version: str = "314.0.8") -> Path:
    """A Pyodide folder as npm lays it out, its files a few KB of text each; its lock file
    names a package, as the real one names hundreds."""
    folder = where / "pyodide"
    folder.mkdir(parents=True)
    rng = random.Random(version)
    for name in (*RUNTIME, "pyodide.js", "console.html"):
        words = [rng.choice(("let", "var", "wasm", "python", "import")) for _ in range(2000)]
        (folder / name).write_text(f"{name} {version} " + " ".join(words))
    (folder / "package.json").write_text(json.dumps({"name": "pyodide", "version": version}))
    (folder / LOCK).write_text(json.dumps({
        "info": {"arch": "wasm32", "python": "3.14.2", "version": version},
        "packages": {"msgspec": {"file_name": "msgspec.whl"}}}))
    return folder


def source_copy(where: Path) -> Path:
    """A copy of the source tree's ``kabes`` (not its web client), to change."""
    copy = where / "src"
    shutil.copytree(SOURCE / "kabes", copy / "kabes",
                    ignore=shutil.ignore_patterns("__pycache__", "web"))
    return copy


def names(data: bytes) -> list[str]:
    return zipfile.ZipFile(io.BytesIO(data)).namelist()


# The archive ------------------------------------------------------------------------------


def test_the_archive_holds_the_engine_levels_lessons_and_words_and_no_server() -> None:
    held = names(archive())
    for name in ("kabes/__init__.py", "kabes/match.py", "kabes/records.py",
                 "kabes/table/outbox.py", "kabes/local/table.py", "kabes/local/tables.py",
                 "kabes/rules/haitian.py", "kabes/ai/expert.py", "kabes/ai/boards/line.py",
                 "kabes/lessons/library.py", "kabes/lessons/data/haitian-1.json",
                 "kabes/words/__init__.py", "kabes/words/catalogs/ht.json",
                 "kabes/words/catalogs/languages.json", "kabes/words/phrases.json",
                 "kabes/puzzles/model.py", "kabes/local/puzzles.py",
                 "kabes/puzzles/data/starter.json.gz"):
        assert name in held, name
    assert not [name for name in held if name.startswith(LEFT_OUT)]
    assert all(name.endswith(KINDS) and "__pycache__" not in name for name in held)
    every = {path.relative_to(SOURCE).as_posix() for path in (SOURCE / "kabes").glob("*.py")}
    for package in PACKAGES:
        folder = SOURCE.joinpath(*package.split("."))
        every |= {path.relative_to(SOURCE).as_posix() for path in folder.rglob("*")
                  if path.suffix in KINDS and "__pycache__" not in path.parts}
    assert set(held) == every


def test_the_archive_takes_the_pure_table_once_it_exists(tmp_path: Path) -> None:
    source = source_copy(tmp_path)
    shutil.rmtree(source / "kabes" / "table", ignore_errors=True)
    assert not [name for name in names(archive(source)) if name.startswith("kabes/table/")]
    (source / "kabes" / "table").mkdir()
    (source / "kabes" / "table" / "__init__.py").write_text('"""The pure table."""\n')
    (source / "kabes" / "table" / "state.py").write_text("SEATS = 4\n")
    held = names(archive(source))
    assert {"kabes/table/__init__.py", "kabes/table/state.py"} <= set(held)


def test_the_same_files_make_the_same_archive() -> None:
    assert archive() == archive()


def test_a_pack_is_stale_once_a_module_it_holds_changes(tmp_path: Path) -> None:
    source = source_copy(tmp_path)
    manifest = build(tmp_path / "pack", pyodide_folder(tmp_path), source, quality=5)
    assert not stale(manifest, source)
    table = source / "kabes" / "local" / "table.py"
    table.write_text(table.read_text() + "\n# changed\n")
    assert stale(manifest, source)


# The pack ---------------------------------------------------------------------------------


def test_each_file_is_named_by_its_content_beside_its_compressed_forms(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    manifest = build(pack, pyodide_folder(tmp_path), quality=5)
    assert read_manifest(pack) == manifest
    index = manifest["pyodide"]["index"]
    assert manifest["pyodide"]["version"] == "314.0.8"
    assert manifest["pyodide"]["files"] == [*RUNTIME, LOCK]
    assert set(manifest["files"]) == {index + name for name in [*RUNTIME, LOCK]} | {
        manifest["kabes"]}
    for path, entry in manifest["files"].items():
        data = (pack / path).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
        assert len(data) == entry["bytes"]
        zipped, squeezed = (pack / (path + ".gz")).read_bytes(), (pack / (path + ".br")
                                                                   ).read_bytes()
        assert gzip.decompress(zipped) == data and len(zipped) == entry["gzip"]
        assert brotli.decompress(squeezed) == data and len(squeezed) == entry["br"]
    kabes = manifest["files"][manifest["kabes"]]
    assert manifest["kabes"] == f"kabes-{kabes['sha256'][:16]}.zip"
    assert (pack / manifest["kabes"]).read_bytes() == archive()
    for total in ("bytes", "gzip", "br"):
        assert manifest[total] == sum(entry[total] for entry in manifest["files"].values())
    lock = json.loads((pack / index / LOCK).read_text())
    assert lock == {"info": {"arch": "wasm32", "python": "3.14.2", "version": "314.0.8"},
                    "packages": {}}
    assert not (pack / index / "pyodide.js").exists()


def test_a_new_engine_makes_a_new_archive_and_keeps_pyodide(tmp_path: Path) -> None:
    pack, pyodide, source = tmp_path / "pack", pyodide_folder(tmp_path), source_copy(tmp_path)
    first = build(pack, pyodide, source, quality=5)
    index = pack / first["pyodide"]["index"] / "pyodide.asm.wasm"
    written = index.stat().st_mtime_ns, (pack / first["kabes"]).stat().st_mtime_ns
    assert build(pack, pyodide, source, quality=5) == first
    assert (index.stat().st_mtime_ns, (pack / first["kabes"]).stat().st_mtime_ns) == written
    with (source / "kabes" / "rules" / "plaza.py").open("a") as module:
        module.write("# a change\n")
    second = build(pack, pyodide, source, quality=5)
    assert second["kabes"] != first["kabes"]
    assert second["pyodide"] == first["pyodide"]
    assert index.stat().st_mtime_ns == written[0]
    assert sorted(path.name for path in pack.iterdir()) == sorted([
        MANIFEST, first["pyodide"]["index"].rstrip("/"), second["kabes"],
        second["kabes"] + ".br", second["kabes"] + ".gz"])


def test_another_pyodide_makes_another_folder(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    first = build(pack, pyodide_folder(tmp_path / "a"), quality=5)
    second = build(pack, pyodide_folder(tmp_path / "b", "314.0.7"), quality=5)
    assert second["pyodide"]["index"] != first["pyodide"]["index"]
    assert second["pyodide"]["version"] == "314.0.7"
    assert not (pack / first["pyodide"]["index"]).exists()


# Served -------------------------------------------------------------------------------------


async def test_the_pack_is_served_immutable_in_the_client_s_encoding(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    manifest = build(pack, pyodide_folder(tmp_path), quality=5)
    async with running(sqlite_url(tmp_path), offline=pack) as server:
        reply = await server.http.get("/offline/manifest.json")
        assert reply.status_code == 200
        assert reply.json() == manifest
        assert reply.headers["cache-control"] == "no-cache"
        for path, entry in manifest["files"].items():
            original = (pack / path).read_bytes()
            for accept, encoding, size in (("gzip, deflate, br", "br", entry["br"]),
                                           ("gzip", "gzip", entry["gzip"]),
                                           ("identity", None, entry["bytes"])):
                reply = await server.http.get("/offline/" + path,
                                              headers={"Accept-Encoding": accept})
                assert reply.status_code == 200, path
                assert reply.content == original, (path, accept)
                assert reply.headers.get("content-encoding") == encoding, (path, accept)
                assert int(reply.headers["content-length"]) == size, (path, accept)
                assert reply.headers["cache-control"] == IMMUTABLE
                if encoding is not None:
                    assert reply.headers["vary"] == "Accept-Encoding"
        kinds = {path.rsplit(".", 1)[1]: (await server.http.get("/offline/" + path)
                                          ).headers["content-type"]
                 for path in manifest["files"]}
        assert kinds["wasm"] == "application/wasm"
        assert kinds["mjs"].startswith("text/javascript")
        assert kinds["zip"] == "application/zip"


async def test_only_what_the_manifest_names_is_served(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    manifest = build(pack, pyodide_folder(tmp_path), quality=5)
    (pack / "secret.txt").write_text("not for you")
    index = manifest["pyodide"]["index"]
    async with running(sqlite_url(tmp_path), offline=pack) as server:
        for path in ("secret.txt", manifest["kabes"] + ".br", index + "pyodide.js",
                     index + "pyodide.mjs.gz", index + "../secret.txt", "%2e%2e/offline.py",
                     index, "kabes.zip"):
            reply = await server.http.get("/offline/" + path)
            assert reply.status_code == 404, path
            assert reply.json()["code"] == "not_found"


async def test_without_a_pack_the_manifest_is_404_and_the_server_says_so_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="kabes.app"):
        async with running(sqlite_url(tmp_path), offline=tmp_path / "none") as server:
            reply = await server.http.get("/offline/manifest.json")
            assert reply.status_code == 404 and reply.json()["code"] == "not_found"
            assert (await server.http.get("/offline/kabes.zip")).status_code == 404
    said = [r.getMessage() for r in caplog.records if "offline pack" in r.getMessage()]
    assert len(said) == 1 and str(tmp_path / "none") in said[0]


async def test_a_pack_built_while_the_server_runs_is_served_at_once(tmp_path: Path) -> None:
    pack, pyodide, source = tmp_path / "pack", pyodide_folder(tmp_path), source_copy(tmp_path)
    async with running(sqlite_url(tmp_path), offline=pack) as server:
        assert (await server.http.get("/offline/manifest.json")).status_code == 404
        first = build(pack, pyodide, source, quality=5)
        served: dict[str, Any] = (await server.http.get("/offline/manifest.json")).json()
        assert served == first
        (source / "kabes" / "tiles.py").write_text(
            (source / "kabes" / "tiles.py").read_text() + "\n# changed\n")
        second = build(pack, pyodide, source, quality=5)
        assert (await server.http.get("/offline/manifest.json")).json() == second
        assert (await server.http.get("/offline/" + second["kabes"])).status_code == 200
        assert (await server.http.get("/offline/" + first["kabes"])).status_code == 404

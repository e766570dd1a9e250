"""The offline pack served (kabes.server.http.offline_pack): what a phone downloads once to play
the computer, take the lessons and keep its games with no network.

- ``GET /offline/manifest.json``: the pack's manifest, ``Cache-Control: no-cache`` (a page
  asks it each time it is online, to see whether its copy is the latest): the files, their
  SHA-256 and sizes as they are and compressed, and the totals the page shows before the
  player downloads; its paths are relative to it. 404 ``not_found`` where the server has no
  pack (npm was missing at setup): the page then offers no offline play.
- ``GET /offline/<path>``: a file the manifest names, and nothing else, with
  ``Cache-Control: public, max-age=31536000, immutable``: its name holds its hash, so it
  never changes. It goes compressed as it was at build time, brotli or gzip as the client
  accepts (``Vary: Accept-Encoding``), the WebAssembly as ``application/wasm`` so that the
  browser compiles it while it downloads.

The manifest is read from the folder again whenever its file changed, so a pack rebuilt
while the server runs is served at once. Where there is none at start, the server says so in
one log line.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request, Response
from fastapi.responses import FileResponse

from kabes.server.common.protocol import ErrorCode, Refused
from kabes.server.http.offline_pack import ENCODINGS, MANIFEST
from kabes.server.http.static_files import encoding_for

log = logging.getLogger("kabes.app")

PREFIX: Final = "/offline/"
IMMUTABLE: Final = "public, max-age=31536000, immutable"
MEDIA: Final = {".mjs": "text/javascript; charset=utf-8", ".wasm": "application/wasm",
                ".zip": "application/zip", ".json": "application/json"}
"""The media type of each kind of file in a pack."""


class OfflinePack:
    """The pack in a folder, as the server reads it: its manifest, kept while its file is
    unchanged."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._seen: tuple[int, int] | None = None
        self._manifest: dict[str, Any] | None = None
        self._body = b""

    def manifest(self) -> dict[str, Any] | None:
        """The manifest, or None where the folder holds no pack."""
        try:
            stat = (self.folder / MANIFEST).stat()
        except FileNotFoundError:
            self._seen, self._manifest = None, None
            return None
        if self._seen != (stat.st_mtime_ns, stat.st_size):
            self._body = (self.folder / MANIFEST).read_bytes()
            self._manifest = json.loads(self._body)
            self._seen = (stat.st_mtime_ns, stat.st_size)
        return self._manifest

    def body(self) -> bytes | None:
        """The manifest's bytes as they are on disk, or None."""
        return None if self.manifest() is None else self._body

    def file(self, path: str, accept: str) -> FileResponse:
        """The file at ``path`` (from the pack's folder) in the client's best encoding;
        Refused not_found unless the manifest names it."""
        manifest = self.manifest()
        entry = None if manifest is None else manifest["files"].get(path)
        if entry is None:
            raise Refused(ErrorCode.NOT_FOUND, f"no {PREFIX}{path} in the offline pack")
        encoding = encoding_for(accept)
        headers = {"Cache-Control": IMMUTABLE}
        where = self.folder / path
        if encoding is not None:  # (the app's gzip middleware adds Vary to the others)
            headers.update({"Content-Encoding": encoding, "Vary": "Accept-Encoding"})
            where = where.with_name(where.name + ENCODINGS[encoding])
        headers["ETag"] = f'"{entry["sha256"][:32]}-{encoding or "identity"}"'
        return FileResponse(where, media_type=MEDIA.get(Path(path).suffix,
                                                        "application/octet-stream"),
                            headers=headers)


def offline_routes(app: FastAPI, folder: Path) -> None:
    """Serve the pack in ``folder`` under /offline/; say once if there is none."""
    pack = OfflinePack(folder)
    if pack.manifest() is None:
        log.warning("no offline pack in %s (npm was missing at setup?): the page offers no "
                    "offline play", folder)

    @app.get(PREFIX + MANIFEST, include_in_schema=False)
    async def manifest() -> Response:
        body = pack.body()
        if body is None:
            raise Refused(ErrorCode.NOT_FOUND, "this server has no offline pack")
        return Response(body, media_type="application/json",
                        headers={"Cache-Control": "no-cache"})

    @app.get(PREFIX + "{path:path}", include_in_schema=False)
    async def pack_file(path: str, request: Request) -> FileResponse:
        return pack.file(path, request.headers.get("accept-encoding", ""))


__all__ = ["IMMUTABLE", "OfflinePack", "offline_routes"]

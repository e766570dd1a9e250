"""The web client's files, compressed once with brotli (or gzip) rather than at every request.

A first visit on 3G is mostly bytes: 400 kbit/s is 50 KB a second. Brotli at its best
quality makes the client's modules, styles and catalogs about 14% smaller than the gzip the
app's middleware makes on the fly, and costs too much time to run per request; so each file
is compressed the first time it is asked for and kept in memory (the client is a few hundred
KB before compression), keyed by its size and modification time so that an edited file is
compressed again. Every file is compressed whatever its size (the middleware leaves files
under 1 KiB as they are).

A browser that accepts ``br`` gets brotli, else one that accepts ``gzip`` gets gzip, else the
file as it is. The ``ETag`` names the encoding, so a cache never mixes them, and
``Vary: Accept-Encoding`` says that the answer depends on it; ``Last-Modified`` and the
``If-None-Match`` revalidation are as for any static file.
"""

from __future__ import annotations

import gzip
import os
from email.utils import formatdate
from pathlib import Path

import brotli  # type: ignore[import-untyped]
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import NotModifiedResponse, PathLike, StaticFiles
from starlette.types import Scope

COMPRESSIBLE = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
                ".json": "application/json", ".svg": "image/svg+xml",
                ".webmanifest": "application/manifest+json", ".html": "text/html; charset=utf-8"}
"""The kinds of file worth compressing, with their media types (the PNG icons are not)."""


def encoding_for(accept: str) -> str | None:
    """``br``, ``gzip`` or None: the best of ours an ``Accept-Encoding`` header allows."""
    allowed: set[str] = set()
    for part in accept.lower().split(","):
        name, _, params = part.strip().partition(";")
        if params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            allowed.add(name.strip())
    for name in ("br", "gzip"):
        if name in allowed:
            return name
    return None


class CompressedStatic(StaticFiles):
    """StaticFiles whose text files are sent compressed once, from memory."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory)
        self._kept: dict[tuple[str, str], tuple[int, int, bytes]] = {}

    def file_response(self, full_path: PathLike, stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        """The file compressed, when the client takes it so and the file is text."""
        media = COMPRESSIBLE.get(Path(full_path).suffix)
        request = Headers(scope=scope)
        encoding = encoding_for(request.get("accept-encoding", ""))
        if media is None or encoding is None or status_code != 200:
            return super().file_response(full_path, stat_result, scope, status_code)
        body = self._compressed(str(full_path), stat_result, encoding)
        headers = {
            "ETag": f'"{stat_result.st_mtime_ns:x}-{stat_result.st_size:x}-{encoding}"',
            "Last-Modified": formatdate(stat_result.st_mtime, usegmt=True),
            "Content-Encoding": encoding,
            "Vary": "Accept-Encoding",
        }
        if self.is_not_modified(Headers(headers), request):
            return NotModifiedResponse(Headers(headers))
        return Response(body, media_type=media, headers=headers)

    def _compressed(self, path: str, stat_result: os.stat_result, encoding: str) -> bytes:
        kept = self._kept.get((path, encoding))
        if kept is not None and kept[:2] == (stat_result.st_size, stat_result.st_mtime_ns):
            return kept[2]
        data = Path(path).read_bytes()
        body: bytes = brotli.compress(data, quality=11) if encoding == "br" else gzip.compress(
            data, 9, mtime=0)
        self._kept[path, encoding] = (stat_result.st_size, stat_result.st_mtime_ns, body)
        return body


"""``GET /api/phrases``: the fixed phrases a seat may say (kabes.server.table.phrases holds them
and the rule of how often), served to every client the same, encoded once.
"""

from __future__ import annotations

from functools import cache

from fastapi import FastAPI
from fastapi.responses import Response

from kabes.server.common.protocol import encode
from kabes.server.table.phrases import phrases


@cache
def phrases_body() -> bytes:
    """``GET /api/phrases``'s answer, encoded once."""
    return encode({"phrases": list(phrases())})


def phrase_routes(app: FastAPI) -> None:
    """``GET /api/phrases``: every phrase in every language (the same answer always)."""

    @app.get("/api/phrases", tags=["tables"])
    async def list_phrases() -> Response:
        """The fixed phrases a seat may say at a table, in every language."""
        return Response(phrases_body(), media_type="application/json",
                        headers={"Cache-Control": "public, max-age=3600"})

"""Operator pages (issue 24): ``/docs`` and ``/redoc`` (an inline script and files from a CDN,
on the origin whose localStorage keeps players' tokens) are 404 unless ``kabes serve
--api-docs``, and no answer lets a CDN's script in unless they are served; ``/openapi.json``
is served either way. Against a real server, both ways."""

from __future__ import annotations

from pathlib import Path

import httpx
from wsclient import WAIT, ServerProcess

OPTIONS = ("--workers", "1", "--log-level", "warning")
PAGES = ("/docs", "/redoc", "/docs/oauth2-redirect")


async def answers(tmp_path: Path, *options: str) -> dict[str, httpx.Response]:
    """What a real server with ``options`` answers to the documentation's paths."""
    server = ServerProcess(tmp_path, *OPTIONS, *options)
    try:
        await server.start()
        async with httpx.AsyncClient(base_url=server.base, trust_env=False,
                                     timeout=WAIT) as http:
            return {path: await http.get(path) for path in (*PAGES, "/openapi.json", "/")}
    finally:
        server.kill()


async def test_docs_and_redoc_are_404_without_api_docs(tmp_path: Path) -> None:
    got = await answers(tmp_path)
    for path in PAGES:
        assert got[path].status_code == 404, path
        assert got[path].json()["code"] == "not_found"
    for path, reply in got.items():
        policy = reply.headers["content-security-policy"]
        assert "cdn.jsdelivr.net" not in policy and "unsafe-inline" not in policy, path
        assert policy.startswith("default-src 'self'; frame-ancestors 'none'"), path
    assert got["/openapi.json"].status_code == 200
    assert "/api/link" in got["/openapi.json"].json()["paths"]


async def test_api_docs_serves_them_with_their_own_policy(tmp_path: Path) -> None:
    got = await answers(tmp_path, "--api-docs")
    for path in ("/docs", "/redoc"):
        assert got[path].status_code == 200, path
        assert got[path].headers["content-type"].startswith("text/html")
        assert "cdn.jsdelivr.net" in got[path].headers["content-security-policy"]
        assert "frame-ancestors 'none'" in got[path].headers["content-security-policy"]
    assert got["/openapi.json"].status_code == 200
    assert "cdn.jsdelivr.net" not in got["/"].headers["content-security-policy"], \
        "only the documentation's pages let the CDN in"
    assert "cdn.jsdelivr.net" not in got["/openapi.json"].headers["content-security-policy"]

"""The server serves the catalogs of words (kabes.words) where the web client loads them, without
the terminal's own sentences (no browser needs them)."""

from __future__ import annotations

from harness import Server

from kabes import words


async def test_the_catalogs_and_the_language_list_are_served_under_static_i18n(
    server: Server,
) -> None:
    listed = await server.http.get("/static/i18n/languages.json")
    assert listed.status_code == 200
    assert list(listed.json()) == list(words.LANGUAGES)
    for lang in words.LANGUAGES:
        reply = await server.http.get(f"/static/i18n/{lang}.json")
        shared = {k: v for k, v in words.catalog(lang).items() if not k.startswith(words.TERMINAL)}
        assert reply.status_code == 200 and reply.json() == shared
    assert (await server.http.get("/static/i18n/terminal.json")).status_code == 404
    assert (await server.http.get("/static/i18n/__init__.py")).status_code == 404
    assert (await server.http.get("/static/i18n.js")).status_code == 200

"""The names rule (PROTOCOL.md, "Safe for strangers"; issue 24): names that look empty,
break their line or stack marks over their neighbours are ``bad_name``, tried against a real
``kabes serve``; and, for any text at all (hypothesis), an accepted name keeps every clause
and is its own normal form."""

from __future__ import annotations

import unicodedata
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from wsclient import WAIT, ServerProcess, auth

from kabes.server.common.names import FILLERS, MOST_MARKS, NAME_LIMIT, clean_name
from kabes.server.common.protocol import Refused

OPTIONS = ("--workers", "1", "--rate-limits", "off", "--log-level", "warning")


@pytest.fixture
async def http(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    """A client of a real ``kabes serve``, killed whatever happens."""
    server = ServerProcess(tmp_path, *OPTIONS)
    try:
        await server.start()
        async with httpx.AsyncClient(base_url=server.base, trust_env=False,
                                     timeout=WAIT) as client:
            yield client
    finally:
        server.kill()


@pytest.mark.parametrize(("name", "says"), [
    ("\u3164", "U+3164"),
    ("\u2800\u2800", "U+2800"),
    ("\u115f\u1160", "U+115F"),
    ("Ana\uffa0", "U+FFA0"),
    ("a\u2028b", "U+2028"),
    ("a\u2029b", "U+2029"),
    ("a" + "\u0301\u0316\u0317\u0318\u0319\u031a\u031b\u031c\u031d\u031e\u031f\u0320\u0321"
     "\u0322\u0323\u0324\u0325\u0326\u0327\u0328\u0329\u032a\u032b", "combining marks"),
    ("x\u0302\u0303\u0304", "combining marks"),
    ("\u0301\u0301\u0301", "combining marks"),
    ("\u00a0\u0301\u0302\u3000", "visible"),
])
async def test_a_name_that_looks_empty_breaks_its_line_or_stacks_marks_is_bad_name(
    http: httpx.AsyncClient, name: str, says: str,
) -> None:
    reply = await http.post("/api/guests", json={"name": name})
    assert reply.status_code == 422, reply.text
    assert reply.json()["code"] == "bad_name"
    assert says in reply.json()["message"], "the message names the problem"


@pytest.mark.parametrize(("name", "kept"), [
    ("Nguye\u0302\u0303n", "Nguy\u1ec5n"),  # NFC composes what it can
    ("O\u0323\u0300ba", "\u1ecc\u0300ba"),  # Yoruba: a dot and a tone stay two marks
    ("\u0928\u092e\u0938\u094d\u0924\u0947", "\u0928\u092e\u0938\u094d\u0924\u0947"),
    ("李 小龙", "李 小龙"),
    ("★", "★"),
    ("...", "..."),
    ("Ana\u3000Lúcia", "Ana\u3000Lúcia"),
])
async def test_names_of_every_script_with_their_marks_are_kept(
    http: httpx.AsyncClient, name: str, kept: str,
) -> None:
    reply = await http.post("/api/guests", json={"name": name})
    assert reply.status_code == 201, reply.text
    me = await http.get("/api/me", headers=auth(reply.json()["token"]))
    assert me.json()["name"] == kept


TRICKY = st.sampled_from([*sorted(FILLERS),
    "\u0301", "\u0300", "\u0323", "\u0302", "\u20dd", "\u0903", "\u2028", "\u2029", " ",
    "\u00a0", "\u3000", "\u200b", "\u202e", "e", "A", "1", "\u1100", "\u1161", "\u11a8"])
"""Characters near the rule's edges: fillers, marks (nonspacing, enclosing, spacing),
separators, spaces, format characters, and Hangul jamo that NFC composes."""


def clauses_broken(name: str) -> list[str]:
    """Which clauses of the names rule ``name`` breaks, as it would be stored."""
    broken = []
    if not 1 <= len(name) <= NAME_LIMIT:
        broken.append("length")
    if name != name.strip() or unicodedata.normalize("NFC", name) != name:
        broken.append("not normal")
    categories = [unicodedata.category(char) for char in name]
    if any(c in {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"} for c in categories):
        broken.append("category")
    if any(char in FILLERS for char in name):
        broken.append("filler")
    if not any(c[0] in "LNPS" for char, c in zip(name, categories, strict=True)
               if char not in FILLERS):
        broken.append("nothing visible")
    run = 0
    for c in categories:
        run = run + 1 if c[0] == "M" else 0
        if run > MOST_MARKS:
            broken.append("marks")
            break
    return broken


@settings(max_examples=2000, deadline=None)
@given(st.text(st.one_of(st.characters(), TRICKY), max_size=30))
@example("\u3164")
@example(" \u0301\u0301")
@example("\u1100\u1161\u11a8")
def test_an_accepted_name_keeps_every_clause_and_is_its_own_normal_form(text: str) -> None:
    try:
        name = clean_name(text)
    except Refused as refused:
        assert refused.code == "bad_name"
        return
    assert clauses_broken(name) == []
    assert clean_name(name) == name, "cleaning a kept name changes nothing"
    assert name == unicodedata.normalize("NFC", text).strip()

"""One catalog of words per language, read by the terminal and the web client alike.

``catalogs/<lang>.json`` maps flat keys to texts with ``{name}`` placeholders: everything a
client words (explanations ``explain.<code>``, refusals ``refuse.<reason>``, variant names
``variant.<id>``, ending names ``ending.<name>``) and the web page's other words. The server
serves the folder at ``/static/i18n/``, where the web client loads it; Python reads it here.
``catalogs/languages.json`` is the one list of languages, in the order they are offered, each
named in itself. Every catalog has the same keys. The terminal's own sentences
(``terminal.*``) are in ``terminal.json`` beside the folder, English only (the terminal speaks
English): Python reads them as part of the English catalog, and no browser downloads them.
Adding a language is adding its catalog, its line in ``languages.json`` and its lesson texts.

How each step of a hand's explanation is told, which entry words it and what fills it, is
composed once for both clients in the web client's ``steps.js`` (a module the page imports, its
``STEPS =`` plain JSON): :func:`steps` reads it for the terminal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, Final

CATALOGS: Final = Path(__file__).resolve().parent / "catalogs"
"""The folder of the catalogs, for the server to serve as it is."""

ENGLISH: Final = "en"
"""The language every client falls back on, and the terminal's."""

TERMINAL: Final = "terminal."
"""The prefix of the terminal's own sentences (terminal.json), in the English catalog only."""

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_STEPS = re.compile(r"\bSTEPS\s*=\s*(\{.*?\n\});", re.DOTALL)


def _read(name: str, folder: str = "catalogs") -> object:
    source = files(__package__) / folder if folder else files(__package__)
    return json.loads((source / name).read_text(encoding="utf-8"))


@cache
def language_names() -> Mapping[str, str]:
    """Each language's name in itself, in the order the clients offer them."""
    data = _read("languages.json")
    if not isinstance(data, dict):
        raise ValueError("languages.json must map language codes to their names")
    return {str(code): str(name) for code, name in data.items()}


LANGUAGES: Final[tuple[str, ...]] = tuple(language_names())
"""The languages' codes (``ht``, ``en``...), from the one list of them."""


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """Every key of one language's catalog and its text (a KeyError for an unknown one)."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    data = _read(f"{lang}.json")
    own = _read("terminal.json", "") if lang == ENGLISH else {}
    if not isinstance(data, dict) or not isinstance(own, dict):
        raise ValueError(f"{lang}.json and terminal.json must map keys to texts")
    return {str(key): str(text) for key, text in (data | own).items()}


def fill(text: str, params: Mapping[str, object]) -> str:
    """A text with its ``{name}`` placeholders filled, as the web client's ``t`` fills them."""
    return _PLACEHOLDER.sub(
        lambda m: str(params[m[1]]) if m[1] in params else m[0], text
    )


def placeholders(text: str) -> frozenset[str]:
    """The names of a text's placeholders, to check that every language fills the same."""
    return frozenset(_PLACEHOLDER.findall(text))


def has(key: str, lang: str = ENGLISH) -> bool:
    """Whether a language's catalog (or English, its fallback) has words for ``key``."""
    return key in catalog(lang) or key in catalog(ENGLISH)


def word(key: str, lang: str = ENGLISH, **params: object) -> str:
    """The words for ``key`` in ``lang`` (else English), placeholders filled from ``params``."""
    text = catalog(lang).get(key)
    if text is None:
        text = catalog(ENGLISH)[key]
    return fill(text, params)


@cache
def steps() -> Mapping[str, Any]:
    """How each explanation code is told (web/steps.js): its entry's refinements and what fills
    each placeholder, as that module's header describes them."""
    source = (files("kabes") / "web" / "steps.js").read_text(encoding="utf-8")
    found = _STEPS.search(source)
    if found is None:
        raise ValueError("web/steps.js has no STEPS = {...} object")
    data = json.loads(found.group(1))
    if not isinstance(data, dict):
        raise ValueError("web/steps.js's STEPS must map codes to their telling")
    return data

"""One catalog of words per language (kabes.words), read by the terminal and the web client.

Every explanation code and refusal reason the engine can produce has words in every catalog;
the catalogs have the same keys with the same placeholders (the terminal's own English
sentences aside); the language list is the catalogs'; and neither client words a code itself:
the terminal's sentence for a code changes when its catalog entry does, and the web's
explain.js holds no sentence text.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from kabes import errors, words
from kabes.cli.explain import ENDINGS, word_step
from kabes.cli.refusals import REFUSALS, Refusal, word_refusal
from kabes.explain import CODES, Step
from kabes.lessons.model import LANGUAGES as LESSON_LANGUAGES
from test_cli_engine_words import EXPLANATIONS, NAMES, REFUSED, table_codes

SRC = Path(__file__).parent.parent / "src" / "kabes"
ENGINE = [*SRC.glob("*.py"), *(SRC / "rules").glob("*.py")]
"""The engine's modules, where refusals are raised."""
NAMED_ENDINGS = ("tonbe", "2-kabes", "blok")


def engine_reasons() -> set[str]:
    """Every finer refusal reason the engine gives: the literal ``reason`` of the errors it
    raises (an error without one is worded by its code, ``error.<code>``)."""
    kinds = {name for name, value in vars(errors).items()
             if isinstance(value, type) and issubclass(value, errors.KabesError)}
    reasons: set[str] = set()
    for module in ENGINE:
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in kinds):
                continue
            given = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "reason")]
            reasons |= {g.value for g in given
                        if isinstance(g, ast.Constant) and isinstance(g.value, str)}
    return reasons


REASONS = sorted(engine_reasons() | set(table_codes("Refusals")))
"""The reasons every catalog words: the engine's and those docs/rules.md lists."""


def test_every_reason_the_engine_gives_is_documented() -> None:
    given = engine_reasons()
    assert {"not_held", "does_not_fit", "unreadable"} <= given, "the scan of the engine broke"
    assert given <= set(table_codes("Refusals"))


def test_the_language_list_is_the_catalogs() -> None:
    files = {p.stem for p in words.CATALOGS.glob("*.json")} - {"languages"}
    assert set(words.LANGUAGES) == files
    assert words.LANGUAGES[:2] == ("ht", "en")
    assert LESSON_LANGUAGES == words.LANGUAGES
    assert all(name.strip() for name in words.language_names().values())


@pytest.mark.parametrize("lang", words.LANGUAGES)
def test_every_explanation_code_has_words_in_every_catalog(lang: str) -> None:
    catalog = words.catalog(lang)
    for code in CODES:
        keys = ([f"explain.named.{name}" for name in NAMED_ENDINGS] if code == "named"
                else [f"explain.{code}"])
        assert all(catalog.get(key) for key in keys), f"{lang}: no words for {code!r}"
    assert all(catalog.get(f"ending.{name}") for name in NAMED_ENDINGS)


@pytest.mark.parametrize("lang", words.LANGUAGES)
def test_every_refusal_reason_has_words_in_every_catalog(lang: str) -> None:
    catalog = words.catalog(lang)
    missing = [reason for reason in REASONS if not catalog.get(f"refuse.{reason}")]
    assert not missing, f"{lang}: no words for {missing}"


def shared(lang: str) -> Mapping[str, str]:
    """A catalog without the terminal's own sentences."""
    return {k: v for k, v in words.catalog(lang).items() if not k.startswith(words.TERMINAL)}


@pytest.mark.parametrize("lang", words.LANGUAGES)
def test_every_catalog_has_the_same_keys_with_the_same_placeholders(lang: str) -> None:
    mine, english = shared(lang), shared(words.ENGLISH)
    assert set(mine) == set(english), f"{lang}: {set(mine) ^ set(english)}"
    for key, text in mine.items():
        assert text.strip(), f"{lang}: {key} is empty"
        assert words.placeholders(text) == words.placeholders(english[key]), f"{lang}: {key}"


def test_only_english_has_the_terminals_sentences() -> None:
    for lang in words.LANGUAGES:
        own = [k for k in words.catalog(lang) if k.startswith(words.TERMINAL)]
        assert bool(own) == (lang == words.ENGLISH), lang


def test_every_catalog_is_one_sorted_json_object_of_texts() -> None:
    for path in words.CATALOGS.glob("*.json"):
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
        assert isinstance(data, dict) and all(isinstance(v, str) for v in data.values())
        if path.stem != "languages":
            assert json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n" == text


def test_a_text_is_filled_as_the_web_client_fills_it() -> None:
    assert words.fill("{name} played {tile}{x}.", {"name": "You", "tile": "6-3"}) == \
        "You played 6-3{x}."
    assert words.word("refuse.not_held", "fr", tile="6-3") == \
        words.catalog("fr")["refuse.not_held"].replace("{tile}", "6-3")


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every English entry replaced by its own key in «», to see which entry a client read."""
    english = {key: f"«{key}»" for key in words.catalog(words.ENGLISH)}
    real = words.catalog
    monkeypatch.setattr(words, "catalog", lambda lang: english if lang == "en" else real(lang))
    yield


def read_keys(sentence: str) -> set[str]:
    return set(re.findall(r"«([^»]+)»", sentence))


@pytest.mark.usefixtures("marked")
@pytest.mark.parametrize("code", sorted(CODES))
def test_the_terminal_words_each_code_from_its_catalog_entry(code: str) -> None:
    facts, _ = EXPLANATIONS[code]
    read = read_keys(word_step(Step(code, facts), NAMES, [3, 5, 7]))
    assert any(k.removeprefix(words.TERMINAL).startswith(f"explain.{code}") for k in read), read


@pytest.mark.usefixtures("marked")
@pytest.mark.parametrize("reason", sorted(REFUSALS))
def test_the_terminal_words_each_refusal_from_its_catalog_entry(reason: str) -> None:
    facts: dict[str, Any] = REFUSED.get(reason, ({}, []))[0]
    read = read_keys(word_refusal(Refusal(reason, facts), NAMES))
    assert any(k.removeprefix(words.TERMINAL).startswith(f"refuse.{reason}") for k in read), read


def test_the_terminal_reads_the_shared_entry_where_it_has_no_wording_of_its_own() -> None:
    english = words.catalog(words.ENGLISH)
    assert f"{words.TERMINAL}explain.capicu" not in english
    assert word_step(Step("capicu", {"seat": 1, "tile": "6-3"}), NAMES) == \
        words.word("explain.capicu", tile="6-3")
    assert ENDINGS["tonbe"] == english[f"{words.TERMINAL}ending.about.tonbe"]
    assert word_step(Step("named", {"name": "blok"}), NAMES).endswith(english["ending.blok"] + ".")


def sentences(literals: list[str]) -> list[str]:
    """The literals that are words to read rather than keys or notation: a word of letters
    beside a space ("2 KABÈS", " ak "), placeholders aside."""
    plain = [re.sub(r"\$\{[^}]*\}|\{\w+\}", "_", text) for text in literals]
    return [text for text in plain if re.search(r"(^|\s)[^\W\d_]{2,}|[^\W\d_]{2,}(\s|$)", text)
            and re.search(r"\s", text)]


def js_literals(source: str) -> list[str]:
    source = re.sub(r"^\s*(//|/\*\*|\*).*$", "", source, flags=re.M)
    found = re.finditer(r'"([^"\n]*)"|\'([^\'\n]*)\'|`([^`]*)`', source)
    return [next(g for g in m.groups() if g is not None) for m in found]


def test_the_web_client_has_no_sentence_of_its_own_for_a_code() -> None:
    source = (SRC / "web" / "explain.js").read_text(encoding="utf-8")
    assert "explain.${step.code}" in source and "refuse.${error.reason}" in source
    assert sentences(js_literals(source)) == []
    assert sentences(js_literals('const a = "Nobody can play, {name}.";')) != []


@pytest.mark.parametrize("module", ["explain.py", "refusals.py"])
def test_the_terminal_has_no_sentence_of_its_own_for_a_code(module: str) -> None:
    tree = ast.parse((SRC / "cli" / module).read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    docstrings |= {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    literals = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                and isinstance(node.value, str) and id(node) not in docstrings]
    assert literals and sentences(literals) == []

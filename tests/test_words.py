"""One catalog of words per language (kabes.words), read by the terminal and the web client.

Every explanation code and refusal reason the engine can produce has words in every catalog;
the catalogs have the same keys with the same placeholders (the terminal's own English
sentences aside); the language list is the catalogs'; and neither client words a code itself:
the terminal's sentence for a code changes when its catalog entry does, and the web's
explain.js holds no sentence text.
"""

from __future__ import annotations

import ast
import inspect
import io
import json
import re
import shutil
import subprocess
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from random import Random
from typing import Any

import pytest
from rich.console import Console

from kabes import errors, words
from kabes.cli.describe import describe_hand, describe_match
from kabes.cli.display import render
from kabes.cli.explain import ENDINGS, word_explanation, word_step
from kabes.cli.learn import show_paths
from kabes.cli.refusals import REFUSALS, Refusal, word_refusal
from kabes.cli.words import Names, ending_name, variant_name
from kabes.explain import CODES, Step
from kabes.lessons.model import LANGUAGES as LESSON_LANGUAGES
from kabes.match import Match
from kabes.results import Ending, HandResult, MatchResult
from kabes.rules import VARIANTS, get_rules
from kabes.rules.haitian import BLOK, KABES, TONBE
from kabes.views import view
from test_cli_engine_words import EXPLANATIONS, NAMES, REFUSED, table_codes

SRC = Path(__file__).parent.parent / "src" / "kabes"
ENGINE = [*SRC.glob("*.py"), *(SRC / "rules").glob("*.py")]
"""The engine's modules, where refusals are raised."""
NAMED_ENDINGS = (TONBE, KABES, BLOK)


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
    terminal = words.CATALOGS.parent / "terminal.json"
    assert all(key.startswith(words.TERMINAL) for key in json.loads(terminal.read_text("utf-8")))
    for path in [*words.CATALOGS.glob("*.json"), terminal]:
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


def test_how_each_step_is_told_is_composed_once_for_both_clients() -> None:
    """web/steps.js tells every code; the web page's explain.js and the terminal's wording of a
    step name none (neither chooses an entry or its facts code by code)."""
    assert set(words.steps()) == CODES
    web = js_literals((SRC / "web" / "explain.js").read_text(encoding="utf-8"))
    terminal = inspect.getsource(word_step) + inspect.getsource(word_explanation)
    for code in CODES:
        assert code not in web, f"explain.js words {code!r} itself"
        assert not re.search(rf"[\"']{code}[\"']", terminal), f"the terminal words {code!r} itself"


def py_literals(source: str) -> list[tuple[int, str]]:
    """A module's string literals that are not docstrings (nor strings standing alone as
    comments), each with its line: the parts of an f-string take the f-string's line."""
    tree = ast.parse(source)
    skipped = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    lines = {id(node): node.lineno for node in ast.walk(tree) if isinstance(node, ast.Constant)}
    lines |= {id(part): joined.lineno for joined in ast.walk(tree)
              if isinstance(joined, ast.JoinedStr) for part in joined.values}
    return sorted((lines[id(node)], node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and id(node) not in skipped)


@pytest.mark.parametrize("module", ["explain.py", "refusals.py"])
def test_the_terminal_has_no_sentence_of_its_own_for_a_code(module: str) -> None:
    literals = [text for _, text in py_literals((SRC / "cli" / module).read_text("utf-8"))]
    assert literals and sentences(literals) == []


# Ending and variant names: the catalogs name them, and both clients read those names.

def js_literals_at(source: str) -> list[tuple[int, str]]:
    """``js_literals`` with the line of each."""
    source = re.sub(r"^[ \t]*(//|/\*\*|\*).*$", "", source, flags=re.M)
    return [(source.count("\n", 0, m.start()) + 1, next(g for g in m.groups() if g is not None))
            for m in re.finditer(r'"([^"\n]*)"|\'([^\'\n]*)\'|`([^`]*)`', source)]


def english_names() -> dict[str, str]:
    """Every ending's and variant's English name, as the catalog and the rules spell them
    (without the "!" of "Domino!"), and where each comes from."""
    names = {text.strip(" !¡"): key for key, text in words.catalog(words.ENGLISH).items()
             if key.startswith(("ending.", "variant.")) and not key.startswith("ending.about.")}
    names |= {get_rules(v).title: f"Rules.title of {v}" for v in VARIANTS}
    return names


def spelled_names(files: Iterable[tuple[str, list[tuple[int, str]]]]) -> list[str]:
    """``file:line: 'literal' spells NAME`` for each literal that spells an ending's or a
    variant's name (in any case), codes and keys aside ("blocked", "ending.blocked")."""
    found = []
    names = english_names()
    for name, literals in files:
        for line, text in literals:
            if re.fullmatch(r"[a-z0-9_.\-]*", text):
                continue  # a code or a key
            for spelled, where in names.items():
                if re.search(rf"(?<!\w){re.escape(spelled)}(?!\w)", text, re.IGNORECASE):
                    found.append(f"{name}:{line}: {text!r} spells {spelled!r} ({where})")
    return found


def client_sources() -> Iterator[tuple[str, list[tuple[int, str]]]]:
    """Every terminal module's and web module's literals, by file."""
    for path in sorted((SRC / "cli").rglob("*.py")):
        yield str(path.relative_to(SRC)), py_literals(path.read_text(encoding="utf-8"))
    for path in sorted((SRC / "web").rglob("*.js")):
        yield str(path.relative_to(SRC)), js_literals_at(path.read_text(encoding="utf-8"))


def test_no_client_spells_an_ending_or_a_variant_name_outside_the_catalogs() -> None:
    names = english_names()
    assert {"TONBE", "2 KABÈS", "BLÒK", "Capicú", "Domino", "Blocked", "Kochon", "Wa",
            "La Plaza", "La Plaza, head to head", "Mexican Train"} <= set(names)
    sources = list(client_sources())
    assert any(name == "cli/describe.py" for name, _ in sources)
    assert any(name == "web/names.js" for name, _ in sources)
    assert spelled_names(sources) == []


def test_the_scan_for_names_finds_them() -> None:
    py = py_literals('"""TONBE in a docstring."""\nNAMES = {"tonbe": "TONBE"}\n'
                     'how += f" (capicú!) {x}"\nv = "blocked"\n')
    js = js_literals_at('\n// TONBE in a comment\nif (x === "blok") return "BLÒK";\n'
                        'const s = `${a} La Plaza`;\nt("ending.wa");\n')
    assert [f.split(" spells")[0] for f in spelled_names([("a.py", py), ("b.js", js)])] == [
        "a.py:2: 'TONBE'", "a.py:3: ' (capicú!) '", "b.js:3: 'BLÒK'", "b.js:4: '${a} La Plaza'"]


def run_web_names(web: Path, catalogs: Path, tmp_path: Path, asked: dict[str, Any]) -> Any:
    """The web client's ``variantName`` and ``endingName`` (names.js) in English, run in
    Node with the page's fetch of ``/static/i18n/`` served from ``catalogs``."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js to run the web client's names.js")
    copy = tmp_path / "web"
    if not copy.exists():
        shutil.copytree(web, copy)
    (copy / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    harness = copy / "harness.js"
    harness.write_text(WEB_HARNESS, encoding="utf-8")
    done = subprocess.run([node, str(harness), str(catalogs)], input=json.dumps(asked),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "missing translation" not in done.stderr, done.stderr
    return json.loads(done.stdout)


WEB_HARNESS = r"""
import { readFileSync } from "node:fs";
const catalogs = process.argv[2];
globalThis.document = { documentElement: {} };
globalThis.fetch = async (url) => {
  const found = /^\/static\/i18n\/([\w-]+\.json)$/.exec(url);
  if (!found) return { ok: false, json: async () => ({}) };
  const text = readFileSync(`${catalogs}/${found[1]}`, "utf8");
  return { ok: true, json: async () => JSON.parse(text) };
};
const { setLang } = await import("./i18n.js");
const { endingName, variantName } = await import("./names.js");
await setLang("en");
const asked = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify({
  variants: asked.variants.map(([id, title]) => variantName(id, title)),
  endings: asked.results.map((result) => endingName(result)),
}));
"""


def hand_results() -> list[HandResult]:
    """A hand's every ending: domino or blocked, named or not, capicú or not."""
    return [HandResult(ending, name, capicu, 0, (0, 0), (0, 0), 0, None, (0, 0))
            for ending in Ending for name in (None, *NAMED_ENDINGS) for capicu in (False, True)]


def ending_key(result: HandResult) -> str:
    """The ending a hand's result is named by: the variant's name for it, else blocked, else
    capicú, else domino."""
    if result.name:
        return result.name
    if result.ending is Ending.BLOCKED:
        return "blocked"
    return "capicu" if result.capicu else "domino"


def test_the_web_names_variants_and_endings_from_the_catalog(tmp_path: Path) -> None:
    marked = tmp_path / "catalogs"
    marked.mkdir()
    shutil.copy(words.CATALOGS / "languages.json", marked)
    for lang in words.LANGUAGES:
        keys = {key: f"«{key}»" for key in words.catalog(lang)}
        (marked / f"{lang}.json").write_text(json.dumps(keys), encoding="utf-8")
    results = hand_results()
    web = run_web_names(SRC / "web", marked, tmp_path, {
        "variants": [[v, get_rules(v).title] for v in VARIANTS],
        "results": [r.to_json() for r in results]})
    assert web["variants"] == [f"«variant.{v}»" for v in VARIANTS]
    assert web["endings"] == [f"«ending.{ending_key(r)}»" for r in results]


def test_the_terminal_and_the_web_name_every_variant_and_ending_alike(tmp_path: Path) -> None:
    results = hand_results()
    web = run_web_names(SRC / "web", words.CATALOGS, tmp_path, {
        "variants": [[v, get_rules(v).title] for v in VARIANTS],
        "results": [r.to_json() for r in results]})
    assert web["variants"] == [variant_name(v) for v in VARIANTS]
    assert web["variants"][list(VARIANTS).index("plaza")] == "La Plaza, head to head"
    names = Names(2, False, 0)
    for result, name in zip(results, web["endings"], strict=True):
        line = describe_hand(result, names)
        # The terminal heads its sentence with the name, without its "!" ("Domino: ..."),
        # and says capicú in brackets in lower case: the same words.
        assert name.rstrip("!").casefold() in line.casefold(), (result, name, line)
        assert name == ending_name(ending_key(result)) == words.word(f"ending.{ending_key(result)}")
    assert ending_name("kochon").casefold() in describe_match(
        MatchResult(True, (0,), (0, 0), True), names).casefold()


def test_a_variant_the_catalogs_do_not_name_has_its_title_in_both_clients(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unnamed = tmp_path / "catalogs"
    unnamed.mkdir()
    for path in words.CATALOGS.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        data.pop("variant.plaza", None)
        (unnamed / path.name).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    web = run_web_names(SRC / "web", unnamed, tmp_path, {
        "variants": [["plaza", get_rules("plaza").title]], "results": []})
    real = words.catalog
    monkeypatch.setattr(words, "catalog", lambda lang: {
        k: v for k, v in real(lang).items() if k != "variant.plaza"})
    assert web["variants"] == [variant_name("plaza")] == ["La Plaza"]


@pytest.mark.usefixtures("marked")
def test_the_terminal_names_variants_and_endings_from_the_catalog() -> None:
    out = io.StringIO()
    match = Match("plaza", 2, rng=Random(3))
    match.deal_hand()
    Console(file=out, width=120, color_system=None).print(render(view(match, 0)))
    assert out.getvalue().startswith("«variant.plaza» · ")
    out = io.StringIO()
    show_paths(Console(file=out, width=120, color_system=None), set(), "en", "me")
    assert {f"variant.{v}" for v in VARIANTS} <= read_keys(out.getvalue())
    names = Names(2, False, 0)
    for result in hand_results():
        key = result.name or result.ending.value
        assert f"ending.{key}" in read_keys(describe_hand(result, names))
        assert ("ending.capicu" in read_keys(describe_hand(result, names))) == result.capicu
    assert read_keys(describe_match(MatchResult(True, (0,), (0, 0), True), names)) == \
        {"ending.kochon"}


@pytest.mark.parametrize("lang", words.LANGUAGES)
def test_the_sentences_about_kochon_and_the_wa_use_their_names(lang: str) -> None:
    catalog = words.catalog(lang)
    for name, keys in {"kochon": ("explain.kochon", "match.kochon"),
                       "wa": ("explain.wa", "match.wa", "score.wa")}.items():
        for key in keys:
            assert catalog[f"ending.{name}"] in catalog[key], f"{lang}: {key}"


def test_the_service_worker_caches_the_catalogs_the_language_list_names() -> None:
    source = (SRC / "web" / "sw.js").read_text(encoding="utf-8")
    assert '"/static/i18n/"' in source and "languages.json" in source
    named = [lang for lang in words.LANGUAGES if re.search(rf"\b{lang}\.json", source)]
    assert named == [], f"sw.js names catalogs {named}: it should read them from languages.json"

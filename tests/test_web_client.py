"""The web client says each thing once (issue 25, part 4): one module builds the top bar of
every page, and one function says a seat's side from the variant's traits."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "src" / "kabes" / "web"


def modules() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in WEB.glob("*.js")}


def test_one_module_builds_the_top_bar() -> None:
    builders = {name for name, text in modules().items() if re.search(r'class: [`"]topbar', text)}
    assert builders == {"topbar.js"}
    pages = re.findall(r'"module": "([\w.]+)"', (WEB / "pages.js").read_text(encoding="utf-8"))
    for page in pages:
        assert re.search(r"\b(topBar|tableBar)\(", modules()[page]), page


def test_teams_are_read_from_the_traits_by_one_function() -> None:
    rule = {name for name, text in modules().items() if re.search(r"\bseat % 2|% 2\b", text)}
    assert rule == {"names.js"}, "ask names.js's partyOf, fed by the variant's traits"
    assert re.findall(r"\bview\.teams\b", "".join(modules().values())) == [], \
        "ask names.js's inTeams (the view's traits)"

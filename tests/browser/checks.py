"""What every screen must satisfy, checked in the page itself: nothing off-screen, nothing
overlapping, no text overflowing its box, no translation key shown, and axe-core's
accessibility rules (serious and critical ones) passing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

KEY = re.compile(
    r"\b(?:action|home|seat|score|table|status|end|ending|match|train|waiting|welcome|error|"
    r"place|play|menu|tour|memory|option|variant|level|about|num|history|rank|share|board|conn|"
    r"tile|hint|hand|line|clock|loading|settings|team|history|explain|refuse|learn|lesson|review|"
    r"lobby|watch|phrase|link|offline|replay|player|puzzle)"
    r"\.[a-z_]+[a-z_.-]*\b"
)

LAYOUT_JS = (Path(__file__).parent / "layout.js").read_text()


TEXTS_JS = """
() => {
  const parts = [document.body.innerText, document.title];
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]"))
    for (const name of ["aria-label", "title", "placeholder", "alt"])
      if (el.getAttribute(name)) parts.push(el.getAttribute(name));
  return parts.join("\\n");
}
"""

try:
    import axe_playwright_python

    AXE_JS: Path | None = Path(axe_playwright_python.__file__).parent / "axe.min.js"
except ImportError:  # pragma: no cover - the dev dependencies bring it
    AXE_JS = None


def layout_problems(page: Any) -> list[str]:
    return list(page.evaluate(f"(\n{LAYOUT_JS}\n)()"))


def shown_keys(page: Any) -> list[str]:
    return sorted(set(KEY.findall(page.evaluate(TEXTS_JS))))


def axe_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    assert AXE_JS is not None, "axe-playwright-python is needed for the accessibility checks"
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_JS.read_text())
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']}: {v['help']} {[n['target'] for n in v['nodes'][:3]]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]

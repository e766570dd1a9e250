"""Players' names (PROTOCOL.md, "Safe for strangers"): 1 to 24 characters after NFC
normalisation and trimming, with nothing that draws differently from what it says.

A name is shown to strangers on every seat, in the rankings and on player pages, so it may
not hold characters that hide or reorder what follows them: control characters (Cc),
format characters (Cf: the bidi overrides such as U+202E that make a name read backwards,
zero-width spaces and joiners), private-use (Co), surrogates (Cs) or unassigned code points
(Cn, whose look nobody knows yet). NFC first, so that "é" typed as e + U+0301 and "é" are one
name of one length.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from kabes.server.protocol import ErrorCode, Refused

NAME_LIMIT: Final = 24
"""A name's most characters, once normalised and trimmed."""
REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})
"""Unicode categories a name may not hold."""


def clean_name(value: str) -> str:
    """``value`` as a name is kept: NFC, trimmed; Refused ``bad_name`` unless 1 to 24
    characters, none of REFUSED_CATEGORIES."""
    name = unicodedata.normalize("NFC", value).strip()
    if not 1 <= len(name) <= NAME_LIMIT:
        raise Refused(ErrorCode.BAD_NAME, f"a name is 1 to {NAME_LIMIT} characters")
    for char in name:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise Refused(ErrorCode.BAD_NAME, f"a name may not hold U+{ord(char):04X} (control, "
                          "format, private-use or unassigned characters)")
    return name

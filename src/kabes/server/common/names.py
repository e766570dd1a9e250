"""Players' names (PROTOCOL.md, "Safe for strangers"): 1 to 24 characters after NFC
normalisation and trimming, with nothing that draws differently from what it says.

A name is shown to strangers on every seat, in the rankings and on player pages, so it may
not hold characters that hide or reorder what follows them: control characters (Cc),
format characters (Cf: the bidi overrides such as U+202E that make a name read backwards,
zero-width spaces and joiners), private-use (Co), surrogates (Cs) or unassigned code points
(Cn, whose look nobody knows yet). NFC first, so that "é" typed as e + U+0301 and "é" are one
name of one length.

Nor may a name look empty or spill out of its place: line and paragraph separators (Zl, Zp:
U+2028 and U+2029 break the line a seat's name is drawn on), the blank fillers that are
letters or symbols to Unicode but draw nothing (Hangul fillers U+115F, U+1160, U+3164,
U+FFA0 and the blank braille pattern U+2800: a seat named "ㅤ" looks empty), a name with no
visible letter, digit, punctuation or symbol at all, and a character carrying more than
:data:`MOST_MARKS` combining marks (a stack of 23 marks draws over the lines above and below,
"Zalgo" text). Two marks cover every language's letters that NFC leaves decomposed (a
Vietnamese vowel with its hat and its tone, a Yoruba vowel with its tone and dot).
"""

from __future__ import annotations

import unicodedata
from typing import Final

from kabes.server.common.protocol import ErrorCode, Refused

NAME_LIMIT: Final = 24
"""A name's most characters, once normalised and trimmed."""
REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
"""Unicode categories a name may not hold."""
FILLERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters that are letters or symbols to Unicode but draw nothing."""
VISIBLE: Final = frozenset("LNPS")
"""The first letters of the categories that draw something: letters, numbers, punctuation,
symbols (a mark draws only on a letter, which is visible itself)."""
MOST_MARKS: Final = 2
"""Combining marks one character may carry."""


def clean_name(value: str) -> str:
    """``value`` as a name is kept: NFC, trimmed; Refused ``bad_name``, saying what is wrong,
    unless it keeps every clause of the module's docstring."""
    name = unicodedata.normalize("NFC", value).strip()
    if not 1 <= len(name) <= NAME_LIMIT:
        raise Refused(ErrorCode.BAD_NAME, f"a name is 1 to {NAME_LIMIT} characters")
    marks = 0
    for char in name:
        category = unicodedata.category(char)
        if category in REFUSED_CATEGORIES:
            raise Refused(ErrorCode.BAD_NAME, f"a name may not hold U+{ord(char):04X} (control, "
                          "format, line-breaking, private-use or unassigned characters)")
        if char in FILLERS:
            raise Refused(ErrorCode.BAD_NAME, f"a name may not hold U+{ord(char):04X}, a "
                          "blank filler that draws nothing")
        marks = marks + 1 if category[0] == "M" else 0
        if marks > MOST_MARKS:
            raise Refused(ErrorCode.BAD_NAME, f"a name may carry at most {MOST_MARKS} "
                          "combining marks on one character")
    if not any(unicodedata.category(char)[0] in VISIBLE for char in name):
        raise Refused(ErrorCode.BAD_NAME, "a name needs at least one visible letter, digit, "
                      "punctuation mark or symbol")
    return name

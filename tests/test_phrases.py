"""The fixed phrases (kabes/words/phrases.json): said in every language, and never a signal.

Partners must not be able to tell each other anything about the hand through a phrase, so no
text names a number, a tile, a double, an end or a move, in any language.
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from kabes.server.table.phrases import phrase_ids, phrases
from kabes.words import LANGUAGES

SIGNAL_WORDS = {
    "en": "tile tiles domino dominoes double doubles blank blanks pip pips end ends left right "
          "play pass knock block zero one two three four five six seven eight nine ten eleven "
          "twelve",
    "fr": "tuile domino dominos double doubles blanc blanche bout bouts gauche droite jouer "
          "joue passe boude zéro un une deux trois quatre cinq six sept huit neuf dix onze "
          "douze",
    "es": "ficha fichas dominó doble dobles blanca blancas punta puntas izquierda derecha "
          "juega paso pase tranque cero uno una dos tres cuatro cinco seis siete ocho nueve "
          "diez once doce",
    "pt": "pedra pedras dominó peça peças dobre dobres branca branco ponta pontas esquerda "
          "direita joga passo passa zero um uma dois duas três quatro cinco seis sete oito "
          "nove dez onze doze",
    "no": "brikke brikker domino dobbel dobbelt blank ende venstre høyre spill pass null en "
          "ett én to tre fire fem seks sju syv åtte ni ti elleve tolv",
    "ht": "zo domino doub blan pwent bout goch dwat jwe pase bloke zewo youn en de twa kat "
          "senk sis sèt uit nèf dis onz douz",
}
"""Words that would speak of the hand, per language (numbers up to double twelve's, tiles,
doubles, blanks, the ends of the line, playing and passing)."""


def test_there_are_at_least_twelve_phrases_with_distinct_ids() -> None:
    ids = [p["id"] for p in phrases()]
    assert len(ids) >= 12
    assert len(set(ids)) == len(ids) == len(phrase_ids())
    assert all(re.fullmatch(r"[a-z_]{1,32}", i) for i in ids)


@pytest.mark.parametrize("phrase", phrases(), ids=lambda p: p["id"])
def test_every_phrase_is_written_in_all_six_languages(phrase: dict[str, object]) -> None:
    text = phrase["text"]
    assert isinstance(text, dict)
    assert list(text) == list(LANGUAGES) == ["ht", "en", "fr", "es", "pt", "no"]
    assert all(isinstance(t, str) and 0 < len(t.strip()) <= 40 for t in text.values())


@pytest.mark.parametrize("phrase", phrases(), ids=lambda p: p["id"])
def test_no_phrase_holds_a_digit_or_a_word_for_a_tile_a_number_or_a_move(
    phrase: dict[str, dict[str, str]],
) -> None:
    for lang, text in phrase["text"].items():
        assert not any(unicodedata.category(c) == "Nd" for c in text), (lang, text)
        words = set(re.findall(r"\w+", text.lower()))
        named = words & set(SIGNAL_WORDS[lang].split())
        assert not named, f"{phrase['id']} in {lang}: {text!r} says {named}"


def test_the_phrases_cover_greetings_praise_regret_thanks_hurry_back_and_again() -> None:
    english = {p["id"]: p["text"]["en"] for p in phrases()}
    for needed in ("hello", "nice_play", "sorry", "thanks", "hurry", "brb", "again"):
        assert needed in english, needed
    assert english["hello"] == "Hello everyone!" and english["again"] == "Another round!"
    kreyol = {p["id"]: p["text"]["ht"] for p in phrases()}
    assert kreyol["hello"] == "Bonjou tout moun!" and kreyol["again"] == "Yon lòt!"

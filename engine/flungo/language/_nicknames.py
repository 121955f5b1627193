"""A squad member written otherwise than his name: a cricket nickname, a spelling variant,
a name one letter off. Read as the player when one squad member alone fits, and said.

Three classes, each from outside the corpus (``docs/rules/orders-unknown-words.md``):

- cricket's nicknames, made from the surname with a suffix ("Warnie", "Gilly", "Swanny",
  "Haydos", "Jonesy", "Gazza"; the suffixes of Australian and English nicknames in the game's
  dressing rooms, as in Wisden's and ESPNcricinfo's player profiles): written with a capital
  letter, as a name is, its stem (the word without the suffix) is a prefix of one squad
  member's surname, or that surname without its last letter;
- the spelling variants English writes a name with: "a" for "e" and "i" for "y" ("Gray" and
  "Grey", "Smyth" and "Smith"), in any case (voice typing writes "gray" small);
- a name one letter off (a keyboard's autocorrect: "Greg" for "Grey"), only capitalised in
  the middle of a sentence, where the capital says it is a name and not an English word.

No word pbm lists, no squad name and no word near two squad members is ever read so.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.flungo.language._dictation import heard
from engine.flungo.language._lines import CleanLine
from engine.flungo.language._model import EchoLine
from engine.flungo.language._names import NameBook
from engine.flungo.language._typos import corrected, known_words, one_edit

__all__ = ["name_variants", "renamed"]

_WORD = re.compile(r"(?<![\w'-])([^\W\d_])([^\W\d_]*)(?![\w'-])")
_SUFFIXES = ("zza", "sy", "ie", "os", "za", "y", "o")
_VARIANTS = frozenset([("a", "e"), ("e", "a"), ("i", "y"), ("y", "i")])
# where a capital is the sentence's and says nothing of a name
_STARTS = re.compile(r"(?:^|[.!?:;(\[\-–—>|/•*]|\d\W?)\s*$")


def _variant(word: str, name: str) -> bool:
    """Whether ``word`` is ``name`` with one of English's spelling variants."""
    if len(word) != len(name) or word == name:
        return False
    diff = [(a, b) for a, b in zip(word, name, strict=True) if a != b]
    return len(diff) == 1 and diff[0] in _VARIANTS


def _nickname(word: str, surname: str) -> bool:
    """Whether ``word`` is a nickname made of ``surname`` ("warnie" of "warne")."""
    for suffix in _SUFFIXES:
        stem = word[: -len(suffix)]
        if (
            word.endswith(suffix)
            and len(stem) >= 3
            and (surname.startswith(stem) or surname[:-1] == stem)
        ):
            return True
    return False


def name_variants(text: str, own: NameBook, known: frozenset[str]) -> dict[str, str]:
    """The words of ``text`` that are one squad member of ``own`` written otherwise (see the
    module), by the word in lower case, each with the name it is read as."""
    people = [(n, n.lower().replace("'", "").split()) for n in own.names]
    out: dict[str, str] = {}
    for m in _WORD.finditer(text):
        word = m.group(0).lower()
        if len(word) < 4 or word in known or word in out or own.candidates(word):
            continue
        capital = m.group(1).isupper() and not m.group(2).isupper()
        mid = capital and _STARTS.search(text[: m.start()]) is None
        fits = {
            n
            for n, parts in people
            for part in parts
            if len(part) >= 4
            and (
                _variant(word, part)
                or (capital and _nickname(word, part))
                or (mid and one_edit(word, part))
            )
        }
        if len(fits) == 1:
            out[word] = fits.pop()
    return out


def renamed(cl: CleanLine, own: NameBook, notes: list[EchoLine]) -> CleanLine:
    """``cl`` with what voice typing wrote for an order's word (:mod:`._dictation`) and each
    squad member written otherwise put right, a note for each."""
    text, said = heard(cl.text, own)
    if said:
        cl = replace(cl, text=text, plain=heard(cl.plain, own)[0])
        notes += [EchoLine(cl.number, f"read '{w}' as '{n}'") for w, n in said]
    named = name_variants(cl.text, own, known_words())
    if not named:
        return cl
    notes += [EchoLine(cl.number, f"read '{w}' as '{n}'") for w, n in named.items()]
    return replace(cl, text=corrected(cl.text, named), plain=corrected(cl.plain, named))

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
from engine.flungo.language._reader import kept
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


@kept(maxsize=64)
def _people(names: tuple[str, ...]) -> tuple[frozenset[str], dict[str, list[tuple[str, str]]]]:
    """The words of ``names`` (lower case), and each name by the first letter of each of its
    words of four letters or more."""
    every: set[str] = set()
    by_letter: dict[str, list[tuple[str, str]]] = {}
    for n in names:
        for w in n.lower().replace("'", "").split():
            every.add(w)
            if len(w) >= 4:
                by_letter.setdefault(w[0], []).append((n, w))
    return frozenset(every), by_letter


def name_variants(
    text: str, own: NameBook, known: frozenset[str], only: set[str] | None = None
) -> dict[str, str]:
    """The words of ``text`` that are one squad member of ``own`` written otherwise (see the
    module), by the word in lower case, each with the name it is read as; ``only``: the
    words worth looking at, where the caller knows them."""
    every, by_letter = _people(own.names)
    out: dict[str, str] = {}
    for m in _WORD.finditer(text):
        word = m.group(0).lower()
        if (
            len(word) < 4
            or word in every
            or word in known
            or word in out
            or (only is not None and word not in only)
        ):
            continue
        capital = m.group(1).isupper() and not m.group(2).isupper()
        mid = capital and _STARTS.search(text[: m.start()]) is None
        # a nickname and a variant keep the name's first letter; one letter off may not
        near = [p for ps in by_letter.values() for p in ps] if mid else by_letter.get(word[0], [])
        fits = {
            n
            for n, part in near
            if _variant(word, part)
            or (capital and _nickname(word, part))
            or (mid and one_edit(word, part))
        }
        # the name book last: a word it finds is a name as written (it is the dearer test)
        if len(fits) == 1 and not own.candidates(word):
            out[word] = fits.pop()
    return out


_TOKEN = re.compile(r"[^\W\d_][\w']*")


def renamed(
    cl: CleanLine,
    own: NameBook,
    notes: list[EchoLine],
    names: frozenset[str] = frozenset(),
    known: frozenset[str] | None = None,
) -> CleanLine:
    """``cl`` with what voice typing wrote for an order's word (:mod:`._dictation`) and each
    squad member written otherwise put right, a note for each; ``names``: the words of both
    squads' names, never read as another's ("Andy" of the other side is no Anderson);
    ``known``: :func:`known_words`, where the caller has them."""
    low = cl.text.lower()
    known = known_words() if known is None else known
    # most lines hold only words pbm lists and names as written: nothing to look at
    every = _people(own.names)[0]
    left = {w for w in _TOKEN.findall(low) if w not in known and w not in every and w not in names}
    if not left and "overs" not in low and "ovs" not in low:
        return cl
    text, said = heard(cl.text, own.names, pairs=bool(left))
    if said:
        cl = replace(cl, text=text, plain=heard(cl.plain, own.names, pairs=bool(left))[0])
        notes += [EchoLine(cl.number, f"read '{w}' as '{n}'") for w, n in said]
    # a word of fewer than four letters is never read as a name (name_variants): "th" of "7th"
    named = name_variants(cl.text, own, known, left) if any(len(w) >= 4 for w in left) else {}
    if not named:
        return cl
    notes += [EchoLine(cl.number, f"read '{w}' as '{n}'") for w, n in named.items()]
    return replace(cl, text=corrected(cl.text, named), plain=corrected(cl.plain, named))

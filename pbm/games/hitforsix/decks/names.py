"""A card's initials, derived from the name as the scorebook gives it.

Cricsheet writes most names as initials and a surname ("V Kohli", "AB de Villiers",
"JRMVB Sanjaya"), some in full ("Mohammad Rizwan", "Shakib Al Hasan"), and a few with a
disambiguating suffix ("Mohammad Nawaz (3)"). The rule:

1. drop a trailing ``(n)`` suffix;
2. a leading word in capitals is a block of initials and gives each of its letters;
3. every other word gives its first letter, a hyphenated word one per part, and a word in
   lower case (a particle: de, van, du, ul) gives its letter in lower case;
4. more than four letters is too many for the figure's centre: keep the first given initial and
   the surname's letters, and if that is still too long, the first and last letters of step 3.

So "V Kohli" → "VK", "AB de Villiers" → "ABdV", "MW Graham-Smith" → "MWGS",
"Shakib Al Hasan" → "SAH", "JRMVB Sanjaya" → "JS", "Mohammad Nawaz (3)" → "MN".
"""

from __future__ import annotations

import re

__all__ = ["initials"]

_SUFFIX = re.compile(r"\s*\(\d+\)\s*$")
_MAX = 4


def _word_letters(word: str) -> str:
    out = ""
    for part in word.split("-"):
        letters = [ch for ch in part if ch.isalpha()]
        if letters:
            out += letters[0] if part[:1].islower() else letters[0].upper()
    return out


def initials(name: str) -> str:
    """The initials printed at the centre of a card's fingerprint (at most four letters)."""
    words = _SUFFIX.sub("", name).split()
    if not words:
        return "?"
    given = ""
    if len(words) > 1 and words[0].isalpha() and words[0].isupper():
        given, words = words[0], words[1:]
    rest = [_word_letters(w) for w in words]
    full = given + "".join(rest)
    if len(full) <= _MAX:
        return full or "?"
    first = (given or full)[:1]
    surname = [r for r in rest if r and r[0].isupper()][-1:] or rest[-1:]
    short = first + "".join(surname)
    if len(short) <= _MAX:
        return short
    return full[0] + full[-1]

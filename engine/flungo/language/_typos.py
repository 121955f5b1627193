"""A plain typo of a word of the orders, read as that word when pbm is sure, and said.

Players on phones type "ovres" and "wicketts". A word pbm does not know that is one edit
(insert, delete, substitute, or swap two neighbours) from exactly one word of the orders'
vocabulary, at least four letters long, no squad name or near one, no word the lexicon
lists, and not in a guarded spot (a condition, just after a negation) is read as that word;
the answer says so on the line. Two candidates, or any doubt, and the line keeps its refusal
with "did you mean" (``docs/rules/orders-unknown-words.md``).
"""

from __future__ import annotations

import difflib
import re

from engine.flungo.language._grammar import ORDER_WORDS, by_grammar, keywords
from engine.flungo.language._lines import CHATTER_WORDS
from engine.flungo.language._meaning import STYLE_WORDS, is_name_word, lexicon, meaning_words
from engine.flungo.language._names import NameBook
from engine.flungo.language._reader import kept
from engine.flungo.language._unknown import GUARDED, NEGATED, order_vocabulary

__all__ = ["corrected", "known_words", "offered", "one_edit", "sure_typos", "typos"]

_WORD = re.compile(r"(?<![\w'-])[^\W\d_][\w']*(?![\w'-])")
_UNITS = ("over", "overs", "ball", "balls", "wicket", "wickets", "runs")
_CORE = frozenset((*_UNITS, *STYLE_WORDS, *ORDER_WORDS))


def one_edit(a: str, b: str) -> bool:
    """Whether ``a`` is exactly one Damerau edit from ``b``."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k in range(len(short)) if short[k] != long[k]), len(short))
    return short[i:] == long[i + 1 :]


@kept(maxsize=4096)
def _candidates(word: str) -> tuple[str, ...]:
    """The words of the orders' vocabulary one edit from ``word``."""
    vocabulary = (*order_vocabulary(keywords()), *_UNITS)
    return tuple(sorted({v for v in vocabulary if one_edit(word, v)}))


@by_grammar
def _known_of(words: frozenset[str]) -> frozenset[str]:
    """Words pbm lists: never a typo, whatever they are near (made once, not per Reader)."""
    lex = lexicon()
    return words | meaning_words() | lex.carries | CHATTER_WORDS | frozenset(lex.spelling)


def known_words() -> frozenset[str]:
    """Every word pbm lists (the orders' own, the lexicon's, chatter's)."""
    return _known_of(keywords())


def typos(
    text: str, own: NameBook, opponent: NameBook | None, protect: frozenset[str]
) -> dict[str, tuple[str, ...]]:
    """The words of ``text`` (a player's line) that are plain typos, each with the words of
    the orders it is one edit from, by the word as written in lower case. Read as its word
    only where it has one (:func:`sure_typos`); with two, the refusal names both."""
    low = text.lower()
    out: dict[str, tuple[str, ...]] = {}
    names = sorted(protect)
    known = _known_of(keywords())
    for m in _WORD.finditer(low):
        word = m.group(0)
        if len(word) < 4 or word in known or word in protect:
            continue
        got = _candidates(word)
        if not got:
            continue
        if is_name_word(word, protect) or own.candidates(word):
            continue  # a name keeps its own "did you mean"
        if (opponent is not None and opponent.candidates(word)) or difflib.get_close_matches(
            word, names, 1, 0.8
        ):
            continue
        before = low[: m.start()]
        if GUARDED.search(before) or NEGATED.search(before):
            continue  # a condition or a negation the word may be all of: asked, never guessed
        out[word] = got
    return out


def sure_typos(choices: dict[str, tuple[str, ...]]) -> dict[str, str]:
    """The typos of :func:`typos` that are one edit from one word alone, as that word."""
    return {w: got[0] for w, got in choices.items() if len(got) == 1}


def offered(choices: tuple[str, ...], hint: str | None) -> str | None:
    """The hint for a typo one edit from two words or more: all of them, never a guess. A
    "did you mean" is widened to them all; another hint only takes them when two are core
    words of the orders ("bals": ball, balls), never for an English word pbm does not list
    ("makes": make, takes), which is no typo."""
    said = "did you mean " + " or ".join(f"'{c}'" for c in choices) + "?"
    if (hint or "").startswith("did you mean"):
        return said
    if sum(c in _CORE for c in choices) < 2:
        return hint
    return f"{said} {hint}" if hint and hint.startswith("without it") else said


def corrected(text: str, typos: dict[str, str]) -> str:
    """``text`` with each typo (any case) replaced by its word."""
    if not typos:
        return text
    return _WORD.sub(lambda m: typos.get(m.group(0).lower(), m.group(0)), text)

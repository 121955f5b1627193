"""Finding squad members by what the player wrote: full name, surname, a first name or a prefix."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Sequence

from engine.errors import AmbiguousOrder, InvalidOrder, OrderError, Span
from engine.flungo.language._reader import kept

__all__ = ["NameBook", "name_prefixes"]


def strip_marks(text: str) -> str:
    """``text`` without accents, one character for one ("Beyoncé" is "Beyonce"), so that
    a column in the result is a column in ``text``."""
    if text.isascii() or _MARKABLE.search(text) is None:
        return text
    return "".join([_base(ch) for ch in text])


# ASCII and the private-use characters names are masked with have no accent to take away
_MARKABLE = re.compile(r"[^\x00-\x7f\ue000-\ue8ff]")
NAME_WORD = re.compile(r"[\w']+")


@kept(maxsize=4096)
def _base(ch: str) -> str:
    base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    return base if len(base) == 1 else ch


def _light(text: str) -> str:
    """Case and accents ignored (what a name is compared by before punctuation goes)."""
    if text.isascii():  # NFKC, accents and "’" leave ASCII alone; its casefold is lower
        return " ".join(text.lower().split())
    text = strip_marks(unicodedata.normalize("NFKC", text)).casefold().replace("’", "'")
    return " ".join(text.split())


_PUNCT = str.maketrans({".": " ", "-": " ", "'": None, ",": " "})


def _fold(text: str) -> str:
    """Case, accents and punctuation ignored: "beyonce" finds "Beyoncé Knowles", "oneill"
    finds "O'Neill", "J.E. Root" is "j e root"."""
    text = _light(text)
    if "." in text or "-" in text or "'" in text or "," in text:  # (translate is dear)
        text = text.translate(_PUNCT)
    return " ".join(text.split())


def _initials(text: str, name: str) -> bool:
    """ "T Smith", "T. Smith", "J.E. Root": initials of the first names, then the surname."""
    words = text.replace(".", ". ").split()
    parts = name.split()
    if len(words) < 2 or len(parts) < 2 or words[-1] != parts[-1]:
        return False
    initials = [w.rstrip(".") for w in words[:-1]]
    if not all(len(i) == 1 for i in initials) or len(initials) > len(parts) - 1:
        return False
    return all(part.startswith(i) for i, part in zip(initials, parts, strict=False))


# English's short closed-class words (articles, prepositions, conjunctions, pronouns): never
# a prefix of a name, though one may be a whole name (matched before prefixes are tried)
_FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "to",
        "at",
        "in",
        "on",
        "of",
        "by",
        "for",
        "as",
        "or",
        "and",
        "but",
        "so",
        "up",
        "if",
        "is",
        "it",
        "be",
        "we",
        "he",
        "me",
        "my",
        "no",
        "do",
        "go",
        "us",
        "i",
    ]
)


@kept(maxsize=256)
def _book(names: tuple[str, ...], what: str) -> NameBook:
    return object.__new__(NameBook)


class NameBook:
    """The names one side's orders may use, and how to find one of them.

    Matching is case-insensitive and tries, in turn: the full name; a surname (the last
    word); any other single word of a name; a prefix of the name or of one of its words.
    The first test that matches anyone decides: one match is the answer, more is ambiguous.
    """

    def __new__(cls, names: Sequence[str], what: str = "squad member") -> NameBook:
        # A turn reads many mails against the same squads: one book per squad, so what it
        # has looked up once it need not look up again.
        return _book(tuple(names), what)

    def __init__(self, names: Sequence[str], what: str = "squad member") -> None:
        if hasattr(self, "names"):
            return
        self.names = tuple(names)
        self.what = what
        self._folded = [(_fold(n), n) for n in self.names]
        self._words = [(f, f.split(), n) for f, n in self._folded]
        self._exact = {f for f, _ in self._folded}
        self._surnames = {w[-1] for _, w, _ in self._words if w}
        self._seen: dict[str, list[str]] = {}

    def candidates(self, text: str) -> list[str]:
        """Every name ``text`` could mean, by the first test that matches anyone."""
        seen = self._seen.get(text)
        if seen is None:
            seen = self._seen[text] = self._candidates(text)
            if len(self._seen) > 4096:
                self._seen.clear()
        return list(seen)

    def _candidates(self, text: str) -> list[str]:
        light = _light(text)
        t = _fold(light)
        if light.endswith(("'s", "s'")) and t not in self._exact:
            base = light[:-2] if light.endswith("'s") else light[:-1]
            if self.candidates(base):
                t = _fold(base)
        if not t:
            return []
        # the tests in turn (a comprehension each, not a function a name: this runs a lot)
        folded = self._words
        words = t.split()
        return (
            [n for f, _, n in folded if f == t]
            or [n for _, w, n in folded if w[-1] == t]
            or [n for _, w, n in folded if t in w]
            or (
                []  # a function word is no prefix of a name ("overs 41-44 to Warne": not Tom),
                # nor a letter alone: texting's "d rest", "u", "n" are words, not Dec or Nash
                if t in _FUNCTION_WORDS or len(t) < 2
                else [n for f, _, n in folded if f.startswith(t)]  # no one word starts "a b"
                if len(words) > 1
                else [n for f, w, n in folded if f.startswith(t) or any(x.startswith(t) for x in w)]
            )
            # initials end with a surname: "j smith" cannot be anyone without a Smith
            or ([n for f, _, n in folded if _initials(t, f)] if words[-1] in self._surnames else [])
        )

    def split(self, text: str) -> list[str] | None:
        """``text`` as several names written without commas ("root stokes tom smith"), each
        matching one squad member; the split with the fewest names, or ``None``."""
        words = text.split()
        longest = max((len(n.split()) for n in self.names), default=1)
        best: list[list[str] | None] = [[]] + [None] * len(words)
        for end in range(1, len(words) + 1):
            for size in range(1, min(longest, end) + 1):
                before = best[end - size]
                if before is None:
                    continue
                found = self.candidates(" ".join(words[end - size : end]))
                if len(found) == 1:
                    option = [*before, found[0]]
                    current = best[end]
                    if current is None or len(option) < len(current):
                        best[end] = option
        result = best[-1]
        return result if result is not None and len(result) > 1 else None

    def find(self, text: str, *, source_line: str, span: Span) -> str:
        """The one name ``text`` means; raise ``InvalidOrder`` or ``AmbiguousOrder`` if none."""
        found = self.candidates(text)
        if len(found) == 1:
            return found[0]
        if found:
            shown = ", ".join(found[:6])
            raise AmbiguousOrder(
                f"'{text}' could be {shown}",
                source_line=source_line,
                span=span,
                hint="write more of the name",
            )
        raise self.unknown(text, source_line=source_line, span=span)

    def unknown(self, text: str, *, source_line: str, span: Span) -> OrderError:
        """The error for a name nobody has, with "did you mean" when one is close."""
        return InvalidOrder(
            f"there is no {self.what} called '{text}'",
            source_line=source_line,
            span=span,
            hint=self._hint(text),
        )

    @kept(maxsize=4096)  # a book lives as long as the Reader that made it
    def _hint(self, text: str) -> str | None:
        pool = {_fold(n): n for n in self.names}
        for n in self.names:
            pool.setdefault(_fold(n.split()[-1]), n)
        # Only a plausible name is offered: a phrase ("If Root gets out early") is no near
        # miss of anybody, and a short word needs to be closer to count.
        words = len(text.split())
        cutoff = 0.6 if words <= 2 and len(text) >= 5 else 0.75
        close = (
            []
            if words > 3
            else difflib.get_close_matches(_fold(text), list(pool), n=len(pool), cutoff=cutoff)
        )
        # A full name and its surname can both be close: offer each squad member once.
        offered = list(dict.fromkeys(pool[c] for c in close))[:3]
        if offered:
            return "did you mean " + " or ".join(f"'{n}'" for n in offered) + "?"
        return None


def name_prefixes(word: str) -> str:
    """ "freddie" -> "fre(?:d(?:d(?:i(?:e)?)?)?)?": the word or any start of it of three
    letters or more (a word of one or two letters, whole)."""
    if len(word) <= 3:
        return re.escape(word)
    head, tail = re.escape(word[:3]), ""
    for ch in reversed(word[3:]):
        tail = f"(?:{re.escape(ch)}{tail})?"
    return head + tail


def named_words(clause: str, protect: frozenset[str]) -> set[str]:
    """The words of our squad's names (``protect``) that ``clause`` (lower case) holds."""
    return {w for w in NAME_WORD.findall(clause) if w in protect}

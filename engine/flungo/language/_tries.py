"""Trying a line against the canonical grammar: its parse, forgiving a near miss of a name,
and the error for a line that starts with a word that is no order ("did you mean")."""

from __future__ import annotations

import difflib
import re
from typing import Any

from engine.errors import InvalidOrder, Span
from engine.flungo.language._drafts import NumberError
from engine.flungo.language._grammar import ORDER_WORDS, START_HINT, keywords, parse_line, starters
from engine.flungo.language._lines import CleanLine, mask_near_miss
from engine.flungo.language._names import NameBook
from engine.flungo.language._transform import read_line

__all__ = [
    "FIRST_WORD",
    "WEAK_STARTERS",
    "Unparsed",
    "first_word_error",
    "forgiving_parse",
    "misspelt_command",
    "parse",
    "said_or_raise",
]


class Unparsed(Exception):
    """A line that does not parse. Saying why costs more than the parse (what lark would
    have taken where it broke), so the error is made only for a line that is reported: a
    greeting, a signature or a line tried as names under a heading is not."""

    def __init__(self, cl: CleanLine, masked: str, start: str) -> None:
        super().__init__(masked)
        self.cl, self.masked, self.start = cl, masked, start

    def error(self) -> InvalidOrder:
        """The parse error, located in the player's line."""
        try:
            parse_line(self.cl, self.masked, self.start)
        except InvalidOrder as exc:
            return exc
        raise AssertionError("the line parses")  # pragma: no cover


def forgiving_parse(
    cl: CleanLine, masked: str, found: dict[int, str], names: list[str], start: str = "start"
) -> tuple[Any, str, dict[int, str]]:
    """Read the line; where it breaks next to a near miss of a name, read that as a name.

    The near miss then fails to match anyone and gets "did you mean", which says more than
    "I don't understand '1' here". Returns what the line says (see :func:`read_line`: a
    ``NumberError`` is returned, for :func:`said_or_raise` to raise) with the masked text and names
    it was read with; raises :class:`Unparsed` when that does not help.
    """
    said = read_line(masked, start, found)
    if not isinstance(said, int):
        return said, masked, found
    first = masked
    found = dict(found)
    for _ in range(24):  # one near miss per try; a line has only so many names
        near = mask_near_miss(masked, names, said, len(names) + len(found))
        if near is None:
            break
        masked, words = near
        found[len(names) + len(found)] = words
        said = read_line(masked, start, found)
        if not isinstance(said, int):
            return said, masked, found
    raise Unparsed(cl, first, start)  # the first error is the one to report


def said_or_raise(said: Any) -> Any:
    """What a line says, or its ``NumberError`` raised."""
    if isinstance(said, NumberError):
        # remembered and raised again for each line alike: without its last traceback, so
        # that a line sent a thousand times does not grow one
        raise said.with_traceback(None)
    return said


def parse(
    cl: CleanLine, masked: str, found: dict[int, str], start: str, names: list[str]
) -> tuple[Any, str, dict[int, str]] | None:
    try:
        return forgiving_parse(cl, masked, found, names, start)
    except Unparsed:
        return None


FIRST_WORD = re.compile(r"[^\W\d_][\w'’\-]*")
# Words an order may start with ("we'll bowl") that start many a sentence that is no order.
WEAK_STARTERS = frozenset(["i", "we", "i'll", "we'll", "i've", "we've", "i'd", "we'd", "they"])


def misspelt_command(text: str) -> bool:
    """Whether ``text`` starts with a near miss of an order's first word and holds a number:
    a typed command, never a remark to let pass ("NAMEE 2 Zippy"; "Great win!" has none)."""
    m = FIRST_WORD.match(text)
    if m is None or not any(c.isdigit() for c in text):
        return False
    word = m.group(0).lower()
    if len(word) < 4 or word in keywords() or word in starters():
        return False
    long_words = [w for w in ORDER_WORDS if len(w) >= 4]
    return bool(difflib.get_close_matches(word, long_words, n=1, cutoff=0.8))


def first_word_error(cl: CleanLine, own: NameBook, exc: InvalidOrder) -> InvalidOrder:
    """An unknown first word is reported as an unknown order, with "did you mean"."""
    m = FIRST_WORD.match(cl.text)
    if m is None or exc.span is None or exc.span.column == cl.column(0):
        return exc
    word = m.group(0)
    weak = word.lower() in WEAK_STARTERS
    if (word.lower() in starters() and not weak) or own.candidates(word):
        return exc
    if word.lower() in keywords():
        return InvalidOrder(
            "this line is not an order I know",
            source_line=cl.raw,
            span=Span(cl.number, cl.column(0), cl.column(len(word))),
            hint=START_HINT,
        )
    close = difflib.get_close_matches(word.lower(), ORDER_WORDS, n=1, cutoff=0.7)
    hint = f"did you mean '{close[0]}'?" if close else None
    if not close:
        hint = own.unknown(word, source_line=cl.raw, span=exc.span).hint or START_HINT
    return InvalidOrder(
        f"unknown order '{word}'",
        source_line=cl.raw,
        span=Span(cl.number, cl.column(0), cl.column(len(word))),
        hint=hint,
    )

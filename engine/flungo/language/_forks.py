"""Two readings of one part of a line, carried through the rewording to the end.

A pass that finds a part of a line which reads two ways ("150/3" as a condition: the third
wicket falling at 150 or less, or the score reaching 150 with three or fewer down) writes
both, marked; :func:`forked` makes one whole line of each, and the reader shows both and
acts on neither (as for an idiom between two styles).
"""

from __future__ import annotations

from collections.abc import Iterable

_OPEN, _OR, _CLOSE = "\x1e", "\x1f", "\x1d"


def fork(*readings: str) -> str:
    """A part of a line that reads as each of ``readings``."""
    return f"{_OPEN}{_OR.join(readings)}{_CLOSE}"


def forked(texts: Iterable[str]) -> list[str]:
    """Every text with each marked part read each way (the first fork of each text)."""
    out: list[str] = []
    for text in texts:
        start = text.find(_OPEN)
        end = text.find(_CLOSE, start)
        if start < 0 or end < 0:
            out.append(text.replace(_OPEN, "").replace(_OR, "").replace(_CLOSE, ""))
            continue
        head, tail = text[:start], text[end + 1 :]
        out += forked(head + part + tail for part in text[start + 1 : end].split(_OR))
    return out

"""Trying a line against the canonical grammar: its parse, forgiving a near miss of a name,
and the parse error made only for a line that is reported."""

from __future__ import annotations

from typing import Any

from engine.errors import InvalidOrder
from engine.flungo.language._drafts import NumberError
from engine.flungo.language._grammar import parse_line
from engine.flungo.language._lines import CleanLine, mask_near_miss
from engine.flungo.language._transform import read_line

__all__ = ["Unparsed", "forgiving_parse", "parse", "said_or_raise"]


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

"""Case-blind patterns looked for cheaply in plain text.

``re``'s IGNORECASE search of a list of words tries every word at every place with each
character case-folded, and cannot skip ahead to where a word might start as a case-sensitive
search does: on a line of a mail it costs ten times what searching the line in lower case
costs. For ASCII text (and the private-use characters that stand for masked names, which
have no case) the two are the same search: a character matches a letter of the pattern
case-blind exactly when its lower case is that letter, place for place (``str.lower`` keeps
every ASCII character where it is). The characters that fold otherwise ("ſ" is "s" to
``re``, "İ" is "i", "K" the Kelvin sign is "k") are not ASCII, so any other text is searched
case-blind as before.
"""

from __future__ import annotations

import re

__all__ = ["Caseless"]

# what is neither ASCII nor a masked name's private-use character
_NOT_PLAIN = re.compile(r"[^\x00-\x7f\ue000-\ue8ff]")
# a letter of the pattern itself, outside an escape ("\W", "\S" keep their case)
_PATTERN_LETTER = re.compile(r"\\.|([A-Z])")


class Caseless:
    """A pattern written in lower case, looked for case-blind: :meth:`found` says whether
    ``re.search(pattern, text, re.IGNORECASE)`` finds it, at the cost of a case-sensitive
    search where the text is plain."""

    __slots__ = ("blind", "lower")

    def __init__(self, blind: re.Pattern[str]) -> None:
        if not blind.flags & re.IGNORECASE or any(
            m.group(1) for m in _PATTERN_LETTER.finditer(blind.pattern)
        ):
            raise ValueError("a case-blind pattern written in lower case")
        self.blind = blind
        self.lower = re.compile(blind.pattern, blind.flags & ~re.IGNORECASE)

    def found(self, text: str) -> bool:
        """Whether the case-blind pattern is somewhere in ``text``."""
        if text.isascii() or _NOT_PLAIN.search(text) is None:  # (isascii: no search)
            return self.lower.search(text.lower()) is not None
        return self.blind.search(text) is not None

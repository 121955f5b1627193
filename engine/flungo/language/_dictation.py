"""What voice typing writes for the orders' words, read as those words and said.

A dictation engine writes the commoner of two words that sound alike: "for overs" for
"four overs", "fore" for "four", and a name it does not know as the
English words it sounds like ("flint off" for Flintoff). The data is the lexicon's
``[dictation]`` section (its sources are there); the name rule is here: two words that
together are one squad member's name word, six letters or more, are that name.
"""

from __future__ import annotations

import importlib.resources
import itertools
import re
import tomllib

from engine.flungo.language._caseless import Caseless
from engine.flungo.language._reader import kept

__all__ = ["heard"]


def _load() -> tuple[dict[str, str], dict[str, str]]:
    text = importlib.resources.files(__package__).joinpath("lexicon.toml").read_text("utf-8")
    section = tomllib.loads(text)["dictation"]
    return dict(section["numbers"]), dict(section["anywhere"])


# Constants of the package, read at import like the lexicon (_meaning), never changed.
_NUMBERS, _ANYWHERE = _load()
# overs alone: "for wickets", "for runs", "won over" are English ("bowl for wickets")
_UNIT = r"(?:overs|ovs)"
_BEFORE_UNIT = re.compile(
    r"(?<![\w'])(" + "|".join(sorted(_NUMBERS)) + rf")(?=\s+{_UNIT}(?![\w'])(?!\s*\d))",
    re.IGNORECASE,
)
_PHRASE = re.compile(
    r"(?<![\w'])("
    + "|".join(re.escape(p) for p in sorted(_ANYWHERE, key=len, reverse=True))
    + r")(?![\w'])",
    re.IGNORECASE,
)

_BEFORE_UNIT_FOUND, _PHRASE_FOUND = Caseless(_BEFORE_UNIT), Caseless(_PHRASE)

_WORDS = re.compile(r"[^\W\d_]+")


@kept(maxsize=64)
def _name_words(names: tuple[str, ...]) -> dict[str, str]:
    """The name words of ``names`` of six letters or more, by their lower case."""
    return {w.lower(): w for n in names for w in n.split() if len(w) >= 6}


def heard(
    text: str, names: tuple[str, ...], *, pairs: bool = True
) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with what dictation wrote for the orders' words put right (``names``: the
    squad's; ``pairs``: whether a name said as two words may be there), and each change
    (as written, as read)."""
    said: list[tuple[str, str]] = []

    def put(m: re.Match[str], new: str) -> str:
        said.append((m[0], new))
        return new

    low = text.lower()
    if ("overs" in low or "ovs" in low) and _BEFORE_UNIT_FOUND.found(text):
        text = _BEFORE_UNIT.sub(lambda m: put(m, _NUMBERS[m[1].lower()]), text)
    if _PHRASE_FOUND.found(text):  # (most lines have none: the look costs less than the sub)
        text = _PHRASE.sub(lambda m: put(m, _ANYWHERE[" ".join(m[1].lower().split())]), text)
    words = _name_words(names) if pairs else {}
    if words:
        found = list(_WORDS.finditer(text))
        split = [
            (one, two)
            for one, two in itertools.pairwise(found)
            if (one[0] + two[0]).lower() in words and text[one.end() : two.start()].isspace()
        ]
        for one, two in reversed(split):  # from the end, so that earlier places stand
            whole = words[(one[0] + two[0]).lower()]
            said.insert(0, (text[one.start() : two.end()], whole))
            text = text[: one.start()] + whole + text[two.end() :]
    return text, said

"""What voice typing writes for the orders' words, read as those words and said.

A dictation engine writes the commoner of two words that sound alike: "for overs" for
"four overs", "fore" for "four", and a name it does not know as the
English words it sounds like ("flint off" for Flintoff). The data is the lexicon's
``[dictation]`` section (its sources are there); the name rule is here: two words that
together are one squad member's name word, six letters or more, are that name.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
import tomllib

from engine.flungo.language._names import NameBook

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


@functools.cache
def _split_names(names: tuple[str, ...]) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """A pattern for the name words of ``names`` (six letters or more) said as two words."""
    words = {w.lower(): w for n in names for w in n.split() if len(w) >= 6}
    if not words:
        return None
    splits = [
        rf"{re.escape(w[:i])}\s+{re.escape(w[i:])}" for w in words for i in range(2, len(w) - 1)
    ]
    return re.compile(r"(?<![\w'])(?:" + "|".join(splits) + r")(?![\w'])", re.IGNORECASE), words


def heard(text: str, own: NameBook) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with what dictation wrote for the orders' words put right, and each change
    (as written, as read)."""
    said: list[tuple[str, str]] = []

    def put(m: re.Match[str], new: str) -> str:
        said.append((m[0], new))
        return new

    if any(c in text.lower() for c in ("for", "to", "won", "ate")):
        text = _BEFORE_UNIT.sub(lambda m: put(m, _NUMBERS[m[1].lower()]), text)
    text = _PHRASE.sub(lambda m: put(m, _ANYWHERE[" ".join(m[1].lower().split())]), text)
    split = _split_names(own.names)
    if split is not None:
        pattern, words = split
        text = pattern.sub(lambda m: put(m, words["".join(m[0].lower().split())]), text)
    return text, said

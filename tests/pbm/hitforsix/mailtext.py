"""Reading a Hit for Six mail as a player does: the answers it prints, its game line."""

from __future__ import annotations

import re

__all__ = ["GAME_RE", "examples_of", "game_line_of"]

GAME_RE = re.compile(r"^H6GAME .*$", re.MULTILINE)
_PHRASES = ("one of these answers under it", "Answers this window takes",
            "Every answer for an over carries")  # fmt: skip
# A phrase may be wrapped across lines, so its spaces match any white space.
_INTRO = re.compile(
    "(?:" + "|".join(r"\s+".join(map(re.escape, p.split())) for p in _PHRASES) + r")[^\n]*\n",
    re.IGNORECASE,
)


def examples_of(text: str) -> list[str]:
    """Every answer the mail prints to send back: the indented lines of each block that a
    sentence introduces as answers, as written (the TEST line kept when the block has one)."""
    found: list[str] = []
    for intro in _INTRO.finditer(text):
        block = text[intro.end() :].lstrip("\n").split("\n\n", 1)[0]
        found += [ln[4:] for ln in block.split("\n") if ln.startswith("    ")]
    return found


def game_line_of(text: str) -> str:
    """The mail's H6GAME line."""
    found = GAME_RE.search(text)
    assert found, text
    return found.group(0)

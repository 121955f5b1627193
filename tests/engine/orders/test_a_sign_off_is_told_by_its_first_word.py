"""A line signs a mail off by its first word ("Thanks,", "Cheers Dave"): the reader looks
at that word before splitting the whole line, and decides as the whole line's words say."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from engine.flungo.language._lines import (
    _SIGN_OFF_LONGEST,
    _SIGN_OFF_SPLIT,
    SIGN_OFF_WORDS,
    is_sign_off,
)

_PIECES = st.sampled_from(
    [*sorted(SIGN_OFF_WORDS), "Thanks", "CHEERS", "root", "hi", "gm", "İ", "-", "--", "—"]
)
_GAPS = st.sampled_from(["", " ", ", ", "! ", ".", ":", ";  ", "\t", ",,"])
_LINES = st.lists(st.tuples(_GAPS, _PIECES), max_size=9).map(
    lambda parts: "".join(g + p for g, p in parts)
)


def _whole_line(raw: str, names: Callable[[str], bool] | None) -> bool:
    """The rule as the docstring gives it, every word of the line split first."""
    text = raw.strip()
    if text in ("--", "-- ", "—"):
        return True
    words = [w for w in _SIGN_OFF_SPLIT.split(text.lower()) if w]
    if not words or words[0] not in SIGN_OFF_WORDS:
        return False
    return len(words) <= _SIGN_OFF_LONGEST or names is None or not names(text)


@given(_LINES, st.sampled_from([None, True, False]))
def test_a_sign_off_is_what_the_whole_lines_words_say(raw: str, named: bool | None) -> None:
    """Any line, with or without a squad name in it: the same answer."""
    names = None if named is None else (lambda _: named)
    assert is_sign_off(raw, names) == _whole_line(raw, names)


def test_a_long_thanks_that_names_a_player_is_no_sign_off() -> None:
    """'Thanks GM, and please Freddie stays captain' goes on to say something."""
    line = "Thanks GM, and please Freddie stays captain"
    assert not is_sign_off(line, lambda _: True)
    assert is_sign_off("Cheers, Dave Smith", lambda _: True)
    assert not is_sign_off("Root bats at 3, thanks")

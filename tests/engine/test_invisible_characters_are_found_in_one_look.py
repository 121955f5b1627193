"""A name's invisible characters (Default_Ignorable_Code_Point) are found by one search of
the text, and an ASCII name, as most are, is known to have none without a search: the
characters found are those a look at each character in turn finds, in order, each once."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from engine.lookalike import invisible, is_invisible

# some of the characters that show as nothing, among letters and spaces
_HIDDEN = "\u200b\u200c\u200d\u2060\ufe0f\u00ad\u034f\u115f\u3164\U000e0001"
_MIXED = st.text(alphabet=st.sampled_from(_HIDDEN) | st.characters(), max_size=30)


def _one_by_one(text: str) -> list[str]:
    return list(dict.fromkeys(ch for ch in text if is_invisible(ch)))


@given(_MIXED)
def test_the_invisible_characters_are_those_each_character_says(text: str) -> None:
    """Any text: the same characters, in the same order, each once."""
    assert invisible(text) == _one_by_one(text)


@given(st.text(alphabet=string.printable, max_size=40))
def test_an_ascii_name_has_no_invisible_character(text: str) -> None:
    """No ASCII character shows as nothing (the short way for an ASCII name)."""
    assert invisible(text) == [] == _one_by_one(text)


def test_a_name_with_a_hidden_joiner_is_caught() -> None:
    """A zero-width joiner inside a name is found, once, however often it is there."""
    assert invisible("Ro\u200dot Ro\u200dot") == ["\u200d"]

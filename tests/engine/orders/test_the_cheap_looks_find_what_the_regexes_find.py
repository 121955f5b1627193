"""The reader's cheap looks find what the regexes they stand for find: a case-blind pattern
(``_caseless.Caseless``) where ``re``'s IGNORECASE search does, in plain text by its lower
case, in any other text (the letters that fold otherwise: long s, dotted and dotless i, the
Kelvin sign) as before; a line's end stripped as ``_END`` stripped it."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.flungo.language._caseless import Caseless
from engine.flungo.language._chatter import _NUMBER_WORDS
from engine.flungo.language._dictation import _BEFORE_UNIT, _PHRASE
from engine.flungo.language._lines import _END, strip_end
from engine.flungo.language._unknown import _THEIR_CONDITION
from engine.flungo.language._xi_changes import _HINT, _HINT_KEYS

_PATTERNS = [_HINT_KEYS, _HINT, _THEIR_CONDITION, _BEFORE_UNIT, _PHRASE, _NUMBER_WORDS]
_WORDS = [
    "for",
    "FOR",
    "Replaced",
    "out",
    "OUT",
    "left  out",
    "when",
    "If",
    "THEY",
    "they're",
    "them",
    "as soon as",
    "fore",
    "Fore",
    "to",
    "overs",
    "OVERS",
    "ovs",
    "rest",
    "instead",
    "seven",
    "Twenty-one",
    "often",
    "a hundred",
    "ſ",
    "İ",
    "ı",
    "K",
    "ß",
    "’",
    "'",
    "\ue100",
    "\ue000",
    " ",
    ",",
    "4",
    "x",
    "á",
]


@given(st.lists(st.sampled_from(_WORDS), max_size=12), st.sampled_from(_PATTERNS))
def test_a_look_finds_what_the_case_blind_search_finds(
    words: list[str], blind: re.Pattern[str]
) -> None:
    """Lines made of the patterns' words in any case, with plain and other characters
    between, are found by the cheap look exactly where the case-blind search finds them."""
    for sep in ("", " "):
        text = sep.join(words)
        assert Caseless(blind).found(text) == (blind.search(text) is not None), text


def test_the_letters_that_fold_otherwise_are_found_as_re_finds_them() -> None:
    """'ſ' is 's' and 'İ' is 'i' to a case-blind search but not to str.lower: such a line
    is searched case-blind, and found."""
    look = Caseless(_HINT_KEYS)
    assert _HINT_KEYS.search("reſt") is not None and look.found("reſt")
    assert _HINT_KEYS.search("İnstead") is not None and look.found("İnstead")
    assert not look.found("Root aggressive") and not look.found("")


def test_a_pattern_with_a_capital_letter_is_refused() -> None:
    """A pattern with a capital outside an escape would not be found in lower case: refused
    when it is made (escapes such as \\W keep their case)."""
    with pytest.raises(ValueError):
        Caseless(re.compile(r"Root\W", re.I))
    with pytest.raises(ValueError):
        Caseless(re.compile(r"root"))  # not case-blind at all
    assert Caseless(re.compile(r"root\W", re.I)).found("ROOT!")


@given(
    st.text(
        alphabet=st.sampled_from(list("ab .!,\t\xa0\u2003\u3000")) | st.characters(), max_size=30
    )
)
def test_a_lines_end_is_stripped_as_the_regex_strips_it(text: str) -> None:
    """A line's final stops, exclamation marks and blanks of any kind (no-break, em and
    ideographic spaces too) go as ``_END``'s substitution took them, and nothing more."""
    assert strip_end(text) == _END.sub("", text)

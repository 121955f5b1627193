"""Name masking: the regex-free search for plain ASCII names finds exactly what the names'
regexes find, so the fast path changes no reading."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.flungo.language._lines import (
    _literal_whole,
    _mask,
    _mask_plan,
    _name_regex,
    _phrase_whole,
    _whole,
    single_spaced,
)
from engine.flungo.language._names import strip_marks

#: Letters and the characters that sit next to names in orders: spaces of several kinds
#: (what ``\s`` matches), digits, punctuation, an underscore, the masking tokens.
_ALPHABET = "abAB kK\t\n\x0b\x1c_1,-.'&\ue000\ue101"
_WORDS = st.text(alphabet="abAB'.-1", min_size=1, max_size=3)


@pytest.mark.slow
@settings(max_examples=3000)
@given(
    words=st.lists(_WORDS, min_size=1, max_size=3),
    text=st.text(alphabet=_ALPHABET, max_size=30),
)
def test_the_literal_search_finds_what_the_regex_finds(words: list[str], text: str) -> None:
    """For any plain name and any line, the literal search's spans are the regex's spans
    (leftmost first, whole words only, any whitespace run between the words, any case)."""
    name = " ".join(words)
    regex = [m.span() for m in _whole(_name_regex(name), text)]
    assert _literal_whole(tuple(w.lower() for w in words), text.lower()) == regex


@pytest.mark.slow
@settings(max_examples=3000)
@given(
    words=st.lists(_WORDS, min_size=1, max_size=3),
    text=st.text(alphabet="abAB k_1,-.'&\ue000\ue101", max_size=30),
)
def test_the_phrase_search_finds_what_the_literal_search_finds(words: list[str], text: str) -> None:
    """On a line whose words are one space apart, looking for the name's words joined by a
    space finds the spans the word-by-word search finds."""
    lower = re.sub(" +", " ", text.lower())
    assert single_spaced(lower)
    plain = tuple(w.lower() for w in words)
    assert _phrase_whole(" ".join(plain), lower) == _literal_whole(plain, lower)


def test_single_spaced() -> None:
    assert single_spaced("xi: joe root, ben stokes")
    assert not single_spaced("xi: joe  root")
    assert not single_spaced("xi: joe\troot")
    assert not single_spaced("xi:\x1cjoe root")


def test_names_with_and_or_accents_keep_the_regex() -> None:
    """ "and"/"&" (which stand for each other) and accented names are not plain: the plan
    gives them no literal words, so they are still matched by their regex."""
    plan = {
        name: words
        for _, name, _, _, words, _ in _mask_plan(
            ("Ant and Dec", "Beyoncé X", "Иван Петров", "Joe Root")
        )
    }
    assert plan == {
        "Ant and Dec": None,
        "Beyoncé X": ("beyonce", "x"),
        "Иван Петров": None,
        "Joe Root": ("joe", "root"),
    }


def test_masking_a_line_of_plain_names() -> None:
    """A line naming squad members in any case and spacing is masked name by name, longest
    first, with neighbouring words left alone."""
    names = ["Joe Root", "Joe Root Jr", "Ben  Stokes"]
    masked, found = _mask("XI: joe   ROOT jr, Ben Stokes, Joe Roots, Joe Root", names)
    assert found == {1: "Joe Root Jr", 2: "Ben  Stokes", 0: "Joe Root"}
    assert masked.count("\ue101") == 1 and masked.count("\ue102") == 1
    assert masked.count("\ue100") == 1 and "Joe Roots" in masked
    assert len(masked) == len("XI: joe   ROOT jr, Ben Stokes, Joe Roots, Joe Root")


def _mask_by_regex(text: str, names: list[str]) -> tuple[str, dict[int, str]]:
    """Masking as its docstring says, each name by its regex on the text without accents
    (what the fast paths of ``_mask`` must find)."""
    found: dict[int, str] = {}
    for i, name, bare, _, _, _ in _mask_plan(tuple(names)):
        spans = [m.span() for m in _whole(_name_regex(bare), strip_marks(text))]
        if spans:
            found[i] = name
        for start, end in reversed(spans):
            text = text[:start] + chr(0xE100 + i) + "\ue000" * (end - start - 1) + text[end:]
    return text, found


_NAME_WORDS = st.text(alphabet="abAé'.-1", min_size=1, max_size=3)


@pytest.mark.slow
@settings(max_examples=2000)
@given(
    names=st.lists(
        st.lists(st.one_of(_NAME_WORDS, st.just("and")), min_size=1, max_size=3).map(" ".join),
        min_size=1,
        max_size=4,
    ),
    text=st.text(alphabet="abAé kK\t_1,-.'&\ue000", max_size=40),
)
def test_masking_finds_what_the_regexes_find(names: list[str], text: str) -> None:
    """Whatever the names and the line (accents, "and", odd spacing), masking gives what
    masking each name by its regex gives, longest name first."""
    assert _mask(text, names) == _mask_by_regex(text, names)

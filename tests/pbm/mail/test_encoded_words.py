"""The linear encoded-word split writes what the email package's own split writes."""

from __future__ import annotations

from email.header import Header, decode_header, make_header

from hypothesis import given, settings
from hypothesis import strategies as st

from pbm.mail.encoded_words import UTF8

#: Mostly the letters players' names and teams are made of, with accents, CJK, emoji and spaces.
_TEXT = st.text(
    alphabet=st.sampled_from("abcXYZ019 -:=?_é€ü—漢字😀\u00a0'\""),
    min_size=0,
    max_size=200,
) | st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=120)


def _both(text: str, maxlinelen: int, name_len: int) -> tuple[str, str]:
    ours = Header(text, UTF8, header_name="X" * name_len).encode("\n", maxlinelen=maxlinelen)
    theirs = Header(text, "utf-8", header_name="X" * name_len).encode("\n", maxlinelen=maxlinelen)
    return ours, theirs


@settings(max_examples=400, deadline=None)
@given(_TEXT, st.sampled_from([0, 20, 40, 76, 78, 998]), st.integers(min_value=0, max_value=30))
def test_the_split_is_the_packages_byte_for_byte(text: str, maxlinelen: int, name_len: int) -> None:
    """For any text, line length and header name, the encoded header is the package's."""
    ours, theirs = _both(text, maxlinelen, name_len)
    assert ours == theirs


def test_a_long_accented_subject_is_split_into_words_the_package_would_write() -> None:
    """A subject too long for one line is folded into several encoded-words, as the package
    folds it, each line within 78 characters."""
    text = "Welcome to the Flüngo Summer League 2027: you are the Gungeworth Gloopers — good luck"
    ours, theirs = _both(text, 78, len("Subject"))
    assert ours == theirs
    assert ours.count("\n") >= 1
    assert all(len(line) <= 78 for line in ours.splitlines())
    assert str(make_header(decode_header(ours))) == text


def test_b_is_chosen_where_it_is_shorter() -> None:
    """Text that is mostly non-Latin is written as B words, mostly-ASCII text as Q words: the
    package's 'shortest' choice is kept."""
    assert "?b?" in _both("漢字漢字漢字", 78, 7)[0]
    assert "?q?" in _both("Flüngo", 78, 7)[0]

"""A squad member written as cricket writes him (a nickname, a spelling variant, a capitalised
name one letter off) is read as him and said; an English word never is
(docs/rules/orders-unknown-words.md, "Nicknames and spelling variants of a name")."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from tests.engine.orders.squad import read

FIFTY = FORMATS[Format.FIFTY]


# Written for this test in the style of the class, not taken from the corpus.
@pytest.mark.parametrize(
    ("line", "canonical", "word", "name"),
    [
        ("Warnie bats wahoo", "Shane Warne bats wahoo", "warnie", "Shane Warne"),
        ("Stokesy bats aggressive", "Ben Stokes bats aggressive", "stokesy", "Ben Stokes"),
        ("Greeny bats normal", "Green bats normal", "greeny", "Green"),
        (
            "Flinty bowls overs 2, 4, 6",
            "Freddie Flintoff bowls overs 2, 4, 6",
            "flinty",
            "Freddie Flintoff",
        ),
        ("captain: Rooty", "captain: Joe Root", "rooty", "Joe Root"),
        ("Jonesy bats defensive", "Jones bats defensive", "jonesy", "Jones"),
        ("gray bats normal", "Grey bats normal", "gray", "Grey"),
        (
            "when 8 down: Grey and Taylar bat defensive",
            "when 8 down: Grey and Taylor bat defensive",
            "taylar",
            "Taylor",
        ),
        (
            "after 30 overs: Green and Whyte bat aggressive",
            "after 30 overs: Green and White bat aggressive",
            "whyte",
            "White",
        ),
        (
            "after 20 overs: Root and Stoen bat normal",
            "after 20 overs: Root and Stone bat normal",
            "stoen",
            "Stone",
        ),
    ],
)
def test_a_squad_member_written_otherwise_is_read_and_said(
    line: str, canonical: str, word: str, name: str
) -> None:
    """The line reads as it would with the name, with a note naming what was read as whom."""
    got = read(line)
    assert not got.errors, got.errors
    assert got.orders == read(canonical).orders
    assert (1, f"read '{word}' as '{name}'") in [(n.line, n.text) for n in got.notes]


@pytest.mark.parametrize(
    "line",
    [
        "Block him out, Root defensive",  # "Block" one letter off Black, but a sentence's capital
        "Smithy bats aggressive",  # two Smiths: no guess
        "Root bats normal, stony ground",  # "stony" small: an English adjective, not Stone
        "Taylar bats defensive",  # one letter off, but the capital may be the sentence's
        "after 20 overs: Root and Stane bat normal",  # one letter off Stone and Shane: no guess
    ],
)
def test_no_english_word_and_no_doubtful_name_is_read_as_a_squad_member(line: str) -> None:
    """A capital at a sentence's start, a small letter on a nickname's shape, or a nickname
    two squad members share makes no squad member of a word."""
    got = read(line)
    assert not any("' as '" in n.text for n in got.notes), got.notes

"""A plain typo pbm is sure of is read as its word and said; an idiom's verb is read in its
inflected forms (docs/rules/orders-unknown-words.md, "Typos and inflections")."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language._inflect import inflected
from engine.flungo.language._meaning import lexicon
from engine.flungo.language._typos import one_edit
from tests.engine.orders.squad import read

FIFTY = FORMATS[Format.FIFTY]


@pytest.mark.parametrize(
    ("line", "canonical", "typo", "word"),
    [
        (
            "after 10 ovres all batsmen aggressive",
            "after 10 overs: all batsmen aggressive",
            "ovres",
            "overs",
        ),
        (
            "after 10 oevrs all batsmen aggressive",
            "after 10 overs: all batsmen aggressive",
            "oevrs",
            "overs",
        ),
        ("captian: Root", "captain: Root", "captian", "captain"),
        ("Root bats normel", "Root bats normal", "normel", "normal"),
    ],
)
def test_a_sure_typo_is_read_as_its_word_and_said(
    line: str, canonical: str, typo: str, word: str
) -> None:
    """A word one edit from exactly one order word reads as that word, with a note on its
    line (no error), and the echo (the corrected canonical line) reads back to itself."""
    got = read(line)
    assert not got.errors and not got.not_understood, got.errors
    assert got.orders == read(canonical).orders
    assert [(n.line, n.text) for n in got.notes] == [(1, f"read '{typo}' as '{word}'")]
    again = read(got.echo_text())
    assert again.echo_text() == got.echo_text() and not again.notes and not again.errors


def test_a_typo_one_edit_from_two_words_is_refused_naming_both() -> None:
    """'bals' is one edit from 'ball' and from 'balls': never a guess; the refusal names both
    and nothing of the line is acted on."""
    got = read("Warne bowls 6 bals")
    assert got.errors and not got.notes
    assert "'ball' or 'balls'" in (got.errors[0].hint or "")
    assert got.orders == read("").orders


@pytest.mark.parametrize(
    "line",
    [
        "after 20 overs if 3 wicketts down all batsmen defensive",  # inside a condition
        "Root aggressive, not ovres 5",  # after a negation
    ],
)
def test_a_typo_in_a_guarded_spot_keeps_its_refusal(line: str) -> None:
    """A typo inside a condition or after a negation is not put right: the line is refused
    as before, with "did you mean", and nothing is noted as read."""
    got = read(line)
    assert got.errors and not got.notes


def test_a_typo_near_a_name_is_not_corrected_to_an_order_word() -> None:
    """'Stoks' is near Ben Stokes (and one edit from 'stops' or so): the name's own "did you
    mean" answers, never an order word."""
    got = read("Stoks bats aggressive")
    assert not got.notes
    assert "Ben Stokes" in (got.errors[0].hint or "")


@pytest.mark.parametrize("line", ["Great win everyone!", "Nice one team", "Cheers, bowl them out"])
def test_chatter_stays_free(line: str) -> None:
    """A line of chatter is not read as a typo of an order: no note, no error."""
    got = read(line)
    assert not got.errors and not got.notes


@pytest.mark.parametrize(
    ("line", "style"),
    [
        ("Root tonks it", "aggressive"),
        ("Root tonking", "aggressive"),
        ("Root tonked him", "aggressive"),
        ("Stokes slogged", "wahoo"),
        ("Root nurdling", "normal"),
        ("Root stonewalling", "defensive"),
    ],
)
def test_an_idiom_is_read_in_its_verb_s_inflected_forms(line: str, style: str) -> None:
    """An inflected form of a lexicon idiom's verb reads as the idiom's style, without a
    note: it is the idiom, not a typo."""
    got = read(line)
    assert not got.errors and not got.notes
    assert got.echo_text().endswith(f"bats {style}")


def test_inflections_are_made_from_the_entry_and_an_entry_may_opt_out() -> None:
    """The forms are made by rule (-s/-es, -ed, -ing, the consonant doubled, a final e
    dropped); a word listed as no verb gets none; every form made is in the lexicon."""
    assert inflected("slog", frozenset()) == ("slogs", "slogged", "slogging")
    assert inflected("nurdle it around", frozenset()) == (
        "nurdles it around",
        "nurdled it around",
        "nurdling it around",
    )
    assert inflected("smash", frozenset()) == ("smashes", "smashed", "smashing")
    assert inflected("careful", frozenset({"careful"})) == ()
    assert "carefuls" not in lexicon().styles and "tonked him" in lexicon().styles


@pytest.mark.parametrize(
    ("a", "b", "one"),
    [
        ("ovrs", "overs", True),
        ("oevrs", "overs", True),
        ("overz", "overs", True),
        ("overss", "overs", True),
        ("ovres", "overs", True),
        ("voers", "overs", True),
        ("ovesr", "overs", True),
        ("oves", "overs", True),
        ("overs", "overs", False),
        ("ovesrr", "overs", False),
        ("veros", "overs", False),
    ],
)
def test_one_edit_is_damerau(a: str, b: str, one: bool) -> None:
    """One insert, delete, substitution or swap of neighbours; not none, not two."""
    assert one_edit(a, b) is one

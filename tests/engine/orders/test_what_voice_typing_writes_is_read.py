"""What voice typing writes for an order's word (a number's homophone before "overs", "fore",
a name said as two English words) is read as that word and said; English stays English
(docs/rules/orders-unknown-words.md, "What voice typing writes")."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from tests.engine.orders.squad import read

FIFTY = FORMATS[Format.FIFTY]


# Written for this test in the style of the class, not taken from the corpus.
@pytest.mark.parametrize(
    ("line", "canonical", "heard", "word"),
    [
        ("after for overs Root aggressive", "after 4 overs: Root aggressive", "for", "four"),
        ("after to overs Stokes normal", "after 2 overs: Stokes normal", "to", "two"),
        ("after ate overs all batsmen normal", "after 8 overs: all batsmen normal", "ate", "eight"),
        (
            "when fore down all batsmen defensive",
            "when 4 down: all batsmen defensive",
            "fore",
            "four",
        ),
        ("flint off bats wahoo", "Freddie Flintoff bats wahoo", "flint off", "Flintoff"),
        ("ander son bats defensive", "Jimmy Anderson bats defensive", "ander son", "Anderson"),
        ("captain: Wil son", "captain: Wilson", "Wil son", "Wilson"),
    ],
)
def test_what_dictation_wrote_is_read_as_the_word_and_said(
    line: str, canonical: str, heard: str, word: str
) -> None:
    """The line reads as the word would, with a note naming what was heard as what."""
    got = read(line)
    assert not got.errors, got.errors
    assert got.orders == read(canonical).orders
    assert (1, f"read '{heard}' as '{word}'") in [(n.line, n.text) for n in got.notes]


@pytest.mark.parametrize(
    "line",
    [
        "Stone to bowl for 10 overs",  # a number after the unit: "for" is English here
        "Root goes for runs, aggressive",  # "go for runs": not "four runs"
        "Warne bowls for wickets, overs 1-5",  # "for wickets" is English
    ],
)
def test_english_homophones_stay_english(line: str) -> None:
    """A homophone away from "overs", or before "overs" and a number, is left as written."""
    got = read(line)
    assert not any(" as 'four'" in n.text or " as 'two'" in n.text for n in got.notes), got.notes

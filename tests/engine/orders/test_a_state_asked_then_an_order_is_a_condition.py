"""A note's condition closed by a question mark ("2 down in the pp? all normal") reads as the
arrow's condition would; a question proper is left alone (docs/rules/orders-shorthand.md)."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from tests.engine.orders.squad import read

FIFTY = FORMATS[Format.FIFTY]


# Written for this test in the style of the class, not taken from the corpus.
@pytest.mark.parametrize(
    ("line", "arrow"),
    [
        ("4 down before 20 ov? everyone normal", "4 down before 20 ov -> everyone normal"),
        ("Stokes out? Root defensive", "Stokes out -> Root defensive"),
        ("2 wkts in the pp? everyone normal", "2 wkts in the pp -> everyone normal"),
        ("7 down?? tail wahoo", "7 down -> tail wahoo"),
        ("RRR > 8? all aggressive", "RRR > 8 -> all aggressive"),
    ],
)
def test_a_state_then_a_question_mark_is_the_arrows_condition(line: str, arrow: str) -> None:
    """The question mark closes the condition as '->' does: the same orders, no error."""
    got, want = read(line), read(arrow)
    assert not want.errors, want.errors
    assert not got.errors, got.errors
    assert got.orders == want.orders


@pytest.mark.parametrize(
    "line",
    ["can Root bat at 3? thanks", "is Rock fit yet? Root bats normal", "what if 3 down? ta"],
)
def test_a_question_proper_makes_no_condition(line: str) -> None:
    """A question starting with an auxiliary or a wh-word is not a condition: no conditional
    order is read from it."""
    got = read(line)
    assert got.orders.match is None or not got.orders.match.rules, got.orders

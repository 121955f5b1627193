"""Silent misreads found on main (issue 24, idioms): each now reads right, asks, or refuses.

A wrong reading is worse than a refusal. The lines are written for this test in the style of
each form (scores, comparisons, symbols), not taken from the corpus; the decisions are in
docs/rules/orders-idioms.md.
"""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from tests.engine.orders.test_cricket_glossary_in_orders import read, reads_exactly

FIFTY = FORMATS[Format.FIFTY]


def acts_on_nothing(text: str) -> None:
    """``text`` has an error or a question, and nothing of it is acted on."""
    got = read(text)
    assert got.errors or got.not_understood, got.echo_text()
    assert got.orders == read("").orders


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Root 3 with Stokes", "with Stokes"),
        ("Root 3 w/ Stokes", "w/ Stokes"),
        ("Warne 1, 3, 5 with Anderson", "with Anderson"),
        ("Anderson overs 2 and 4 w/ Stone", "w/ Stone"),
    ],
)
def test_a_name_joined_to_numbers_is_never_dropped(text: str, words: str) -> None:
    """A squad member joined to overs already given ("3 with Stokes") may share them: the
    line is refused with the words named and what pbm reads without them, never read as the
    first bowler's overs alone."""
    got = read(text)
    assert any(f"'{words}'" in e.message for e in got.errors), [e.message for e in got.errors]
    assert any("without it, pbm reads" in (e.hint or "") for e in got.errors)
    acts_on_nothing(text)


def test_a_name_dropped_as_a_reference_is_noted() -> None:
    """A name the reading leaves out elsewhere in the line ("at the other end to Stone") is
    a reference: the reading stands, and the answer names what it was read without."""
    got = read("at the other end to Stone, Anderson bowls overs 28 and 32")
    assert got.errors == ()
    assert got.echo_text() == "Jimmy Anderson bowls overs 28, 32"
    assert any("Stone" in n.text for n in got.notes), got.notes


@pytest.mark.parametrize(
    ("text", "echo"),
    [
        ("score 150 -> all aggressive", "if score >= 150: all batsmen bat aggressive"),
        ("score 220 - everyone wahoo", "if score >= 220: all batsmen bat wahoo"),
        ("score >150 -> Root aggressive", "if score > 150: Joe Root bats aggressive"),
    ],
)
def test_a_score_on_an_arrow_is_reached(text: str, echo: str) -> None:
    """A score passes a value (runs come in ones to sixes): "score 150 ->" with no
    comparison is 150 or more; a comparison written stays as written."""
    reads_exactly(text, echo)


@pytest.mark.parametrize("text", ["150/3: defensive", "150 for 3 -> Root defensive"])
def test_a_bare_score_for_wickets_asks(text: str) -> None:
    """ "150/3" as a condition with no comparison and no time reads two ways (the third
    wicket falling at 150 or less; 150 reached with three or fewer down): both are shown."""
    got = read(text)
    assert got.errors == ()
    readings = [r for n in got.not_understood for r in n.readings]
    assert any(r.startswith("when the 3rd wicket falls, if score <= 150") for r in readings)
    assert any(r.startswith("when the score reaches 150, if wickets <= 3") for r in readings)
    assert got.orders == read("").orders


@pytest.mark.parametrize(
    ("text", "echo"),
    [
        (
            "150/3 or better: wahoo",
            "when the score reaches 150, if wickets <= 3: all batsmen bat wahoo",
        ),
        (
            "150/3 or worse: defensive",
            "when the 3rd wicket falls, if score <= 150: all batsmen bat defensive",
        ),
    ],
)
def test_better_and_worse_say_which_score(text: str, echo: str) -> None:
    """ "or better" is more runs for as few wickets (reached); "or worse" is the wicket
    falling with so few runs."""
    reads_exactly(text, echo)


@pytest.mark.parametrize(
    ("text", "echo"),
    [
        (
            "if there's 10 overs left, aggressive",
            "when 60 balls are left: all batsmen bat aggressive",
        ),
        ("if there are 5 overs left: Root wahoo", "when 30 balls are left: Joe Root bats wahoo"),
        (
            "if 10 overs left: all batsmen aggressive",
            "when 60 balls are left: all batsmen bat aggressive",
        ),
        ("if 8 overs remain, Stokes wahoo", "when 48 balls are left: Ben Stokes bats wahoo"),
        ("if at least 10 overs left, Root normal", "if balls left >= 60: Joe Root bats normal"),
        ("unless there are 8 overs left, Root normal", "if balls left > 48: Joe Root bats normal"),
        (
            "when we need 20, if there are 3 overs left, all wahoo",
            "when 20 runs are needed, if balls left >= 18: all batsmen bat wahoo",
        ),
    ],
)
def test_overs_left_is_the_moment(text: str, echo: str) -> None:
    """ "if there are N overs left" with no trigger of its own is the moment N remain (as
    "when" and "with" are); "at least" says the comparison; beside another trigger, it is a
    condition checked then (N or more left)."""
    reads_exactly(text, echo)


@pytest.mark.parametrize("text", ["name aggressive", "name: Root"])
def test_did_you_mean_never_names_the_word_itself(text: str) -> None:
    """A word of the orders out of place is not a misspelling of itself: no "did you mean
    'name'" for 'name'."""
    got = read(text)
    assert got.errors
    assert all("did you mean 'name'" not in (e.hint or "") for e in got.errors)


def test_the_toss_line_tells_what_it_passes_over() -> None:
    """ "toss: bat; unless the pitch is green": never the toss alone in silence. A clause
    that says when an order holds is no remark to pass over (docs/rules/
    orders-unknown-words.md), so the line is refused, and says why."""
    got = read("toss: bat; unless the pitch is green")
    assert got.errors and not got.echo_text()
    assert "unless the pitch is green" in got.errors[0].message
    assert got.errors[0].hint == "without it, pbm reads: toss: bat"


def test_every_name_dropped_is_named() -> None:
    """Two squad members the reading leaves out are both named on the line, not the first
    alone (the line is refused with both: docs/rules/orders-unknown-words.md, "Every name
    said")."""
    got = read("Root is captain and Wilson takes the gloves, we bowl first if we win the toss")
    said = " ".join([n.text for n in got.notes] + [e.message for e in got.errors])
    assert "Root" in said and "Wilson" in said, (got.echo_text(), said)


def test_an_order_of_its_own_left_out_is_named() -> None:
    """A word only an order of its own has ("toss") that the reading lacks is named on the
    line: "win the toss, bat; Stokes wahoo" never reads as Stokes alone in silence."""
    got = read("win the toss, bat; Stokes wahoo")
    assert "toss" in got.echo_text() or any("'toss'" in n.text for n in got.notes), got.notes

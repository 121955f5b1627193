"""Lines of several clauses that leave words out (issue 24, R2): coordination with ellipsis
as English grammar describes it (Quirk et al. 1985 ch. 13, §8.137; the Cambridge Grammar
ch. 15), read by filling in what the clauses share (engine/flungo/language/_ellipsis.py;
docs/rules/orders-several-wishes.md). The lines are fresh ones written for the mechanism,
not corpus lines: each reads to its canonical orders, says how it was read, or is refused
where the clauses do not pair or leave a batsman with two styles at once."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import canonical
from tests.engine.orders.squad import read

FIFTY = FORMATS[Format.FIFTY]


FILLED = [
    # "respectively": two lists paired one to one, a time anywhere being the whole line's
    (
        "Stokes and Flintoff aggressive and wahoo respectively",
        "Ben Stokes bats aggressive\nFreddie Flintoff bats wahoo",
    ),
    (
        "after 25 overs Root, Tom Smith and Wilson go normal, aggressive and wahoo respectively",
        "after 25 overs: Joe Root bats normal; Tom Smith bats aggressive; Wilson bats wahoo",
    ),
    (
        "Green and White go defensive and normal respectively once the 5th wicket falls",
        "when the 5th wicket falls: Green bats defensive; White bats normal",
    ),
    # conjuncts of sequence: the later clause starts where the earlier clause's span ends
    (
        "for the first 15 overs Root defensive and Stokes normal, thereafter both aggressive",
        "after 0 overs: Joe Root bats defensive; Ben Stokes bats normal; but after 15 overs:"
        " Joe Root and Ben Stokes bat aggressive",
    ),
    (
        "Tom Smith normal until the 30th over; after this wahoo",
        "after 0 balls: Tom Smith bats normal; but after 30 overs: Tom Smith bats wahoo",
    ),
    (
        "during the first 8 overs Green and Grey defensive, afterwards the pair of them normal",
        "after 0 overs: Green and Grey bat defensive; but after 8 overs: Green and Grey bat normal",
    ),
    (
        "Jones defensive until we reach 150, subsequently aggressive",
        "after 0 balls: Jones bats defensive; but when the score reaches 150: Jones bats"
        " aggressive",
    ),
    (
        "Root and Stokes defensive until over 20, finally both wahoo",
        "after 0 balls: Joe Root and Ben Stokes bat defensive; but after 20 overs: Joe Root and"
        " Ben Stokes bat wahoo",
    ),
    (
        "Green normal till 40 overs, later wahoo",
        "after 0 balls: Green bats normal; but after 40 overs: Green bats wahoo",
    ),
    (
        "for the first 12 overs Root, Stokes and Tom Smith defensive, then all three normal",
        "after 0 overs: Joe Root, Ben Stokes, Tom Smith bat defensive; but after 12 overs:"
        " Joe Root, Ben Stokes, Tom Smith bat normal",
    ),
    # "and then" is "then"
    (
        "Jones normal for the first 20 overs and then aggressive",
        "after 0 overs: Jones bats normal; but after 20 overs: Jones bats aggressive",
    ),
    (
        "when the 4th wicket falls Green goes defensive and then normal after 35 overs",
        "when the 4th wicket falls: Green bats defensive; but after 35 overs: Green bats normal",
    ),
    # a later clause with no subject and a time of its own: a second order, same batsman
    (
        "Root normal, then wahoo after 45 overs",
        "Joe Root bats normal\nafter 45 overs: Joe Root bats wahoo",
    ),
    (
        "Flintoff bats aggressive, then defensive when the 7th wicket falls",
        "Freddie Flintoff bats aggressive\nwhen the 7th wicket falls: Freddie Flintoff bats"
        " defensive",
    ),
    (
        "Tom Smith bats defensive and switches to aggressive when we pass 200",
        "Tom Smith bats defensive\nwhen the score reaches 200: Tom Smith bats aggressive",
    ),
    (
        "Stokes bats normal and goes wahoo after 40 overs",
        "Ben Stokes bats normal\nafter 40 overs: Ben Stokes bats wahoo",
    ),
    # a clause with a time of its own after one with a time: it follows it, for the same
    # batsman (on main the second was every batsman's)
    (
        "Wilson normal from the 21st over and wahoo from the 46th",
        "after 20 overs: Wilson bats normal; but after 45 overs: Wilson bats wahoo",
    ),
    (
        "Grey defensive, and once we pass 180 goes aggressive",
        "Grey bats defensive\nwhen the score reaches 180: Grey bats aggressive",
    ),
    (
        "after 20 overs Root defensive and Stokes normal, then both aggressive after 40 overs",
        "after 20 overs: Joe Root bats defensive; Ben Stokes bats normal; but after 40 overs:"
        " Joe Root and Ben Stokes bat aggressive",
    ),
    # a bowling plan's clauses share the bowler
    (
        "Anderson opens the bowling, then returns for overs 44, 46 and 48",
        "Jimmy Anderson bowls overs 1, 44, 46, 48",
    ),
    (
        "Anderson opens the bowling and bowls overs 44, 46 and 48",
        "Jimmy Anderson bowls overs 1, 44, 46, 48",
    ),
    (
        "Warne opens, bowls 1 to 5, then back for 45-50",
        "Shane Warne bowls overs 1, 3, 5, 45, 47, 49",
    ),
    # a state said once of two batsmen holds of each; "both" after a comma is those two
    (
        "if Green and Grey are still in after 45 overs, both wahoo",
        "after 45 overs, if Green is in and Grey is in: Green and Grey bat wahoo",
    ),
    (
        "if Wilson and Taylor are both at the crease after 30 overs, the pair of them aggressive",
        "after 30 overs, if Wilson is in and Taylor is in: Wilson and Taylor bat aggressive",
    ),
    # "vice versa": the two batsmen's styles swapped, at the later clause's time
    (
        "Tom Smith defensive and White normal, and vice versa when the 4th wicket falls",
        "Tom Smith bats defensive\nWhite bats normal\nwhen the 4th wicket falls: Tom Smith"
        " bats normal; White bats defensive",
    ),
    (
        "Root normal and Stokes wahoo, and vice versa after 35 overs",
        "Joe Root bats normal\nBen Stokes bats wahoo\nafter 35 overs: Joe Root bats wahoo;"
        " Ben Stokes bats normal",
    ),
    (
        "Green defensive and Wilson aggressive; the other way round once we reach 200",
        "Green bats defensive\nWilson bats aggressive\nwhen the score reaches 200: Green bats"
        " aggressive; Wilson bats defensive",
    ),
]


@pytest.mark.parametrize(("line", "echo"), FILLED, ids=[line for line, _ in FILLED])
def test_a_line_of_clauses_that_leave_words_out_reads_with_them_put_back(
    line: str, echo: str
) -> None:
    """The line reads to its canonical orders, with nothing asked or refused; the answer
    says on the line how it was read; and the echo reads back to itself."""
    got = read(line)
    assert got.errors == () and got.not_understood == (), [e.message for e in got.errors]
    assert got.echo_text() == echo
    assert any(n.text.startswith("read as '") for n in got.notes)
    again = read(echo)
    assert again.errors == () and again.echo_text() == echo
    assert canonical(again.orders) == canonical(got.orders)


REFUSED = [
    # "respectively" of lists of different lengths: never paired by guess
    ("Root and Stokes wahoo, normal and defensive respectively", "'respectively' pairs"),
    # "thereafter" after a clause with no span and no time: after what?
    ("Root defensive; Stokes aggressive thereafter", "'thereafter'"),
    # "all three" of two batsmen: the pronoun does not agree, so it is not filled
    ("for the first 10 overs Root and Stokes defensive, then all three normal", "three"),
    # one order giving a batsman two styles at once
    ("after 30 overs Root defensive and goes wahoo", "two styles at the same moment"),
    # a part with no batsman that pbm cannot give one (on main: every batsman's)
    ("Green wahoo and defensive", "says no batsman"),
]


@pytest.mark.parametrize(("line", "said"), REFUSED, ids=[line for line, _ in REFUSED])
def test_clauses_that_do_not_pair_are_refused_never_guessed(line: str, said: str) -> None:
    """Nothing is acted on, and the refusal names what does not pair."""
    got = read(line)
    assert got.echo == ()
    assert any(said in e.message for e in got.errors), [e.message for e in got.errors]


def test_respectively_refused_points_at_the_word() -> None:
    """The refusal of lists that differ in length has its caret under 'respectively'."""
    line = "Root and Stokes wahoo, normal and defensive respectively"
    (err,) = read(line).errors
    assert err.span is not None and err.span.end_column is not None
    assert line[err.span.column - 1 : err.span.end_column - 1] == "respectively"


def test_every_name_said_still_holds_for_a_filled_line() -> None:
    """A filled line that would leave a named squad member out is refused, not read
    without him (the guard 'every name said', docs/rules/orders-unknown-words.md)."""
    got = read("Root and Jones defensive and Stokes wahoo respectively")
    assert got.echo == ()
    assert got.errors


ORDER = "batting order: Root, Tom Smith, Stokes, Steve Smith, Flintoff, Wilson, Green, Grey\n"


def test_respectively_pairs_batsmen_with_their_places() -> None:
    """ "Nos. 9, 10 and 11 respectively" gives each batsman his place, in order, and the
    line's one style is each one's."""
    got = read(ORDER + "Warne, Anderson and Stone, Nos. 9, 10 and 11 respectively, defensive")
    assert got.errors == ()
    assert got.echo_text().endswith(
        "Grey, Shane Warne (defensive), Jimmy Anderson (defensive), Stone (defensive)"
    )


def test_respectively_with_more_places_than_batsmen_is_refused() -> None:
    """Two batsmen and three places do not pair: refused, saying so."""
    got = read(ORDER + "Warne and Stone, numbers 9, 10 and 11 respectively")
    assert any("with a place, but this line gives 3 places" in e.message for e in got.errors)


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "after 30 overs Root and Stokes, both aggressive",
            "after 30 overs: Joe Root and Ben Stokes bat aggressive",
        ),
        (
            "when the 5th wicket falls, both Root and Stokes defensive",
            "when the 5th wicket falls: Joe Root and Ben Stokes bat defensive",
        ),
    ],
)
def test_both_beside_its_names_reads_as_it_did(line: str, echo: str) -> None:
    """ "both" floating after its names or before them is no pronoun for batsmen named
    before: the line reads as it did, with nothing filled."""
    got = read(line)
    assert got.errors == () and got.echo_text() == echo
    assert not any(n.text.startswith("read as") for n in got.notes)


@pytest.mark.parametrize(
    "line",
    [
        "Anderson bowls 2 4 and 6 then he's back for the death",
        "Stone overs 1 and 3 then comes back at the death",
    ],
)
def test_a_bowlers_return_is_asked_never_dropped(line: str) -> None:
    """A plan's later clause that brings the bowler back with no overs of its own ("then
    he's back for the death") was read on main as the first overs alone: now the bowler's
    return is filled in and, the death being either end's overs, both readings are asked."""
    got = read(line)
    assert got.echo == ()
    (asked,) = got.not_understood
    assert len(asked.readings) == 2
    assert all(", 4" in r or ", 3" in r for r in asked.readings)

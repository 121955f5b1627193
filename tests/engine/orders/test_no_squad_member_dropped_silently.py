"""A line's reading says every squad member the line names, or the line is refused with the
name under the caret; one line never gives one over to two bowlers
(``engine/flungo/language/_coverage.py``, docs/rules/orders-unknown-words.md, "Every name
said"). The lines are written for these tests, none is a corpus line."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, parse_orders
from tests.engine.orders.squad import fixture_team, opponent_team


def read(text: str, overs: int = 50) -> ParsedOrders:
    fmt = FORMATS[Format.T20 if overs == 20 else Format.FIFTY]
    return parse_orders(text, fixture_team(), fmt, context=OrderContext(opponent=opponent_team()))


@pytest.mark.parametrize(
    "line",
    [
        "Anderson opens the bowling coz hes spin and Stone takes the other end",
        "Warne opens the bowling since it swings early and Black does the other end",
        "Grey opens the bowling because he is spin and Moss comes on after",
    ],
)
def test_a_name_the_reading_lets_go_refuses_the_line(line: str) -> None:
    """A squad member in a part of the line the reading let go: refused, the name named,
    with what pbm read of the rest, never acted on without him."""
    got = read(line)
    assert got.errors, [e.text for e in got.echo]
    message = got.errors[0].message
    assert "leaves out" in message and "pbm reads this line as" in message
    assert not got.echo


def test_the_refusal_puts_the_caret_under_the_name() -> None:
    """The error's span is the name as the player wrote it."""
    line = "Anderson opens the bowling coz hes spin and Stone takes the other end"
    err = read(line).errors[0]
    assert err.span is not None
    assert line[err.span.column - 1 : (err.span.end_column or 0) - 1] == "Stone"


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "xi: Root, Stokes, Tom Smith, Steve Smith, Jones, Wilson, Flintoff, Green, Warne,"
            " Anderson, Stone\nall batsmen aggressive except Root",
            None,
        ),
        ("Wilson keeps wicket, Taylor can fetch the drinks", "wicketkeeper: Wilson"),
        ("Wilson keeps. Taylor can carry the drinks", "wicketkeeper: Wilson"),
        ("Stokes bats aggressive", "Ben Stokes bats aggressive"),
        ("Warne bowls overs 1, 3, 5", "Shane Warne bowls overs 1, 3, 5"),
        ("Root bats aggressive, the pitch is green", "Joe Root bats aggressive"),
    ],
)
def test_a_name_left_out_on_purpose_or_said_passes(line: str, echo: str | None) -> None:
    """A name after a word that leaves him out ("except", "for"), or before one ("sits
    out", "carry the drinks"), a name that is an English word written as one ("the pitch is
    green"), and a name the reading says: the line reads as before."""
    got = read(line)
    assert not got.errors, [e.message for e in got.errors]
    if echo is not None:
        assert [e.text for e in got.echo] == [echo]


@pytest.mark.parametrize(
    "line", ["Warne 4, Freddie 4, Anderson 4 and Grey 4", "Warne bowls over 4, Grey bowls over 4"]
)
def test_one_line_never_gives_one_over_to_two_bowlers(line: str) -> None:
    """Four overs each, or over 4 for all? The line is refused, naming both bowlers, where
    the last part used to win silently."""
    got = read(line, overs=20)
    assert got.errors and not got.echo
    assert "gives over 4 to both" in got.errors[0].message


def test_two_lines_of_a_mail_still_change_an_over() -> None:
    """Across lines the later line is a change of mind, as the guide has it: kept."""
    got = read("Warne bowls over 4\nGrey bowls over 4", overs=20)
    assert not got.errors and [e.text for e in got.echo] == ["Grey bowls over 4"]

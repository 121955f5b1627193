"""'Everyone else', 'except' and 'the rest' inside conditional orders (issue 10): read as the
player meant, written back so they read to the same meaning, and refused where they cannot be
known when the order is read."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, parse_orders
from engine.flungo.orders import (
    BattingStyle,
    BowlingChange,
    BowlingRest,
    Rule,
    StyleChange,
    StyleTarget,
    TargetKind,
    Trigger,
    TriggerKind,
)
from tests.engine.orders.squad import fixture_team, opponent_team

TEAM = fixture_team()
FIFTY = FORMATS[Format.FIFTY]


def read(text: str, **ctx: object) -> ParsedOrders:
    context = OrderContext(opponent=opponent_team(), **ctx)  # type: ignore[arg-type]
    return parse_orders(text, TEAM, FIFTY, context=context)


def only_rule(r: ParsedOrders) -> Rule:
    assert r.errors == (), [str(e) for e in r.errors]
    assert r.orders.match is not None
    (rule,) = r.orders.match.rules
    return rule


@pytest.mark.parametrize(
    ("text", "echo"),
    [
        (
            "after 30 overs all batsmen wahoo except Root",
            "after 30 overs: all batsmen bat wahoo except Joe Root",
        ),
        (
            "After 30 overs, everyone wahoo apart from Root",
            "after 30 overs: all batsmen bat wahoo except Joe Root",
        ),
        (
            "from over 31 all batsmen go wahoo other than Joe Root",
            "after 30 overs: all batsmen bat wahoo except Joe Root",
        ),
        (
            "at drinks all bat aggressive bar Root and Stokes",
            "at drinks: all batsmen bat aggressive except Joe Root, Ben Stokes",
        ),
        (
            "after 30 overs all batsmen normal except Flintoff wahoo",
            "after 30 overs: all batsmen bat normal except Freddie Flintoff; "
            "Freddie Flintoff bats wahoo",
        ),
        (
            "after 30 overs: everyone else normal",
            "after 30 overs: all batsmen bat normal",
        ),
        (
            "Last 10 overs: Flintoff slog, everyone else wahoo",
            "when 60 balls are left: Freddie Flintoff bats wahoo; "
            "all batsmen bat wahoo except Freddie Flintoff",
        ),
        (
            "in the last 10 overs Flintoff to slog and everybody else go wahoo",
            "when 60 balls are left: Freddie Flintoff bats wahoo; "
            "all batsmen bat wahoo except Freddie Flintoff",
        ),
        (
            "when the 6th wicket falls Flintoff wahoo, all the others defensive",
            "when the 6th wicket falls: Freddie Flintoff bats wahoo; "
            "all batsmen bat defensive except Freddie Flintoff",
        ),
        (
            "Last 5 overs: Flintoff slog, the rest wahoo",
            "when 30 balls are left: Freddie Flintoff bats wahoo; "
            "the remaining batsmen bat wahoo except Freddie Flintoff",
        ),
        (
            "after 40 overs: Anderson 41, 43 and Flintoff the rest",
            "after 40 overs: Jimmy Anderson bowls overs 41, 43; Freddie Flintoff bowls the rest",
        ),
        (
            "after 40 overs Anderson to bowl 41 and 43, Flintoff and Warne the rest",
            "after 40 overs: Jimmy Anderson bowls overs 41, 43; "
            "Freddie Flintoff and Shane Warne bowl the rest",
        ),
        (
            "at drinks: Warne and Anderson take the remaining overs",
            "at drinks: Shane Warne and Jimmy Anderson bowl the rest",
        ),
        (
            "when the 5th wicket falls, Warne and Anderson the rest",
            "when the 5th wicket falls: Shane Warne and Jimmy Anderson bowl the rest",
        ),
        (
            "after 40 overs Flintoff bowls the rest of the overs",
            "after 40 overs: Freddie Flintoff bowls the rest",
        ),
    ],
)
def test_the_issue_wordings_inside_conditional_orders(text: str, echo: str) -> None:
    """Each wording reads to its echo, and the echo reads back to the same orders."""
    r = read(text)
    assert r.errors == () and r.not_understood == (), [str(e) for e in r.errors]
    assert r.echo_text() == echo
    again = read(r.echo_text())
    assert again.errors == () and again.orders == r.orders


def test_everyone_else_leaves_out_whom_the_same_order_names() -> None:
    """ "Last 10 overs: Flintoff slog, everyone else wahoo" is Flintoff wahoo and all batsmen
    but Flintoff wahoo: a target leaving him out, not a second order that overrides him."""
    rule = only_rule(read("Last 10 overs: Flintoff slog, Root defensive, everyone else wahoo"))
    assert rule.trigger == Trigger(TriggerKind.BALLS_LEFT, 60)
    assert rule.actions[-1] == StyleChange(
        StyleTarget(TargetKind.ALL, excluding=("Freddie Flintoff", "Joe Root")),
        BattingStyle.WAHOO,
    )


def test_everyone_else_naming_nobody_leaves_out_the_other_lines_batsmen() -> None:
    """In an order naming nobody, "everyone else" leaves out the batsmen the mail's other
    lines style (a batting-order style, a style line, an "except ... wahoo"), not the
    batsmen of other conditional orders."""
    text = (
        "batting order: Root (defensive), Stokes, Tom Smith\n"
        "Jones aggressive\n"
        "after 30 overs: everyone else normal\n"
        "after 40 overs: Taylor wahoo\n"
    )
    m = read(text).orders.match
    assert m is not None
    else_rule = m.rules[0]
    assert else_rule.actions == (
        StyleChange(
            StyleTarget(TargetKind.ALL, excluding=("Joe Root", "Jones")), BattingStyle.NORMAL
        ),
    )


def test_everyone_else_in_a_but_clause_leaves_out_that_clause_names() -> None:
    """In "..., but when ...", each clause's "everyone else" is of its own clause."""
    r = read(
        "after 30 overs Root wahoo and everyone else aggressive, "
        "but when the 8th wicket falls Flintoff wahoo and everyone else defensive"
    )
    rule = only_rule(r)
    assert rule.actions[1] == StyleChange(
        StyleTarget(TargetKind.ALL, excluding=("Joe Root",)), BattingStyle.AGGRESSIVE
    )
    (child,) = rule.then
    assert child.actions[1] == StyleChange(
        StyleTarget(TargetKind.ALL, excluding=("Freddie Flintoff",)), BattingStyle.DEFENSIVE
    )


def test_the_rest_of_the_overs_is_a_rule_action() -> None:
    """ "Anderson 41, 43 and Flintoff the rest": Anderson's overs, then the rest for Flintoff,
    decided when the order fires (so it works after a wicket as well as after an over)."""
    rule = only_rule(read("after 40 overs: Anderson 41, 43 and Flintoff the rest"))
    assert rule.actions == (
        BowlingChange("Jimmy Anderson", (41, 43)),
        BowlingRest(("Freddie Flintoff",)),
    )


def test_a_rest_bowler_not_in_the_xi_is_an_error() -> None:
    """The bowlers of "the rest" are checked against the XI like any other bowler."""
    xi = "xi: Joe Root, Ben Stokes, Tom Smith, Jones, Ant and Dec, Wilson, Freddie Flintoff, "
    xi += "Green, White, Shane Warne, Jimmy Anderson"
    r = read(xi + "\nafter 40 overs: Moss the rest")
    assert [e.message for e in r.errors] == ["Moss not in the XI"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "after 30 overs the next 2 batsmen aggressive, everyone else defensive",
            "'everyone else' beside 'the next' or 'the remaining' batsmen cannot be known in "
            "advance: name the batsmen",
        ),
        (
            "after 30 overs the next 2 batsmen wahoo except Root",
            "'the next' batsmen 'except' some is not an order: name the batsmen",
        ),
    ],
)
def test_what_cannot_be_known_in_advance_is_refused(text: str, message: str) -> None:
    """An "everyone else" whose batsmen are known only when the order fires is not acted on:
    it is listed as not understood, with the reason."""
    r = read(text)
    assert r.orders.match is None
    assert [e.message for e in r.errors] == [message]
    assert [n.line for n in r.not_understood] == [1]


def test_two_readings_are_still_refused_beside_the_new_forms() -> None:
    """A mail with these forms still refuses a line with two readings, listing both, and
    acts on the rest as written."""
    r = read("Root and Anderson to open\nafter 30 overs: Flintoff slog, everyone else wahoo")
    (n,) = r.not_understood
    assert n.line == 1
    assert n.readings == (
        "batting order: Joe Root, Jimmy Anderson",
        "Joe Root bowls over 1; Jimmy Anderson bowls over 2",
    )
    m = r.orders.match
    assert m is not None and m.batting_order is None and m.bowling_plan == ()
    assert len(m.rules) == 1


def test_except_before_the_style_is_read_to_its_meaning() -> None:
    """ "All batsmen except Root will be aggressive" (the "except" before the style) is all
    batsmen but Root, never "all batsmen aggressive"."""
    rule = only_rule(read("after 20 overs all batsmen except Root will be aggressive"))
    assert rule.actions == (
        StyleChange(StyleTarget(TargetKind.ALL, excluding=("Joe Root",)), BattingStyle.AGGRESSIVE),
    )


def test_old_wordings_read_as_before() -> None:
    """Orders without these forms read to the same values as before: "the remaining batsmen"
    with nobody named leaves nobody out."""
    rule = only_rule(read("after 40 overs: the remaining batsmen wahoo"))
    assert rule.actions == (StyleChange(StyleTarget(TargetKind.REMAINING), BattingStyle.WAHOO),)

"""How long a conditional order lasts, as players write it (issue 10): "until 30 overs",
"until X, then Y", "back to normal once ...", and the "except" before the style. Each is read
to the meaning a captain would give it, and its echo reads back to the same orders."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import ParsedOrders, canonical, parse_orders
from tests.engine.orders.squad import fixture_team

TEAM = fixture_team()
FIFTY = FORMATS[Format.FIFTY]
XI = (
    "XI: Root (c), Stokes, Tom Smith, Steve Smith, Jones, Wilson, Taylor (wk), Flintoff, "
    "Green, Warne, Anderson\n"
)


def read(text: str) -> ParsedOrders:
    return parse_orders(text, TEAM, FIFTY)


def echo_rules(r: ParsedOrders) -> list[str]:
    """The canonical lines of the rules (the XI and its captain left out)."""
    assert r.errors == (), [str(e) for e in r.errors]
    keep = ("after", "when", "if")
    return [ln for ln in canonical(r.orders).splitlines() if ln.startswith(keep)]


@pytest.mark.parametrize(
    ("text", "echo"),
    [
        (
            "after 10 overs Root defensive, back to normal once 30 overs are done",
            "after 10 overs: Joe Root bats defensive; but after 30 overs: Joe Root bats normal",
        ),
        (
            "after 10 overs Root defensive; go back to normal when the 5th wicket falls",
            "after 10 overs: Joe Root bats defensive; but when the 5th wicket falls: "
            "Joe Root bats normal",
        ),
        (
            "if we lose 3 wickets before 20 overs, Root defensive, back to normal once we "
            "reach 100",
            "when the 3rd wicket falls, if overs < 20: Joe Root bats defensive; but when the "
            "score reaches 100: Joe Root bats normal",
        ),
        (
            "after 10 overs Root defensive until 30 overs, then aggressive",
            "after 10 overs: Joe Root bats defensive; but after 30 overs: Joe Root bats aggressive",
        ),
        (
            "after 10 overs: Root defensive until over 30",
            "after 10 overs: Joe Root bats defensive, until after 30 overs",
        ),
        (
            "after 10 overs Root defensive until the 30th over is bowled",
            "after 10 overs: Joe Root bats defensive, until after 30 overs",
        ),
        (
            "when 30 overs have been bowled, all remaining batsmen aggressive",
            "after 30 overs: the remaining batsmen bat aggressive",
        ),
    ],
)
def test_durations_read_as_a_captain_means_them(text: str, echo: str) -> None:
    """Each wording of a duration gives the one rule its echo shows, and the echo read again
    gives the same orders."""
    r = read(text)
    assert echo_rules(r) == [echo]
    again = read(canonical(r.orders))
    assert again.errors == () and again.orders == r.orders


def test_until_then_from_the_first_ball() -> None:
    """ "Root defensive until the 5th wicket falls, then aggressive" has no trigger of its
    own: defensive from the first ball, aggressive once the 5th wicket falls."""
    r = read("Root defensive until the 5th wicket falls, then aggressive")
    assert echo_rules(r) == [
        "after 0 balls: Joe Root bats defensive; but when the 5th wicket falls: "
        "Joe Root bats aggressive"
    ]


def test_except_before_the_style() -> None:
    """ "All batsmen except Root will be aggressive" (and "everyone but ...") is every batsman
    of the XI but Root; without an XI to take "all" from it is an error, not a silent nothing."""
    for text in ("all batsmen except Root will be aggressive", "everyone but Root aggressive"):
        r = read(XI + text)
        assert r.errors == ()
        echo = canonical(r.orders)
        assert "Ben Stokes bats aggressive" in echo and "Joe Root bats" not in echo
        alone = read(text)
        assert [e.message for e in alone.errors] == [
            "'all batsmen' needs the batting order or the XI in the same orders"
        ]


def test_except_before_the_style_in_a_rule() -> None:
    """Inside a when-order the names before the style are left out the same way."""
    r = read(
        XI + "if we lose 3 wickets before 20 overs, everyone except Root defensive, back to "
        "normal once 30 overs are done"
    )
    assert echo_rules(r) == [
        "when the 3rd wicket falls, if overs < 20: all batsmen bat defensive except Joe Root; "
        "but after 30 overs: all batsmen bat normal except Joe Root"
    ]


def test_a_comma_before_back_to_is_a_new_clause_only_there() -> None:
    """The comma before "back to" begins a clause; other commas still join actions."""
    r = read("after 10 overs Root defensive, Stokes aggressive")
    assert echo_rules(r) == ["after 10 overs: Joe Root bats defensive; Ben Stokes bats aggressive"]

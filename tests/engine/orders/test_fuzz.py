"""Fuzzing: whatever the text, the parser returns a result and raises nothing."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import OrderError
from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, canonical, parse_orders
from tests.engine.orders.squad import fixture_team, opponent_team
from tests.engine.orders.strategies import orders_for

TEAM = fixture_team()
FMT = FORMATS[Format.FIFTY]
CONTEXT = OrderContext(opponent=opponent_team())
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SAMPLE = """Hi GM,
xi: Root, Stokes, Tom Smith, Jones, Ant and Dec, Wilson, Flintoff, Green, White, Warne, Anderson
captain: Root
Batting order:
1. Root (aggressive)
2. Stokes, Tom Smith
Jones wahoo

Bowling:
Anderson and Warne open, Anderson 3,5,7-8
After 20 overs, if I have lost 3 wickets or less all batsmen will be aggressive, but will \
reduce to normal when the 6th wicket is lost.
with 12 balls left if run rate < 6.5 and wickets <= 4: remaining batsmen aggressive
bowling reviews only for Lara
after 2.5 overs: Root 5-3 and Stokes 1.5
treat Rock 2
boost Root batting
name 5: Mr Bean
Thanks"""

WORDS = [
    "after",
    "when",
    "if",
    "overs",
    "over",
    "wicket",
    "wickets",
    "the",
    "6th",
    "all",
    "batsmen",
    "aggressive",
    "wahoo",
    "but",
    "until",
    "and",
    ",",
    ";",
    ":",
    "-",
    "(",
    ")",
    "Root",
    "Smith",
    "Ant and Dec",
    "bowls",
    "1-4",
    "3",
    "2.5",
    "<=",
    "or less",
    "at least",
    "reviews",
    "only",
    "for",
    "top",
    "treat",
    "boost",
    "xi",
    "captain",
    "name",
    "team name",
    "batting order",
    "at drinks",
    "is out",
    "reaches",
    "needed",
    "left",
    "\u00e9",
    "\u202e",
    "\ue100",
    "\ue000",
]


def _check(result: ParsedOrders) -> None:
    assert isinstance(result, ParsedOrders)
    assert all(isinstance(e, OrderError) and e.span is not None for e in result.errors)
    lines = [e.span.line for e in result.errors if e.span is not None]
    assert lines == sorted(lines)
    str(result.errors)  # every error can be shown
    for e in result.errors:
        str(e)


@SETTINGS
@given(st.text(max_size=400))
def test_random_text(text: str) -> None:
    """Arbitrary unicode text never makes the parser raise."""
    _check(parse_orders(text, TEAM, FMT, context=CONTEXT))


@SETTINGS
@given(st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join))
def test_order_words_in_random_order(text: str) -> None:
    """Order words in random order (the grammar's hardest inputs) never make it raise."""
    _check(parse_orders(text, TEAM, FMT, context=CONTEXT))


@pytest.mark.slow
@SETTINGS
@given(st.data())
def test_mutated_valid_orders(data: st.DataObject) -> None:
    """A valid email with characters deleted, inserted or swapped never makes it raise."""
    text = SAMPLE
    for _ in range(data.draw(st.integers(1, 8))):
        i = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["del", "ins", "dup"]))
        if op == "del":
            text = text[:i] + text[i + 1 :]
        elif op == "ins":
            text = text[:i] + data.draw(st.characters()) + text[i:]
        else:
            j = data.draw(st.integers(i, min(len(text), i + 30)))
            text = text[:i] + text[i:j] * 2 + text[j:]
    _check(parse_orders(text, TEAM, FMT, context=CONTEXT))


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(orders_for(TEAM, FMT), st.data())
def test_mutated_canonical_orders(orders: object, data: st.DataObject) -> None:
    """Canonical text with a word swapped for another never makes it raise."""
    text = canonical(orders)  # type: ignore[arg-type]
    words = text.split(" ")
    if words:
        i = data.draw(st.integers(0, len(words) - 1))
        words[i] = data.draw(st.sampled_from(WORDS))
    _check(parse_orders(" ".join(words), TEAM, FMT, context=CONTEXT))


def test_very_long_lines() -> None:
    """Very long lines are refused with an error, not parsed for ever."""
    long_order = "Root, " * 3000
    r = parse_orders("xi: " + long_order + "\ncaptain: Root", TEAM, FMT)
    assert "too long" in r.errors[0].message
    assert r.orders.match is not None and r.orders.match.captain == "Joe Root"
    deep = "after 1 over: all wahoo " + "but when the 2nd wicket falls: all normal " * 45
    _check(parse_orders(deep, TEAM, FMT))

"""Idioms of change and counting, and exceptives (issue 24, idioms).

Verbs of change to a style ("drops to normal", "crank it up to wahoo"), steps of the style
ladder ("step it up", "down a gear"), the scorer's counting words ("the 30-over mark",
"halfway") and English's exceptive prepositions ("excluding", "barring"). The entries are
the lexicon's ``[idioms]`` section, taken from a thesaurus, commentary's glossary and a
grammar (named there), not from corpus lines; the lines here were written for this test.
The decisions are in docs/rules/orders-idioms.md.
"""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from tests.engine.orders.squad import XI
from tests.engine.orders.test_cricket_glossary_in_orders import read, reads_exactly

FIFTY = FORMATS[Format.FIFTY]
T20 = FORMATS[Format.T20]
# the usual XI, in its order: the batsmen an exceptive leaves some of
BATSMEN = XI
ORDER = "batting order: " + ", ".join(XI)

CHANGES = [
    ("after 30 overs, Root steps up to aggressive", "after 30 overs: Joe Root bats aggressive"),
    (
        "when the 5th wicket falls, Stokes drops down to defensive",
        "when the 5th wicket falls: Ben Stokes bats defensive",
    ),
    ("at drinks everyone switches to wahoo", "at drinks: all batsmen bat wahoo"),
    (
        "once we reach 200, Tom Smith reverts to normal",
        "when the score reaches 200: Tom Smith bats normal",
    ),
    (
        "after 40 overs, Root and Stokes crank it up to wahoo",
        "after 40 overs: Joe Root and Ben Stokes bat wahoo",
    ),
    ("after 45 overs Jones goes back to normal", "after 45 overs: Jones bats normal"),
    ("when 7 down revert to defensive", "when the 7th wicket falls: all batsmen bat defensive"),
    ("after 30 overs up it to aggressive", "after 30 overs: all batsmen bat aggressive"),
    (
        "Root defensive until 20 overs, then step it up",
        "after 0 balls: Joe Root bats defensive; but after 20 overs: Joe Root bats normal",
    ),
    (
        "Stokes aggressive until 35 overs, then take it down a notch",
        "after 0 balls: Ben Stokes bats aggressive; but after 35 overs: Ben Stokes bats normal",
    ),
]


@pytest.mark.parametrize(("text", "echo"), CHANGES)
def test_a_change_to_a_style_is_the_style(text: str, echo: str) -> None:
    """A verb of change before a style says the style; a step with the style in force
    written before it is the next style on the ladder."""
    reads_exactly(text, echo)


@pytest.mark.parametrize(
    ("text", "styles"),
    [
        ("after 25 overs shift up a gear", ("normal", "aggressive", "wahoo")),
        ("after 35 overs shift down a gear", ("defensive", "normal", "aggressive")),
        ("Root: step it up after 20 overs", ("normal", "aggressive", "wahoo")),
        ("take it down a notch when the 4th wicket falls", ("defensive", "normal", "aggressive")),
    ],
)
def test_a_step_from_a_style_not_said_asks(text: str, styles: tuple[str, ...]) -> None:
    """Where the line does not say the style in force, each step is a reading: all are
    shown, none is acted on."""
    got = read(text)
    assert got.errors == ()
    readings = [r for n in got.not_understood for r in n.readings]
    assert len(readings) == 3
    assert all(any(r.endswith(s) for r in readings) for s in styles), readings
    assert got.orders == read("").orders


def test_a_step_beside_a_style_written_is_emphasis() -> None:
    """ "go up a gear. Aggressive." says the style written, once."""
    reads_exactly(
        "After 20 overs Root and Tom Smith go up a gear. Aggressive.",
        "after 20 overs: Joe Root and Tom Smith bat aggressive",
    )


COUNTS = [
    (
        "at the 30-over mark, if 3 or fewer down, all aggressive",
        "after 30 overs, if wickets <= 3: all batsmen bat aggressive",
        FIFTY,
    ),
    ("at the 20 over mark: Root wahoo", "after 20 overs: Joe Root bats wahoo", FIFTY),
    (
        "by the 35 over mark, if 2 or fewer down, Stokes wahoo",
        "after 35 overs, if wickets <= 2: Ben Stokes bats wahoo",
        FIFTY,
    ),
    ("from halfway Stokes aggressive", "after 25 overs: Ben Stokes bats aggressive", FIFTY),
    ("at the halfway point all wahoo", "after 10 overs: all batsmen bat wahoo", T20),
    (
        "midway through the innings, Root aggressive",
        "after 25 overs: Joe Root bats aggressive",
        FIFTY,
    ),
    (
        "Root defensive till halfway",
        "after 0 balls: Joe Root bats defensive, until after 25 overs",
        FIFTY,
    ),
    (
        "at the halfway stage, if we have 7 wickets in hand, all aggressive",
        "after 25 overs, if wickets <= 3: all batsmen bat aggressive",
        FIFTY,
    ),
    ("with 10 to go, all wahoo", "when 60 balls are left: all batsmen bat wahoo", FIFTY),
    ("after the drinks, Root aggressive", "at drinks: Joe Root bats aggressive", FIFTY),
]


@pytest.mark.parametrize(("text", "echo", "fmt"), COUNTS)
def test_counting_idioms_are_overs(text: str, echo: str, fmt: object) -> None:
    """The N-over mark is after N overs; halfway is after half the innings's overs."""
    reads_exactly(text, echo, fmt)


IN_HAND = [
    (
        "with 6 wickets in hand at 40 overs, all wahoo",
        "after 40 overs, if wickets <= 4: all batsmen bat wahoo",
    ),
    (
        "at 40 overs with 6 wickets in hand, all wahoo",
        "after 40 overs, if wickets <= 4: all batsmen bat wahoo",
    ),
    (
        "after 30 overs, with 7 in hand, all aggressive",
        "after 30 overs, if wickets <= 3: all batsmen bat aggressive",
    ),
    (
        "after 40 overs, if we have more than 5 wickets in hand, all wahoo",
        "after 40 overs, if wickets < 5: all batsmen bat wahoo",
    ),
    (
        "at drinks with 3 or fewer wickets in hand, all defensive",
        "at drinks, if wickets >= 7: all batsmen bat defensive",
    ),
]


@pytest.mark.parametrize(("text", "echo"), IN_HAND)
def test_wickets_in_hand_are_ten_less_those_down(text: str, echo: str) -> None:
    """ "with N (wickets) in hand" is a condition on the wickets down: at least N in hand is
    10 - N or fewer down; "more than", "or fewer" turned round the same way."""
    reads_exactly(text, echo)


EXCEPTS = [
    ("all wahoo barring Root", "wahoo", {"Joe Root"}),
    ("all wahoo excluding Stokes", "wahoo", {"Ben Stokes"}),
    ("everyone aggressive except for Root and Stokes", "aggressive", {"Joe Root", "Ben Stokes"}),
    ("all normal aside from Warne", "normal", {"Shane Warne"}),
    ("all aggressive with the exception of Root", "aggressive", {"Joe Root"}),
    ("everyone wahoo bar Warne", "wahoo", {"Shane Warne"}),
    ("all batsmen defensive other than Stokes", "defensive", {"Ben Stokes"}),
    ("all wahoo save for Root", "wahoo", {"Joe Root"}),
    ("everybody aggressive apart from Jones", "aggressive", {"Jones"}),
    ("all aggressive not counting Green", "aggressive", {"Green"}),
]


@pytest.mark.parametrize(("text", "style", "left_out"), EXCEPTS)
def test_an_exceptive_leaves_out_the_batsmen_named(
    text: str, style: str, left_out: set[str]
) -> None:
    """ "all wahoo barring Root": every batsman of the order but those named bats the style."""
    got = read(f"{ORDER}\n{text}")
    assert got.errors == (), [e.message for e in got.errors]
    lines = got.echo_text().splitlines()[1:]
    verb = dict.fromkeys(BATSMEN, "bats")
    assert lines == [f"{n} {verb[n]} {style}" for n in BATSMEN if n not in left_out]


def test_a_rule_with_an_exceptive_keeps_it() -> None:
    """In a rule, the exceptive stays the rule's "except"."""
    got = read(f"{ORDER}\nafter 30 overs everybody aggressive excluding Root")
    assert got.echo_text().splitlines()[1] == (
        "after 30 overs: all batsmen bat aggressive except Joe Root"
    )


def test_every_entry_has_the_word_its_pass_is_skipped_without() -> None:
    """A pass runs only on a line with one of its cue words: an entry added to the lexicon
    without one would never be read."""
    from engine.flungo.language import _idioms

    data = _idioms._DATA
    assert all(any(c in e for c in _idioms._EXCEPT_CUES) for e in data["except"])
    assert all(any(c in e for c in _idioms._STEP_CUES) for e in data["step_up"] + data["step_down"])
    assert all("half" in e or "midway" in e for e in data["halfway"])

"""The formal register: complex conjunctions and prepositions read as their plain words
(issue 24, round 5, "grammar").

"In the event that", "prior to", "up to and including", "in excess of", "save where": the
multi-word forms a grammar lists for if, before, until, more than and unless (Quirk et al.
14.12 and 9.10-9.13, the Cambridge Grammar, a legal-drafting guide; the lexicon's
``[formal]`` section names them). The lines here were written for this test in a careful
writer's style, not taken from the corpus. The decisions: docs/rules/orders-formal-words.md.
"""

from __future__ import annotations

import pytest

from engine.flungo.language._formal import FORMAL_WORDS, formal
from tests.engine.orders.test_cricket_glossary_in_orders import read, reads_exactly

FRESH = [
    (
        "Assuming we have lost no more than 3 wickets at the drinks interval, Root and Stokes"
        " are to go aggressive",
        "at drinks, if wickets <= 3: Joe Root and Ben Stokes bat aggressive",
    ),
    (
        "So long as not more than 2 wickets have fallen after 15 overs, Tom Smith is to bat"
        " aggressive",
        "after 15 overs, if wickets <= 2: Tom Smith bats aggressive",
    ),
    (
        "Supposing the score is short of 80 after 20 overs, Jones shall bat defensive",
        "after 20 overs, if score < 80: Jones bats defensive",
    ),
    (
        "Given that we are 6 down before the 35th over, the remaining batsmen shall bat defensive",
        "when the 6th wicket falls, if overs < 34: the remaining batsmen bat defensive",
    ),
    (
        "On condition that the run rate is in excess of 6 after 30 overs, Green shall go wahoo",
        "after 30 overs, if run rate > 6: Green bats wahoo",
    ),
    (
        "With effect from the 45th over, Freddie and Green are to bat wahoo",
        "after 44 overs: Freddie Flintoff and Green bat wahoo",
    ),
    (
        "Commencing with the 41st over, White shall bat aggressive",
        "after 40 overs: White bats aggressive",
    ),
    (
        "Root is to bat defensive until such time as the 15th over has been bowled",
        "after 0 balls: Joe Root bats defensive, until after 15 overs",
    ),
    (
        "Stokes to bat normal up to and including the 30th over, and aggressive thereafter",
        "after 0 overs: Ben Stokes bats normal; but after 30 overs: Ben Stokes bats aggressive",
    ),
    (
        "Upon the fall of the 3rd wicket, Tom Smith shall play defensively rather than normally",
        "when the 3rd wicket falls: Tom Smith bats defensive",
    ),
    (
        "Should the 4th wicket fall previous to the 20th over, Jones is to bat defensive",
        "when the 4th wicket falls, if overs < 19: Jones bats defensive",
    ),
    (
        "Should we need fewer than 40 runs with not fewer than 6 wickets in hand, all batsmen"
        " are to bat normal",
        "if runs needed < 40 and wickets <= 4: all batsmen bat normal",
    ),
    (
        "In the event that the required rate is upwards of 9, Freddie shall go wahoo",
        "if required rate > 9: Freddie Flintoff bats wahoo",
    ),
    (
        "It is my wish that Stokes bats aggressive from the outset",
        "Ben Stokes bats aggressive",
    ),
    ("For the avoidance of doubt, Wilson shall keep wicket", "wicketkeeper: Wilson"),
    ("Please ensure that Root is captain", "captain: Joe Root"),
    ("Kindly note that Warne is to bowl overs 2, 4 and 6", "Shane Warne bowls overs 2, 4, 6"),
    (
        "The XI shall consist of Root, Stokes, Tom Smith, Jones, Ant and Dec, Wilson, Flintoff,"
        " Green, White, Warne and Anderson",
        "xi: Joe Root, Ben Stokes, Tom Smith, Jones, Ant and Dec, Wilson, Freddie Flintoff,"
        " Green, White, Shane Warne, Jimmy Anderson",
    ),
    (
        "In the event of the fall of the 8th wicket, the remaining batsmen are to go wahoo",
        "when the 8th wicket falls: the remaining batsmen bat wahoo",
    ),
    (
        "Freddie is to bat aggressive, save where we have lost 6 or more wickets",
        "if wickets < 6: Freddie Flintoff bats aggressive",
    ),
    (
        "Where we have lost 4 or more wickets after 25 overs, Wilson is to bat defensive",
        "after 25 overs, if wickets >= 4: Wilson bats defensive",
    ),
    (
        "If the 7th wicket should fall prior to the 42nd over, Green is to bat defensive",
        "when the 7th wicket falls, if overs < 41: Green bats defensive",
    ),
    (
        "Should Root be dismissed before the total reaches 60, Tom Smith shall bat defensive",
        "when Joe Root is out, if score < 60: Tom Smith bats defensive",
    ),
    (
        "Notwithstanding anything I said last week, Jones is to bat normal",
        "Jones bats normal",
    ),
    (
        "Root is to bat defensive through the 35th over",
        "after 0 balls: Joe Root bats defensive, until after 35 overs",
    ),
    (
        "From the 30th over forward, Stokes is to bat aggressive",
        "after 29 overs: Ben Stokes bats aggressive",
    ),
    (
        "Stokes to bat aggressive at all times subsequent to the fall of the 4th wicket",
        "when the 4th wicket falls: Ben Stokes bats aggressive",
    ),
    (
        "Should more than 3 wickets fall within the first 10 overs, Root is to bat defensive",
        "when the 4th wicket falls, if overs < 10: Joe Root bats defensive",
    ),
    (
        "Where 10 or fewer overs remain, Freddie is to go wahoo",
        "if balls left <= 60: Freddie Flintoff bats wahoo",
    ),
    (
        "For the first ten overs Tom Smith is to bat defensive; normal thereafter",
        "after 0 overs: Tom Smith bats defensive; but after 10 overs: Tom Smith bats normal",
    ),
    (
        "Jones shall bat aggressive, but only until the total reaches 180",
        "after 0 balls: Jones bats aggressive, until the score reaches 180",
    ),
    (
        "In the event of Stokes being dismissed, Steve Smith is to bat defensive",
        "when Ben Stokes is out: Steve Smith bats defensive",
    ),
    (
        "Should the asking rate exceed 11, White is to go wahoo",
        "if required rate > 11: White bats wahoo",
    ),
    (
        "Pending the fall of the 4th wicket, Jones is to bat normal",
        "after 0 balls: Jones bats normal, until the 4th wicket falls",
    ),
    (
        "Steve Smith will be required to bat defensive after 35 overs",
        "after 35 overs: Steve Smith bats defensive",
    ),
    (
        "Root to bat defensive before the end of the 10th over",
        "if overs < 10: Joe Root bats defensive",
    ),
]


@pytest.mark.parametrize(("text", "echo"), FRESH)
def test_a_formal_line_reads_as_its_plain_words(text: str, echo: str) -> None:
    """A careful writer's line is read as the same order in the guide's words, with no
    error, nothing asked, and no note: the formal words carry no more than the plain."""
    reads_exactly(text, echo)
    assert read(text).notes == ()


NEVER_POSITIVE = [
    "Stokes is to bat aggressive, but not prior to the 10th over",
    "Stokes is to bat aggressive not subsequent to the 30th over",
    "Stokes aggressive, but never before the 10th over",
    "Stokes is to bat aggressive otherwise normal",
    "Stokes is to bat aggressive, failing which normal",
    "After 30 overs, if the score is 150 or thereabouts, Stokes aggressive",
    "Save that Stokes is to bat normal, all batsmen aggressive",
    "Root is to bat aggressive, except where Stokes is in",
]


@pytest.mark.parametrize("text", NEVER_POSITIVE)
def test_a_negated_or_exceptive_form_is_never_read_as_its_positive(text: str) -> None:
    """ "not prior to", "otherwise", "failing which", "save that", "or thereabouts": pbm
    acts on nothing and says why (a word named, or two readings asked), never the order
    the line would be without its negation or exception."""
    got = read(text)
    assert got.errors or got.not_understood
    assert got.orders == read("").orders


def test_notwithstanding_never_takes_the_order_after_it() -> None:
    """ "Notwithstanding anything above," is only the frame: the line cleaner blanks the comma
    before "when", and the frame must still stop there, so the condition after it stays
    (and, here, refuses the line: no order waits on a bowler)."""
    xi = "xi: Root, Stokes, Tom Smith, Jones, Ant and Dec, Wilson, Flintoff, Green, White,"
    xi += " Warne and Anderson\n"
    line = (
        "Notwithstanding anything above, when Garner is brought on all batsmen are to play"
        " him normally and not aggressively nor wahoo"
    )
    got = read(xi + line)
    assert got.errors and got.orders == read(xi).orders
    assert formal("notwithstanding anything above  when we are 5 down all defensive") == (
        "when we are 5 down all defensive"
    )


def test_save_where_is_unless_never_if() -> None:
    """ "save where we are 5 or more down" is the order while fewer than 5 are down: the
    exception, never the condition it excepts."""
    reads_exactly(
        "Wilson to bat aggressive, save where we are 5 or more down",
        "if wickets < 5: Wilson bats aggressive",
    )


@pytest.mark.parametrize(
    ("bound", "op"),
    [
        ("in excess of", ">"),
        ("upwards of", ">"),
        ("not in excess of", "<="),
        ("not exceeding", "<="),
        ("a maximum of", "<="),
        ("a minimum of", ">="),
        ("not less than", ">="),
        ("short of", "<"),
    ],
)
def test_a_bound_in_formal_words_is_the_comparison(bound: str, op: str) -> None:
    """Each formal bound of a score reads as one comparison, the negated ones as theirs."""
    reads_exactly(
        f"After 30 overs, if the score is {bound} 150, Stokes is to bat aggressive",
        f"after 30 overs, if score {op} 150: Ben Stokes bats aggressive",
    )


def test_until_words_mean_until_only_before_an_over() -> None:
    """ "up to and including" is "until" before an over; "up to 3" elsewhere stays the
    grammar's bound, and "to the end of the innings" says only how long."""
    assert formal("root defensive up to and including the 20th over") == (
        "root defensive until the 20th over"
    )
    assert formal("if up to 3 wickets down") == "if wickets <= 3"
    assert formal("all aggressive to the end of the innings") == "all aggressive"


def test_the_balance_of_the_overs_is_the_rest() -> None:
    """A plan's "the balance of the overs" reads as "the rest of the overs" does."""
    assert read("Anderson to bowl the balance of the overs").orders == (
        read("Anderson to bowl the rest of the overs").orders
    )


def test_through_is_until_only_before_an_over() -> None:
    """US "through the 35th over" is until it; "bat through the innings" keeps its idiom;
    "up to the 15th" is until it, "up to 3" stays a bound."""
    assert formal("root defensive through the 35th over") == "root defensive until the 35th over"
    assert formal("root to bat through the innings") == "root to bat through the innings"
    assert formal("all wahoo up to the 15th") == "all wahoo until the 15th"
    assert formal("if up to 3 down") == "if wickets <= 3"


def test_before_runs_are_on_the_board_is_the_score_not_yet_there() -> None:
    """ "before 20 runs are on the board" is a condition on the score, beside the trigger."""
    assert formal("if stokes is out before 20 runs are on the board") == (
        "if stokes is out, if score < 20"
    )


def test_a_line_of_plain_words_is_unchanged() -> None:
    """A line with no formal word is left exactly as it was."""
    line = "after 20 overs, if 3 or fewer down: all batsmen aggressive"
    assert formal(line) == line


def test_every_formal_entry_reads_as_its_plain_words() -> None:
    """Each phrase of the lexicon's ``[formal]`` section, before an over, becomes the plain
    words its entry gives (the lexicon is data: this keeps each entry to what it says)."""
    for phrase, plain in FORMAL_WORDS.items():
        want = " ".join(f"root {plain} the 20th over".split())
        assert formal(f"root {phrase} the 20th over") == want, phrase

"""The reader built on meaning: the lexicon's idioms, phases, chatter, two readings, and
the training corpus of fans' lines (tests/corpus/orders/train.jsonl)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, canonical, parse_orders
from engine.flungo.language._meaning import lexicon
from tests.engine.orders.squad import XI, fixture_team, opponent_team

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from orders_corpus import DEFAULT, load, measure  # type: ignore[import-not-found]  # noqa: E402

FIFTY = FORMATS[Format.FIFTY]
T20 = FORMATS[Format.T20]
CHATTER = [
    "Come on you Chutneys!!",
    "Great win everyone!",
    "97 to defend, come on!",
    "Cheers, ta for running it.",
    "G'day mate,",
    "Might I ask whether it ever rains?",
    # text-speak from the glossary round (issue 24, R3)
    "c'mon lads, fingers crossed!",
    "thx pls, ty gm",
    "cheers ta, imo we win this btw",
]
CANONICAL = [
    "xi: " + ", ".join(XI),
    "captain: Joe Root",
    "toss: bat",
    "Joe Root bats aggressive",
    "Shane Warne bowls overs 1, 3, 5",
    "after 20 overs, if wickets <= 3: all batsmen bat aggressive",
    "when the 6th wicket falls: the remaining batsmen bat defensive",
]


def read(text: str, fmt: object = FIFTY) -> ParsedOrders:
    return parse_orders(text, fixture_team(), fmt, context=OrderContext(opponent=opponent_team()))  # type: ignore[arg-type]


# The figures on the training corpus when this reader was merged: the floor for exact
# reading only rises (the target is 90%; see the report and bench/orders_corpus.py).
EXACT_FLOOR = 0.74
W5_FLOOR = 0.50


@pytest.mark.slow
def test_training_corpus_no_silent_misread_and_every_refusal_names_a_word() -> None:
    """On the fans' training lines: none is misread silently, at most the few refusals
    counted below quote no word of the line, and the exact share does not fall."""
    tally = measure(load([DEFAULT]))["all"]
    assert tally.total >= 280
    assert tally.counts["misread silently"] == 0, [
        m for m in tally.misses if m[0].startswith("mis")
    ]
    assert tally.counts["refused, no word"] <= 4
    assert tally.counts["exact"] / tally.orders >= EXACT_FLOOR


@pytest.mark.slow
def test_w5_lines_never_misread_silently() -> None:
    """On w5's lines (a second-language writer; measured untuned, then tuned on from issue
    24's second round): none is misread silently, and the exact share does not fall."""
    tally = measure(load([DEFAULT.with_name("train-w5.jsonl")]))["all"]
    assert tally.counts["misread silently"] == 0, [
        m for m in tally.misses if m[0].startswith("mis")
    ]
    assert tally.counts["exact"] / tally.orders >= W5_FLOOR


def test_a_word_of_time_after_a_range_is_read_never_dropped() -> None:
    """ "afterwards both normal" says what happens after the ten overs: dropping the word
    would bind "normal" to Root alone inside them. It is read as "then" and "both" as the
    two named (docs/rules/orders-several-wishes.md), never let pass."""
    got = read(
        "During the first ten overs Stokes aggressive and Root normal, afterwards both normal."
    )
    assert got.errors == ()
    assert got.echo_text() == (
        "after 0 overs: Ben Stokes bats aggressive; Joe Root bats normal; but after 10 overs:"
        " Ben Stokes and Joe Root bat normal"
    )


def test_a_greeting_before_an_order_is_not_chatter() -> None:
    """A line that opens with a greeting and goes on to name squad members may hold an
    order: it is refused with a word named, never let pass as chatter."""
    got = read("Greetings to the Blobs manager, and once more: Stokes opens with Root.")
    assert got.errors and got.chatter == ()
    assert read("Hi GM, thanks").chatter and not read("Hi GM, thanks").errors


_ONE_STYLE = sorted((i, s) for i, s in lexicon().styles.items() if "|" not in s)


@pytest.mark.parametrize(("idiom", "style"), _ONE_STYLE, ids=[i for i, _ in _ONE_STYLE])
def test_every_style_idiom_reads_as_its_entry_says(idiom: str, style: str) -> None:
    """ "Root <idiom>" reads as Root batting the idiom's style, or is refused with a word
    named; never another style (an idiom between two styles asks: test_glossary)."""
    got = read(f"Root {idiom}")
    if got.errors or got.not_understood:
        assert any("'" in e.message for e in got.errors) or got.not_understood
        return
    assert got.echo_text() == f"Joe Root bats {style}"


@pytest.mark.parametrize(
    ("phase", "fmt", "echo"),
    [
        (
            "in the powerplay everyone aggressive",
            FIFTY,
            "after 0 overs: all batsmen bat aggressive, until after 10 overs",
        ),
        (
            "powerplay everyone aggressive",
            T20,
            "after 0 overs: all batsmen bat aggressive, until after 6 overs",
        ),
        (
            "middle overs everyone normal",
            FIFTY,
            "after 10 overs: all batsmen bat normal, until after 40 overs",
        ),
        ("death overs everyone wahoo", FIFTY, "when 60 balls are left: all batsmen bat wahoo"),
        ("at the death everyone wahoo", T20, "when 24 balls are left: all batsmen bat wahoo"),
    ],
)
def test_named_phases_are_the_decided_overs(phase: str, fmt: object, echo: str) -> None:
    """Powerplay, middle overs and the death are the overs docs/rules decides, per format."""
    got = read(phase, fmt)
    assert got.errors == () and got.echo_text() == echo


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "middle overs 7 to 15 everyone normal",
            "after 6 overs: all batsmen bat normal, until after 15 overs",
        ),
        (
            "powerplay (overs 1-4) everyone aggressive",
            "after 0 overs: all batsmen bat aggressive, until after 4 overs",
        ),
        ("death overs 16-20 everyone wahoo", "after 15 overs: all batsmen bat wahoo"),
    ],
)
def test_a_phase_with_its_overs_written_reads_the_overs_written(line: str, echo: str) -> None:
    """A phase with the player's own overs beside it means those overs, even where they
    differ from the phase as docs/rules decides it (the powerplay as overs 1-4 here)."""
    got = read(line, T20)
    assert got.errors == () and got.echo_text() == echo


def test_two_idioms_for_one_batsman_are_asked_not_guessed() -> None:
    """ "Root anchor and tonk": defensive or aggressive? Both readings shown, neither acted on."""
    got = read("Root anchor and tonk")
    [n] = got.not_understood
    assert set(n.readings) == {"Joe Root bats defensive", "Joe Root bats aggressive"}
    assert got.orders == read("").orders


def test_idioms_read_where_they_stand() -> None:
    """Two batsmen, two idioms: each his own style."""
    assert read("Root block, Stokes slog").echo_text() == (
        "Joe Root bats defensive\nBen Stokes bats wahoo"
    )


def test_an_unknown_word_is_named_with_the_reading_without_it() -> None:
    """A word that may carry meaning and is not known is named, caret under it, with what
    pbm reads without it; nothing is acted on."""
    got = read("Root bats aggressive unless it rains")
    [e] = got.errors
    assert "'rains'" in e.message and got.orders == read("").orders


@settings(max_examples=40, deadline=None)
@given(
    lines=st.lists(st.sampled_from(CANONICAL), min_size=1, max_size=5),
    noise=st.lists(st.sampled_from(CHATTER), min_size=1, max_size=4),
    data=st.data(),
)
def test_chatter_lines_never_change_orders(
    lines: list[str], noise: list[str], data: st.DataObject
) -> None:
    """Chatter mixed anywhere into a mail changes no order and is no error."""
    mixed = list(lines)
    for n in noise:
        mixed.insert(data.draw(st.integers(0, len(mixed))), n)
    plain, noisy = read("\n".join(lines)), read("\n".join(mixed))
    assert noisy.orders == plain.orders
    assert (
        noisy.errors == plain.errors
        or [str(e) for e in noisy.errors] == [str(e) for e in plain.errors]
        or len(noisy.errors) == len(plain.errors)
    )


@settings(max_examples=40, deadline=None)
@given(lines=st.lists(st.sampled_from(CANONICAL), min_size=1, max_size=6))
def test_canonical_forms_read_back_to_themselves(lines: list[str]) -> None:
    """What pbm writes back reads back to the same orders and the same words."""
    first = read("\n".join(lines))
    again = read(canonical(first.orders))
    assert again.orders == first.orders
    assert read(again.echo_text()).echo_text() == again.echo_text()

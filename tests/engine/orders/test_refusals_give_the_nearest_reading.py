"""A refused line says the nearest reading pbm can make of it, in the player's words, with
what it left out; shown, never acted on (issue 24; docs/rules/orders-unknown-words.md, "The
nearest reading of a refused line"). The lines are written for these tests, in the classes
the search handles, never taken from the corpus."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, _nearest, canonical, parse_orders
from engine.flungo.orders import Orders
from tests.engine.orders.squad import fixture_team, opponent_team

FIFTY = FORMATS[Format.FIFTY]


def read(text: str) -> ParsedOrders:
    return parse_orders(text, fixture_team(), FIFTY, context=OrderContext(opponent=opponent_team()))


# (the line, what pbm could read it as, the words it leaves out)
SHOWN = [
    # a condition no order can wait on, with no count in it
    ("Stokes aggressive if the sun's out", "Ben Stokes bats aggressive", ["if the sun's out"]),
    ("Tom Smith defensive, if the clouds roll in", "Tom Smith bats defensive", ["if the clouds"]),
    ("Green bats normal unless the pitch gets sticky", "Green bats normal", ["unless the pitch"]),
    ("Root defensive till he gets his eye in", "Joe Root bats defensive", ["till he gets"]),
    ("Stokes aggressive provided he feels fit", "Ben Stokes bats aggressive", ["provided"]),
    ("Wilson wahoo when the mood takes him", "Wilson bats wahoo", ["when the mood"]),
    # a trailing clause after a comma that does not read
    ("Grey on defensive pls, blunt the seamers", "Grey bats defensive", ["blunt the seamers"]),
    ("Jimmy Anderson on normal, keep it tidy", "Jimmy Anderson bats normal", ["keep it tidy"]),
    ("Stone on defensive, nurdle and nudge", "Stone bats defensive", ["nurdle and nudge"]),
    # a limit word with nothing to limit, and the remark beside it
    ("Steve Smith normal only, nothing daft", "Steve Smith bats normal", ["only"]),
    # the refusal's own "did you mean", with a remark left out
    ("Ben Stokes bats agressiv, he fancies it today", "Ben Stokes bats aggressive", ["fancies"]),
    # a word of no meaning between a name and a style
    ("Root on aggressive, bish bash bosh", "Joe Root bats aggressive", ["bish bash bosh"]),
    ("Freddie on wahoo, whack it", "Freddie Flintoff bats wahoo", ["whack it"]),
    ("Warne on normal, steady eddie", "Shane Warne bats normal", ["steady eddie"]),
    ("Taylor on defensive if the crowd gets rowdy", "Taylor bats defensive", ["if the crowd"]),
    (
        "Stokes normal till drinks twiddle",
        "after 0 balls: Ben Stokes bats normal, until drinks",
        [],
    ),
]


@pytest.mark.parametrize(("line", "reading", "left"), SHOWN)
def test_a_refused_line_says_what_pbm_could_read(line: str, reading: str, left: list[str]) -> None:
    """The line stays refused, and its error says, in the player's words, what pbm could
    read and what that leaves out; the reading is the order the words left say."""
    got = read(line)
    assert got.errors, got.echo_text()
    assert got.orders == Orders()  # shown, never acted on
    assert len(got.nearest) == 1
    near = got.nearest[0]
    assert read(near.reading).orders == read(reading).orders
    assert all(any(w in out for out in near.left_out) for w in left), near.left_out
    hint = got.errors[0].hint or ""
    assert f'pbm could read this as: "{near.text}"' in hint
    assert hint.endswith("write it like that to have it")


@pytest.mark.parametrize(
    "line",
    [
        "Stokes wahoo when we zoom past 150",  # a condition with a count
        "Root aggressive, Stokes gets a bit of licence too",  # a squad member
        "Root bats normal, Stokes bludgeons",
        "Stokes aggressive once we've knocked off 80 quickly-ish",  # a count again
    ],
)
def test_nothing_is_offered_that_leaves_out_a_name_a_number_or_a_count(line: str) -> None:
    """A reading that would leave out a squad member, a number or a condition that holds a
    count is never offered: the search does not go there (measured: such readings were
    most often not what the player meant)."""
    got = read(line)
    assert got.errors
    assert got.nearest == ()


def test_a_line_that_reads_is_never_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search runs only on lines refused: a mail whose lines read costs nothing more."""

    def boom(*args: object) -> None:
        raise AssertionError("searched a line that reads")

    monkeypatch.setattr(_nearest, "_search", boom)
    got = read("Root bats aggressive\nafter 30 overs, if 3 or fewer down: all batsmen wahoo")
    assert not got.errors and got.nearest == ()


def test_the_search_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many clauses and unknown words a line holds, at most MAX_TRIES readings
    are tried for it (and one to tidy what is found); a line longer than any fan writes is
    not searched at all."""
    calls = []
    real = _nearest._reading

    def counted(*args: object) -> str | None:
        calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(_nearest, "_reading", counted)
    made_up = [f"zorb{chr(97 + k % 26)}{chr(97 + k // 26)}" for k in range(60)]
    line = "Root on aggressive, " + ", ".join(f"{w} wibbly" for w in made_up[:25])
    assert len(line) < 400
    read(line)
    assert 0 < len(calls) <= _nearest.MAX_TRIES + 1
    calls.clear()
    read("Root on aggressive, " + ", ".join(f"{w} wibbly {w}" for w in made_up))
    assert calls == []  # a line of over 400 characters is a paste, not searched


def test_the_gms_flag_gets_the_reading() -> None:
    """A refused line flagged to the GM carries the nearest reading, as its one reading,
    and says it in its reason."""
    got = read("Stokes aggressive if the sun's out")
    (flag,) = got.not_understood
    assert flag.readings == ("Ben Stokes bats aggressive",)
    assert 'pbm could read this as: "Stokes aggressive"' in flag.reason


def test_a_nearest_reading_acts_on_nothing_in_a_mail() -> None:
    """In a mail, the refused line's suggestion changes nothing of what the other lines
    give: the orders are those of the mail without the line."""
    mail = "Root bats aggressive\nGrey on defensive pls, blunt the seamers\ntoss: bat"
    got = read(mail)
    assert got.nearest and got.nearest[0].line == 2
    assert got.orders == read("Root bats aggressive\ntoss: bat").orders


_ORDERS = [
    "Stokes aggressive",
    "Grey on defensive",
    "Root bats normal",
    "Jimmy Anderson on wahoo",
    "Tom Smith defensive till drinks",
    "Warne bowls overs 1, 3, 5",
    "Wilson keeps wicket",
]
_TAILS = [
    "if the sun's out",
    ", blunt the seamers",
    ", bish bash bosh",
    "unless the pitch gets sticky",
    ", only nothing daft",
    "lol he fancies it",
    ", whack it",
    "provided he feels fit",
]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(_ORDERS), st.sampled_from(_TAILS))
def test_a_suggestion_read_as_written_reads_back_to_itself(order: str, tail: str) -> None:
    """Whatever is suggested, read as written, reads without an error as the reading shown,
    whose canonical form reads back to itself; and the line itself acts on nothing."""
    line = f"{order}{tail}" if tail.startswith(",") else f"{order} {tail}"
    got = read(line)
    for near in got.nearest:
        assert got.orders == Orders()
        again = read(near.text)
        assert not again.errors and not again.not_understood, (near, again.errors)
        assert again.orders == read(near.reading).orders
        echo = canonical(again.orders)
        assert read(echo).orders == again.orders

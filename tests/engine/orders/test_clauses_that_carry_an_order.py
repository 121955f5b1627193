"""A fan's line read by its clauses: the ones that carry an order are read, asides are let
pass, and nothing that may carry meaning is ever dropped silently (engine/flungo/language/
_clauses.py)."""

from __future__ import annotations

import re

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, parse_orders
from engine.flungo.language._clauses import Clauses, carries_meaning
from engine.flungo.language._meaning import lexicon
from tests.engine.orders.squad import fixture_team, opponent_team

FIFTY = FORMATS[Format.FIFTY]
T20 = FORMATS[Format.T20]


def read(text: str, fmt: object = FIFTY) -> ParsedOrders:
    return parse_orders(text, fixture_team(), fmt, context=OrderContext(opponent=opponent_team()))  # type: ignore[arg-type]


_QUOTED = re.compile(r"(?<![\w'])'([^']+)'(?!\w)")


def _acted_on(got: ParsedOrders) -> bool:
    return not got.errors and not got.not_understood and got.echo_text() != ""


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "Wilson at six: normal; as our only wicketkeeper he cannot be reckless.",
            "Wilson bats normal",
        ),
        ("Stokes aggressive since the pitch is flat", "Ben Stokes bats aggressive"),
        ("Stokes aggressive, he is our anchor and a fine fellow", "Ben Stokes bats aggressive"),
        ("tom smith defensive hes a bit rubbish", "Tom Smith bats defensive"),
        ("Root is to bat normally, as befits an opener", "Joe Root bats normal"),
    ],
)
def test_an_aside_is_let_pass(line: str, echo: str) -> None:
    """A clause with no style, number, comparison, guard or order verb in it (a reason, a
    remark about the batsman the order names) is let pass; the order is read."""
    got = read(line)
    assert _acted_on(got), (got.errors, got.not_understood)
    assert got.echo_text() == echo


@pytest.mark.parametrize(
    "line",
    [
        "Wilson keeps wicket, Taylor sits out",  # Taylor's aside may be his own order
        "Root aggressive, Stokes too",  # a lone name: Stokes aggressive too, perhaps
        "Root normal, not before drinks",
    ],
)
def test_a_clause_that_may_carry_meaning_is_never_dropped(line: str) -> None:
    """A clause that names a player the order does not, a lone name, or a negation is never
    let pass as an aside: the line is refused with a word of it named, never read without."""
    got = read(line)
    assert got.errors
    low = line.lower()
    assert any(q.lower() in low for e in got.errors for q in _QUOTED.findall(e.message))


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        ("Anderson and Rock, defensive", "Jimmy Anderson bats defensive\nRock bats defensive"),
        ("Steve Smith bats, normal", "Steve Smith bats normal"),
        (
            "Tail - Warne, Anderson, Stone - wahoo",
            "Shane Warne bats wahoo\nJimmy Anderson bats wahoo\nStone bats wahoo",
        ),
        ("7th wicket goes, it's wahoo for whoever's left", None),
    ],
)
def test_a_style_said_apart_belongs_to_its_batsmen(line: str, echo: str | None) -> None:
    """A style in a clause of its own belongs to the batsmen just named; a group word before
    the names that say who it is gives way to them; "wahoo for X" is X's style."""
    got = read(line)
    assert _acted_on(got), (got.errors, got.not_understood)
    want = echo or "when the 7th wicket falls: the remaining batsmen bat wahoo"
    assert got.echo_text() == want


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "250 or more at 45 overs, everyone wahoo",
            "after 45 overs, if score >= 250: all batsmen bat wahoo",
        ),
        (
            "After 20 overs, 2 down or less, Root and Tom Smith go up a gear. Aggressive.",
            "after 20 overs, if wickets <= 2: Joe Root and Tom Smith bat aggressive",
        ),
        (
            "run rate under 4 at 25 overs, Stokes and Fred go aggressive",
            "after 25 overs, if run rate < 4: Ben Stokes and Freddie Flintoff bat aggressive",
        ),
        (
            "Chasing: if required rate goes above 10 then everyone aggressive",
            "if required rate > 10: all batsmen bat aggressive",
        ),
        (
            "when we need more than 7 an over chasing everyone agressive",
            "if required rate > 7: all batsmen bat aggressive",
        ),
    ],
)
def test_a_condition_said_without_if_is_a_condition(line: str, echo: str) -> None:
    """A comparison before the order it guards is a condition, whatever words lead it: a
    bare number is the score, "an over" the run rate, needing runs the required rate."""
    got = read(line)
    assert _acted_on(got), (got.errors, got.not_understood)
    assert got.echo_text() == echo


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "5 for under 100 the rest go defensive",
            "when the 5th wicket falls, if score < 100: the remaining batsmen bat defensive",
        ),
        (
            "3 for 120 or better at drinks, Fred and Green aggressive",
            "at drinks, if wickets <= 3 and score >= 120: "
            "Freddie Flintoff and Green bat aggressive",
        ),
        (
            "Lose 3 inside the first 10 and everyone shuts up shop till drinks.",
            "when the 3rd wicket falls, if overs < 10: all batsmen bat defensive, until drinks",
        ),
    ],
)
def test_commentators_scores_and_wickets(line: str, echo: str) -> None:
    """ "5 for under 100" is the 5th wicket falling under 100; "3 for 120 or better" at a
    time is a mark to be at or past with at most those wickets down."""
    got = read(line)
    assert _acted_on(got), (got.errors, got.not_understood)
    assert got.echo_text() == echo


def test_an_aside_about_the_order_is_left_out_whole() -> None:
    """Asides are left out fewest first (one, then two ...), the clauses that carry meaning
    kept in their order; a text with nothing left that carries an order is never offered.
    A reason ("as ...") carries meaning only if it says when or how."""
    cl = Clauses("root bats normally, as our only opener he is careful, i hope")
    assert [carries_meaning(u) for u in cl.units] == [True, False, False]
    assert cl.drop_sets(None) == [
        ["root bats normally, i hope", "root bats normally, as our only opener he is careful"],
        ["root bats normally"],
    ]
    assert Clauses("i hope, as you know").drop_sets(None) == [[], []]


@pytest.mark.parametrize("filler", sorted(set(lexicon().filler)))
def test_every_filler_entry_changes_no_order(filler: str) -> None:
    """Every word the lexicon lets pass, written beside a plain order, leaves it the same
    order, or is refused with a word named: it never reads as another order."""
    plain = read("Joe Root bats aggressive").orders
    got = read(f"Root aggressive {filler}")
    if got.errors or got.not_understood:
        assert got.errors or any(n.readings for n in got.not_understood)
        return
    assert got.orders == plain


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "Batting, only burn a review for the top 6. Tail can walk.",
            "batting reviews: only for the top 6",
        ),
        ("reviews: use them on every lbw when we bowl", "bowling reviews: all"),
        (
            "Batting reviews - only when Root or Stokes is given lbw, don't waste on tail",
            "batting reviews: only for Joe Root, Ben Stokes",
        ),
        ("DRS when batting: not for our last 3", "batting reviews: only for the top 8"),
    ],
)
def test_reviews_in_fans_words(line: str, echo: str) -> None:
    """A review order is its side (batting, bowling, "when we bowl") and whom it is for (the
    top so many, not the last so many, squad members after "only", everyone), wherever the
    words stand."""
    got = read(line)
    assert _acted_on(got), (got.errors, got.not_understood)
    assert got.echo_text() == echo


@pytest.mark.parametrize(
    "line",
    [
        "batting reviews: keep for top 4 till over 45, after that anyone",  # a time: two orders
        "reviews when we bat and when we bowl: not Root",  # which side, and for or against?
    ],
)
def test_a_review_line_with_a_time_or_a_doubt_is_not_read_as_one(line: str) -> None:
    """A review line that says when, or leaves whose side or whom in doubt, is never read
    as a plain review order."""
    assert not _acted_on(read(line))


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "Should we be five wickets down with fewer than 120 on the board, all remaining "
            "batsmen are to bat defensively and see out the fifty overs",
            "when the 5th wicket falls, if score < 120: the remaining batsmen bat defensive",
        ),
        (
            "should we lose three wickets inside the first six overs, the next two batsmen in "
            "are to bat normally until the tenth over is done.",
            "when the 3rd wicket falls, if overs < 6: the next 2 batsmen bat normal, "
            "until after 10 overs",
        ),
    ],
)
def test_a_formal_letters_conditions(line: str, echo: str) -> None:
    """A county scorer's "should we be five wickets down with fewer than 120 on the board"
    is the 5th wicket with the score under 120; "the next two batsmen in", the next two."""
    got = read(line)
    assert _acted_on(got), (got.errors, got.not_understood)
    assert got.echo_text() == echo


def test_a_word_that_may_carry_meaning_is_named_with_the_reading_without_it() -> None:
    """ "out early (before over 5)": "early" may say more than the overs do, so the line is
    not acted on; the answer names it and shows what pbm read without it."""
    got = read("If Stokes gets out early (before over 5) Tom Smith comes in and plays normal")
    assert got.errors and "'early'" in got.errors[0].message
    assert got.not_understood[0].readings == (
        "when Ben Stokes is out, if overs < 4: Tom Smith bats normal",
    )


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "Root defensive till drinks, then normal",
            "after 0 overs: Joe Root bats defensive; but at drinks: Joe Root bats normal",
        ),
        (
            "After drinks, under 4 an over, Steve Smith and Fred aggressive till the 6th goes, "
            "then back to normal",
            "at drinks, if run rate < 4: Steve Smith and Freddie Flintoff bat aggressive; "
            "but when the 6th wicket falls: Steve Smith and Freddie Flintoff bat normal",
        ),
        (
            "after drinks if 4 or less down go agressive but back 2 normal at 6 down",
            "at drinks, if wickets <= 4: all batsmen bat aggressive; "
            "but when the 6th wicket falls: all batsmen bat normal",
        ),
    ],
)
def test_styles_in_turn(line: str, echo: str) -> None:
    """Two styles in turn for the same batsmen: the second starts where the first one's
    "until" ends, or at the time said with it ("but back to normal at 6 down")."""
    got = read(line)
    assert _acted_on(got), (got.errors, got.not_understood)
    assert got.echo_text() == echo


def test_a_score_keeps_the_order_the_fan_wrote() -> None:
    """ "150 for 2 at 30 overs" is the score, then the wickets; the Australian "2 for 150",
    the wickets, then the score: the echo says it back in the fan's order."""
    runs_first = read("150 for 2 at 30 overs, everyone aggressive")
    wickets_first = read("2 for 150 at 30 overs, everyone aggressive")
    assert runs_first.echo_text() == (
        "after 30 overs, if score >= 150 and wickets <= 2: all batsmen bat aggressive"
    )
    assert wickets_first.echo_text() == (
        "after 30 overs, if wickets <= 2 and score >= 150: all batsmen bat aggressive"
    )


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "When we have lost 5 wickets, the remaining batsmen play defensive.",
            "when the 5th wicket falls: the remaining batsmen bat defensive",
        ),
        (
            "Until over 10 Root plays defensive.",
            "after 0 balls: Joe Root bats defensive, until after 10 overs",
        ),
        ("Stokes should play aggressive from the beginning.", "Ben Stokes bats aggressive"),
        (
            "At 20 overs, if less than 80 runs, all aggressive.",
            "after 20 overs, if score < 80: all batsmen bat aggressive",
        ),
        (
            "Chasing and need more than 7 an over with 10 left - all wahoo",
            "when 60 balls are left, if required rate > 7: all batsmen bat wahoo",
        ),
    ],
)
def test_plain_words_for_wickets_overs_and_scores(line: str, echo: str) -> None:
    """Wickets lost, an "until" leading the line, overs left ("with 10 left"), a score in
    runs after "if": each in the grammar's words, whatever the order of the clauses."""
    got = read(line)
    assert _acted_on(got), (got.errors, got.not_understood)
    assert got.echo_text() == echo


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        ("Root captain, Wilson keeper", "captain: Joe Root\nwicketkeeper: Wilson"),
        ("Wilson takes the gloves", "wicketkeeper: Wilson"),
        (
            "when 6 wkts gone rest slog",
            "when the 6th wicket falls: the remaining batsmen bat wahoo",
        ),
        (
            "after 15 overs if less than 3 down go aggressive",
            "after 15 overs, if wickets < 3: all batsmen bat aggressive",
        ),
        (
            "if 4 down at drinks, tail defensive",
            "at drinks, if wickets >= 4: the remaining batsmen bat defensive",
        ),
        ("if RRR > 9 all wahoo", "if required rate > 9: all batsmen bat wahoo"),
        ("Stokes to tonk it from ball one", "Ben Stokes bats aggressive"),
    ],
)
def test_selection_and_wickets_as_fans_say_them(line: str, echo: str) -> None:
    """A job said after the name, the keeper's gloves, wickets "gone", "less than 3 down",
    a time after the wickets it looks at, the asking rate's initials, "tonk it"."""
    got = read(line)
    assert _acted_on(got), (got.errors, got.not_understood)
    assert got.echo_text() == echo


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "Root aggressive. When Stokes is out, Tom Smith defensive.",
            "Joe Root bats aggressive\nwhen Ben Stokes is out: Tom Smith bats defensive",
        ),
        (
            "if 50 needed off 30 balls then all wahoo",
            "when 30 balls are left, if runs needed >= 50: all batsmen bat wahoo",
        ),
        (
            "after 10 overs with 2 or fewer down, Root aggressive",
            "after 10 overs, if wickets <= 2: Joe Root bats aggressive",
        ),
        (
            "Root aggressive if the run rate is under 5 at drinks",
            "at drinks, if run rate < 5: Joe Root bats aggressive",
        ),
        (
            "2 down after 10, Stokes defensive",
            "after 10 overs, if wickets >= 2: Ben Stokes bats defensive",
        ),
    ],
)
def test_orders_and_conditions_in_any_order(line: str, echo: str) -> None:
    """Two sentences are two orders, each read whole; a condition after its order, wickets
    "with" a time, runs "needed off" balls, "after 10" at a clause's end: the order each says."""
    got = read(line)
    assert _acted_on(got), (got.errors, got.not_understood)
    assert got.echo_text() == echo


def test_two_orders_in_a_line_are_read_only_whole() -> None:
    """A line of two orders is read only if each reads plainly: one it cannot read, and
    neither is acted on."""
    got = read("Root aggressive. When Stokes is out, Tom Smith goes berserkish.")
    assert got.errors and got.orders == read("").orders


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        ("Stokes captains, Wilson keeps", "captain: Ben Stokes\nwicketkeeper: Wilson"),
        ("Stokes is captain and Wilson keeps wicket", "captain: Ben Stokes\nwicketkeeper: Wilson"),
        ("treat Rock with 2 points", "treat Rock: 2"),
        ("2 points to treat Rock", "treat Rock: 2"),
        (
            "Root normal till 40 then aggressive",
            "after 0 overs: Joe Root bats normal; but after 40 overs: Joe Root bats aggressive",
        ),
    ],
)
def test_whole_orders_joined_by_a_comma_or_and(line: str, echo: str) -> None:
    """Selection orders joined by a comma or "and" are each read whole; helper points said
    either way round; "till 40 then aggressive" is a second style from the 40th over."""
    got = read(line)
    assert _acted_on(got), (got.errors, got.not_understood)
    assert got.echo_text() == echo


@pytest.mark.parametrize(
    "line",
    [
        "In the powerplay Root and Stokes aggressive, after that normal",
        "Root and Stokes aggressive in the powerplay, then normal",
    ],
)
def test_a_phase_then_another_style(line: str) -> None:
    """A style for the first overs (or a phase of them), then another: the second starts
    where the first overs end."""
    got = read(line)
    assert _acted_on(got), (got.errors, got.not_understood)
    assert got.echo_text() == (
        "after 0 overs: Joe Root and Ben Stokes bat aggressive; "
        "but after 10 overs: Joe Root and Ben Stokes bat normal"
    )


def test_a_style_before_everyone() -> None:
    """ "..., wahoo everyone": the style said before the batsmen it is for."""
    got = read("after 45 overs if we r 8 or less down wahoo everyone")
    assert got.echo_text() == "after 45 overs, if wickets <= 8: all batsmen bat wahoo"


@pytest.mark.parametrize("sep", ["; ", ", ", ". "])
def test_a_time_said_after_two_orders_is_the_last_ones(sep: str) -> None:
    """ "Root aggressive; Stokes defensive after 20 overs": the time said at the end guards
    the order it follows, never both (it used to guard both, silently); said first, with a
    colon, it guards all of them."""
    got = read(f"Root aggressive{sep}Stokes defensive after 20 overs")
    assert got.echo_text().splitlines() == [
        "Joe Root bats aggressive",
        "after 20 overs: Ben Stokes bats defensive",
    ]
    both = read("after 20 overs: Root aggressive; Stokes defensive")
    assert both.echo_text().strip() == (
        "after 20 overs: Joe Root bats aggressive; Ben Stokes bats defensive"
    )

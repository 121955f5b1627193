"""Words pbm does not know: which pass, which are named; lines that build no order are chatter;
reasons, asides and small turns of structure (docs/rules/orders-unknown-words.md)."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, parse_orders
from engine.flungo.language._clauses import CORE_WORDS, Clauses, carries_meaning
from engine.flungo.language._meaning import lexicon
from engine.flungo.language._unknown import bare, may_carry
from tests.engine.orders.squad import fixture_team, opponent_team

FIFTY = FORMATS[Format.FIFTY]
T20 = FORMATS[Format.T20]


def read(text: str, fmt: object = FIFTY) -> ParsedOrders:
    return parse_orders(text, fixture_team(), fmt, context=OrderContext(opponent=opponent_team()))  # type: ignore[arg-type]


def echo(text: str, fmt: object = FIFTY) -> str:
    got = read(text, fmt)
    assert not got.errors and not got.not_understood, (got.errors, got.not_understood)
    return got.echo_text()


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("Root bats aggressive, he is in splendid nick", "Joe Root bats aggressive"),
        ("Stokes and Root open, the pitch looks lovely", "batting order: Ben Stokes, Joe Root"),
        ("Wilson keeps wicket, Taylor can fetch the drinks", "wicketkeeper: Wilson"),
        ("Tom Smith defensive so that we do not crumble", "Tom Smith bats defensive"),
        ("Stokes goes wahoo to get the runs quickly", "Ben Stokes bats wahoo"),
        ("Green wahoo, he is honestly not a great batsman", "Green bats wahoo"),
        ("Root normal, the pitch is not great", "Joe Root bats normal"),
        ("if stokes out then root go defensive so we dont collapse", None),
    ],
)
def test_a_word_that_carries_nothing_passes_when_the_rest_is_an_order(
    line: str, canonical: str | None
) -> None:
    """An unknown word that cannot change an order (a remark, a reason, a purpose) passes
    when the line without it is a whole order: the reading is the order's alone."""
    want = canonical or "when Ben Stokes is out: Joe Root bats defensive"
    assert echo(line) == echo(want)


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("Root bats semi aggressive", "semi"),  # just before a style
        ("If we are cruising at drinks, Fred wahoo", "cruising"),  # inside a condition
        ("Root aggressive, Stokes bludgeons", "bludgeons"),  # what a squad member does
        ("Root bats aggressive, approx 10 overs", "approx"),  # before a number
        ("Wilson keeps wicket, Taylor sits out", "sits"),
        ("Root aggressive, Stokes is not wahoo", "not"),  # a negated style is no remark
    ],
)
def test_a_word_that_may_carry_meaning_is_named_and_nothing_acted_on(line: str, word: str) -> None:
    """An unknown word that may change the order is never let pass: the line is refused,
    naming the word, and nothing of it is acted on."""
    got = read(line)
    assert any(f"'{word}'" in e.message for e in got.errors), got.errors
    assert got.orders == read("").orders


def test_every_carries_word_stops_a_line_from_passing() -> None:
    """Each word of the lexicon's [carries] list, unknown beside an order, is never let
    pass as a word that says nothing."""
    for word in sorted(lexicon().carries):
        assert may_carry(word, f"root bats aggressive {word} he", frozenset({"root"})), word


def test_a_hyphen_joins_a_word_to_its_meaning() -> None:
    """ "vice-captain": the unknown half changes the known one."""
    assert may_carry("vice", "stokes is vice-captain", frozenset({"stokes"}))


def test_bare_takes_the_empty_words_with_the_word_but_no_word_of_time() -> None:
    """The empty words beside a word that passes go with it; words that say when stay."""
    assert bare("stone at 10, normal is enough", ["enough"]) == "stone at 10, normal"
    assert bare("root defensive we don't collapse", ["collapse"]) == "root defensive"
    assert bare("root wahoo at the glorious death", ["glorious"]) == "root wahoo at death"


@pytest.mark.parametrize(
    "line",
    [
        "Oh well, last season was a disaster, I hope this time the Gungers play better.",
        "A question: does it ever snow? I heard the Flungonians control the weather.",
        "Last week was a catastrophe, truly.",
    ],
)
def test_a_line_that_builds_no_order_is_chatter(line: str) -> None:
    """No squad member, style, order word or counted condition: a remark, whatever words
    pbm does not know are in it. It costs nothing and is no error."""
    got = read(line)
    assert not got.errors and got.orders == read("").orders
    assert got.chatter


@pytest.mark.parametrize(
    "line",
    ["Rooty is vice-captain", "Stokes bats at 3 unless it rains", "Warne bowls round the wicket"],
)
def test_a_line_with_meaning_is_never_let_pass_as_chatter(line: str) -> None:
    """A line that names a squad member with what he is to do is refused when unread,
    never taken for a remark."""
    got = read(line)
    assert got.errors and not got.chatter


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        (
            "If after 30 overs we have lost not more than 4 wickets, all batsmen go aggressive",
            "after 30 overs, if wickets <= 4: all batsmen bat aggressive",
        ),
        (
            "If Stokes is still in at the 35th over he goes wahoo",
            "after 34 overs, if Ben Stokes is in: Ben Stokes bats wahoo",
        ),
        (
            "If the required rate is over 8 per over, everyone aggressive from the 25th over on",
            "after 24 overs, if required rate > 8: all batsmen bat aggressive",
        ),
    ],
)
def test_a_time_said_inside_a_condition_goes_first(line: str, canonical: str) -> None:
    """A condition and the one time its order starts at, said in any order: the time, then
    the condition checked at it."""
    assert echo(line) == echo(canonical)


def test_should_he_be_out_is_his_wicket() -> None:
    """ "Should Root be out, ..." is "when Joe Root is out"."""
    assert echo("Should Root be out, Tom Smith bats defensive") == echo(
        "when Joe Root is out: Tom Smith bats defensive"
    )


def test_a_score_we_have_is_so_many_or_more() -> None:
    """ "When we have 250 after 40 overs" is a score of 250 or more, checked at 40 overs;
    "for the last ten" from over 41 of 50 is to the end, which the order lasts anyway."""
    assert echo("When we have 250 after 40 overs, wahoo for everyone for the last ten.") == echo(
        "after 40 overs, if score >= 250: all batsmen bat wahoo"
    )


def test_except_him_with_his_own_style() -> None:
    """ "everyone normal, except Fred, he stays aggressive": his style and the rest's."""
    assert echo("Overs 11 to 40 everyone normal, except Fred, he stays aggressive") == echo(
        "after 10 overs: Freddie Flintoff bats aggressive; all batsmen bat normal except "
        "Freddie Flintoff, until after 40 overs"
    )


def test_the_batsmen_in_the_middle_are_at_the_crease() -> None:
    """ "in the middle" after the batsmen is where they are, not the middle overs."""
    assert echo("In the last five overs the batsmen in the middle go wahoo") == echo(
        "when 30 balls are left: the remaining batsmen bat wahoo"
    )


def test_eight_or_nine_down_is_eight_or_more() -> None:
    """With 10 wickets to an innings, "8 or 9 down" is 8 or more down."""
    assert echo("after 40 overs, if 8 or 9 down, all batsmen defensive") == echo(
        "after 40 overs, if wickets >= 8: all batsmen bat defensive"
    )


def test_a_number_word_is_quoted_whole_in_an_error() -> None:
    """A number written as a word is read as its digits; an error at it quotes the word."""
    got = read("captain twenty")
    assert any("'twenty'" in e.message for e in got.errors), got.errors


def test_a_reason_is_an_aside_but_never_one_with_a_number_or_style() -> None:
    """The reason after an order is its own; one that says how many or how is not."""
    cl = Clauses("root defensive, because we don't collapse")
    assert cl.without_reasons() == "root defensive"
    assert Clauses("root defensive, because 5 down").without_reasons().endswith("5 down")


def test_the_core_words_make_a_clause_an_orders() -> None:
    """A clause with one of the core words is never an aside."""
    for word in sorted(CORE_WORDS):
        assert carries_meaning(f"he will {word} later"), word


@pytest.mark.parametrize(
    "line",
    [
        "powerplay aggressive, middle overs normal, death wahoo",
        "first 6 overs everyone aggressive, then normal till 16, then wahoo",
        "T20: first 6 all aggressive, normal 7 to 16, then wahoo",
        "overs 1-6 aggressive, 7-16 normal, 17-20 wahoo",
    ],
)
def test_styles_in_three_steps_are_an_order_for_each_step(line: str) -> None:
    """Styles in steps over the innings, each over its overs: one order from each step's
    first over (the later wins, so none needs an "until"); the phases are their overs."""
    got = echo(line, T20)
    assert got.startswith(
        "after 0 overs: all batsmen bat aggressive\nafter 6 overs: all batsmen bat normal\n"
    )
    assert got.endswith(": all batsmen bat wahoo")
    assert "after 16 overs" in got or "when 24 balls are left" in got


def test_steps_with_a_condition_are_not_steps() -> None:
    """A condition among the steps is the condition's to read: never split into steps."""
    got = read("first 6 overs aggressive, if 3 down normal, then wahoo", T20)
    assert "after 6 overs: all batsmen bat normal" not in got.echo_text()


def test_the_last_over_is_its_six_balls() -> None:
    """ "the last over" of a batting order is when 6 balls are left; "whoever is there" are
    the batsmen."""
    assert echo("Last over, if we need 12 or less, whoever is there, normal", T20) == echo(
        "when 6 balls are left, if we need 12 or fewer: all batsmen bat normal", T20
    )


def test_the_last_helper_point_on_a_skill_is_a_boost() -> None:
    """ "Last one on Stokesy's batting" is the one point a boost is; two points on one
    member are no boost, and are refused."""
    assert echo("Last one on Stokesy's batting") == echo("boost Ben Stokes: batting")
    assert echo("Boost: 1 point on Anderson bowling") == echo("boost Jimmy Anderson: bowling")
    assert read("Boost: 2 points on Anderson bowling.").errors


ORDER = (
    "batting order: Joe Root, Ben Stokes, Tom Smith, Steve Smith, Freddie Flintoff, Green, "
    "Wilson, Grey, Shane Warne, Jimmy Anderson, Rock"
)


@pytest.mark.parametrize(
    ("line", "who", "style"),
    [
        ("Grey at 8, normal", "Grey", "normal"),
        ("Wilson shuts up shop at 7. Defensive.", "Wilson", "defensive"),
        ("green 6, play it straight, normal", "Green", "normal"),
        ("Warney at 9 - tonk it. Full wahoo.", "Shane Warne", "wahoo"),
    ],
)
def test_a_style_after_a_place_is_that_batsmans_never_everyones(
    line: str, who: str, style: str
) -> None:
    """In a mail with the batting order, "Grey at 8, normal" is Grey's place and style: the
    style said after it is his, never every batsman's (and "6" is no over to bowl)."""
    got = read(ORDER + "\n" + line)
    assert not got.errors
    text = got.echo_text()
    assert f"{who} ({style})" in text
    assert text.count(f"bats {style}") == 0 and "bowls" not in text


@pytest.mark.parametrize(
    "line", ["everyone aggressive, Stokes wahoo", "Stokes wahoo, everyone aggressive"]
)
def test_in_one_line_the_batsman_named_wins_over_everyone(line: str) -> None:
    """ "everyone aggressive, Stokes wahoo" in one line: Stokes wahoo, the rest aggressive,
    whichever is written first (it made Stokes aggressive, silently)."""
    got = read(ORDER + "\n" + line)
    styles = dict(got.orders.match.styles) if got.orders.match else {}
    assert styles["Ben Stokes"].value == "wahoo"
    assert styles["Joe Root"].value == "aggressive"


@pytest.mark.parametrize("line", ["NAMEE 2 Zippy", "Bowlng: 3 overs for Anderson", "Capitan 7"])
def test_a_misspelt_order_word_with_a_number_is_named_not_let_pass_as_chatter(line: str) -> None:
    """A near miss of an order's first word followed by a number is a typed order gone wrong:
    it is refused naming the word, never counted as a remark that builds no order."""
    got = read(line)
    assert got.errors and line.split()[0].rstrip(":") in str(got.errors[0]), got
    assert not got.chatter


@pytest.mark.parametrize("line", ["Great win everyone!", "Nice one team", "Namely, good luck all"])
def test_a_remark_near_an_order_word_with_no_number_stays_chatter(line: str) -> None:
    """The misspelt-order rule needs a number: a remark whose first word is near an order word
    ("Great" and "treat", "Namely" and "name") is still free chatter."""
    got = read(line)
    assert not got.errors and got.chatter, got


def test_an_unknown_word_before_a_name_may_be_half_a_name_and_is_named() -> None:
    """With 'Jo Rooted' in the squad, "captain: Joe Root" is no order for Jo Rooted: 'Joe' may
    be the first half of a name pbm does not have, so it never passes unread."""
    from dataclasses import replace

    team = fixture_team()
    players = tuple(
        replace(p, name="Jo Rooted") if p.name == "Joe Root" else p for p in team.players
    )
    got = parse_orders("captain: Joe Root", replace(team, players=players), FIFTY)
    assert got.errors and "Joe Root" in str(got.errors[0]), got
    assert got.orders.match is None

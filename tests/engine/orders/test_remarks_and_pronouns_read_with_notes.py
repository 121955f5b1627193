"""Words and remarks that carry no meaning for an order are read past, and the answer says
so on the line; English's closed classes are filler even inside a condition; a refusal for
a word says what pbm reads without it (docs/rules/orders-unknown-words.md, "Notes").

Each rule is checked on ten lines written for these tests, in the style of fans' mail (none
is a corpus line), where it fires and where it must not."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import ParsedOrders
from tests.engine.orders.squad import read

FIFTY = FORMATS[Format.FIFTY]


def acted(text: str) -> ParsedOrders:
    got = read(text)
    assert not got.errors and not got.not_understood, (got.errors, got.not_understood)
    return got


def notes(got: ParsedOrders) -> list[str]:
    return [n.text for n in got.notes]


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "when I'm 4 down, Stokes defensive",
            "when the 4th wicket falls: Ben Stokes bats defensive",
        ),
        (
            "after 20 overs, if we've got 100, all batsmen aggressive",
            "after 20 overs, if score >= 100: all batsmen bat aggressive",
        ),
        (
            "when there's 5 overs left, all batsmen wahoo",
            "when 30 balls are left: all batsmen bat wahoo",
        ),
        (
            "when we've lost 3 wickets, all batsmen normal",
            "when the 3rd wicket falls: all batsmen bat normal",
        ),
        (
            "if I've got 6 wickets left after 40 overs, everyone aggressive",
            "after 40 overs, if wickets <= 4: all batsmen bat aggressive",
        ),
        (
            "when we're 7 down, the remaining batsmen defensive",
            "when the 7th wicket falls: the remaining batsmen bat defensive",
        ),
        (
            "after 30 overs, if I've lost 3 or fewer, Stokes aggressive",
            "after 30 overs, if wickets <= 3: Ben Stokes bats aggressive",
        ),
        ("I'd like Root to bat normal", "Joe Root bats normal"),
        ("once I'm 2 down, Root normal", "when the 2nd wicket falls: Joe Root bats normal"),
        (
            "if we've got 150 after 35 overs, Stokes wahoo",
            "after 35 overs, if score >= 150: Ben Stokes bats wahoo",
        ),
    ],
)
def test_pronouns_and_contractions_pass_even_in_a_condition(line: str, echo: str) -> None:
    """A pronoun, a contraction or an auxiliary says nothing for an order, a condition's
    included: the line is read as it would be without it, with no note (it is no word pbm
    read past, only grammar)."""
    got = acted(line)
    assert got.echo_text() == echo
    assert notes(got) == []


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("if they're bowling spin, Root defensive", "they're"),
        ("once they're 4 down, Root aggressive", "they're"),
        ("when their spinner is on, all batsmen normal", "their"),
        ("if they've scored 200, Root aggressive", "they've"),
        ("if they are 150 after 30 overs, all batsmen wahoo", "they"),
        ("when they take the new ball, Stokes defensive", "they"),
        ("until they bring Garner back, Root aggressive", "they"),
        ("if they've lost 5, all batsmen aggressive", "they've"),
        ("whenever they're on top, Tom Smith defensive", "they're"),
        ("when their quicks come back, everyone normal", "their"),
    ],
)
def test_a_condition_on_them_is_refused_naming_the_word(line: str, word: str) -> None:
    """A condition whose subject is "they" (the other side's bowling, fielding or score, or
    no one the line names) is never read as a condition on our side: refused, the word
    named with the caret under it, nothing acted on."""
    got = read(line)
    [e] = got.errors
    assert f"'{word}'" in e.message and got.orders == read("").orders
    assert e.span is not None and line[e.span.column - 1 :].lower().startswith(word.lower())


@pytest.mark.parametrize(
    ("line", "echo", "passed"),
    [
        ("Stokes aggressive; the weather looks grim", "Ben Stokes bats aggressive", "the weather"),
        ("Wilson keeps wicket - best hands in the club", "wicketkeeper: Wilson", "best hands"),
        ("toss: bat. Lovely day for it", "toss: bat", "Lovely day"),
        ("Green bats wahoo (he enjoys the crowd)", "Green bats wahoo", "he enjoys"),
        ("captain: Root. He earned it last week", "captain: Joe Root", "He earned"),
        ("Stokes bats wahoo. What a hitter that man is", "Ben Stokes bats wahoo", "What a hitter"),
        ("Root bats normal. I have never seen a pitch like it", "Joe Root bats normal", "I have"),
        (  # the issue's own: "should we" is "if we", and the second clause is chatter
            "Should we win the toss, we shall bat; I have never yet known a cracked pitch "
            "improve with wear",
            "toss: bat",
            "I have never yet known",
        ),
        (  # in a sentence of its own, "greener" in lower case is English, not Green
            "Root bats normal. I have never seen a greener pitch",
            "Joe Root bats normal",
            "greener",
        ),
        ("Tom Smith defensive - the lad needs time", "Tom Smith bats defensive", "lad"),
        (
            "Root bats aggressive, he is in splendid nick",
            "Joe Root bats aggressive",
            "splendid nick",
        ),
        (
            "xi: Root, Stokes, Tom Smith, Steve Smith, Freddie Flintoff, Wilson, Green, Grey, "
            "Shane Warne, Jimmy Anderson, Stone. Fingers crossed for the weather",
            "xi: Joe Root, Ben Stokes, Tom Smith, Steve Smith, Freddie Flintoff, Wilson, Green, "
            "Grey, Shane Warne, Jimmy Anderson, Stone",
            "Fingers crossed",
        ),
    ],
)
def test_a_clause_that_builds_no_order_is_passed_over_with_a_note(
    line: str, echo: str, passed: str
) -> None:
    """A sentence, a clause after a semicolon or a dash, or a parenthesis that builds no
    order is passed over; the order is read, and a note on the line names what was passed."""
    got = acted(line)
    assert got.echo_text() == echo
    assert any(passed in n for n in notes(got)), notes(got)


@pytest.mark.parametrize(
    "line",
    [
        "Root bats normal; Stokes is to bowl at the death twice",  # a name: an order clause
        "Root aggressive - Stokes sits this one out",
        "Root bats normal. Honestly I think Flintof deserves a go",  # a near miss of a name
        "Stokes wahoo (Green too)",
        "Root defensive. Stokes can please himself",
        "Root bats normal; Stokes has the gloves",
        "Stokes aggressive - Root keeps it steady",
        "Grey defensive (Wilson minds him)",
        "Wilson keeps wicket; Taylor wanders off",
        "Stokes aggressive. Freddie Flintoff the pinch hitter",
    ],
)
def test_a_clause_that_builds_an_order_and_does_not_read_refuses_the_line(line: str) -> None:
    """A clause with a squad member in it (or a near miss of one) builds an order: when it
    does not read, the line is refused and nothing of it is acted on, never read without it."""
    got = read(line)
    assert got.errors and got.orders == read("").orders, got.echo_text()


@pytest.mark.parametrize(
    ("line", "echo", "remark"),
    [
        ("Stokes bats aggressive, don't care how it looks", "Ben Stokes bats aggressive", "care"),
        ("Tom Smith defensive, not a time for heroes", "Tom Smith bats defensive", "heroes"),
        ("Stokes bats aggressive, never mind the crowd", "Ben Stokes bats aggressive", "crowd"),
        ("Root bats normal, no drama", "Joe Root bats normal", "drama"),
        ("Green wahoo, no regrets", "Green bats wahoo", "regrets"),
        ("Steve Smith aggressive, don't overthink it", "Steve Smith bats aggressive", "overthink"),
        ("Root normal, nothing clever", "Joe Root bats normal", "clever"),
        ("Grey defensive, no fuss", "Grey bats defensive", "fuss"),
        ("toss: bowl, no argument", "toss: bowl", "argument"),
        ("Wilson keeps wicket, no debate", "wicketkeeper: Wilson", "debate"),
    ],
)
def test_a_negated_remark_after_an_order_passes_with_a_note(
    line: str, echo: str, remark: str
) -> None:
    """ "don't care how it looks", "no drama": a part after the order that starts with a
    negation and holds nothing an order is made of is a remark, passed with a note."""
    got = acted(line)
    assert got.echo_text() == echo
    assert any(remark in n for n in notes(got)), notes(got)


@pytest.mark.parametrize(
    "line",
    [
        "Stokes wahoo, not before over 10",  # a number
        "Root normal, no Stokes",  # a squad member
        "Green aggressive, never when 5 down",  # a condition and a number
        "Stokes aggressive, nothing less than wahoo",  # a style
        "Root bats normal, not unless we are cruising",  # a limit
        "Tom Smith defensive, no more than 20 overs",  # a unit
        "Root normal, don't bowl him",  # an order word
        "Stokes aggressive, never after drinks",  # a time
        "Grey defensive, no Freddie",  # a squad member
        "Root wahoo, not in the first 10",  # a number
    ],
)
def test_a_negation_that_may_be_an_order_is_never_passed(line: str) -> None:
    """A negated part that holds a style, a number, a unit, an order word, a squad name, a
    condition or a limit may be an order of its own: never passed over as a remark."""
    got = read(line)
    assert not any(n.startswith("passed over") for n in notes(got)), notes(got)
    assert got.errors or got.not_understood, got.echo_text()


@pytest.mark.parametrize(
    ("line", "word", "nearest"),
    [
        ("Stokes bats wahoo in the fixture", "fixture", "Ben Stokes bats wahoo"),
        ("Root bats normal if the sun shines", "sun", "Joe Root bats normal"),
        ("Root bats aggressive unless it rains", "rains", "Joe Root bats aggressive"),
        ("Green bats wahoo when the quicks tire", "quicks", "Green bats wahoo"),
        ("Tom Smith defensive when the pitch crumbles", "pitch", "Tom Smith bats defensive"),
        ("Stokes aggressive if the crowd is loud", "crowd", "Ben Stokes bats aggressive"),
        ("Root normal until the sun comes out", "sun", "Joe Root bats normal"),
        ("Grey defensive when the light fades", "light", "Grey bats defensive"),
        ("Wilson bats normal unless the keeper tires", "tires", "Wilson bats normal"),
        ("Root bats aggressive when the field spreads", "spreads", "Joe Root bats aggressive"),
    ],
)
def test_a_refusal_for_a_word_says_what_pbm_reads_without_it(
    line: str, word: str, nearest: str
) -> None:
    """A word that may carry meaning is never read past: the line is refused, the word
    named with the caret under it, and the hint gives what pbm reads without it: the
    nearest reading, in the player's words with what it leaves out, where one is found."""
    got = read(line)
    [e] = got.errors
    assert f"'{word}'" in e.message, e.message
    if got.nearest:
        assert got.nearest[0].reading == nearest
        assert (e.hint or "").startswith(f'pbm could read this as: "{got.nearest[0].text}"')
    else:
        assert e.hint == f"without it, pbm reads: {nearest}"
    assert got.orders == read("").orders
    assert e.span is not None and line[e.span.column - 1 :].startswith(word)


@pytest.mark.parametrize(
    "chatter",
    [
        "Stokes aggressive; the weather looks grim",
        "Root bats normal, no drama",
        "Lovely day for it. Fingers crossed",
        "I have never seen a pitch like it",
    ],
)
def test_a_remark_never_changes_the_orders_of_the_mail(chatter: str) -> None:
    """The remark read past (or a line of remarks) changes no order of the mail: the mail
    reads as its orders alone, plus what the order clause itself says."""
    base = "toss: bat\ncaptain: Root"
    with_remark = acted(f"{base}\n{chatter}").orders
    order_only = chatter.split(";")[0].split(",")[0]
    alone = read(f"{base}\n{order_only}")
    assert with_remark == (alone.orders if not alone.errors else read(base).orders)


@pytest.mark.parametrize(
    ("line", "echo", "said"),
    [
        ("Capt - Root. Obvs.", "captain: Joe Root", []),
        ("toss - BAT. the pitch will only get worse", "toss: bat", ["the pitch will only"]),
        ("keeper - Wilson. safest hands we have", "wicketkeeper: Wilson", ["safest hands"]),
    ],
)
def test_a_key_before_a_dash_is_never_a_remark(line: str, echo: str, said: list[str]) -> None:
    """ "Capt - Root", "toss - BAT": a line's short head before a dash is its key and what
    follows its value, as lists in mail write them; a remark after them is passed over, and
    a remark of the lexicon's filler alone ("Obvs.") is no note."""
    got = acted(line)
    assert got.echo_text() == echo
    assert [n for n in notes(got) if not any(s in n for s in said)] == [], notes(got)
    assert all(any(s in n for n in notes(got)) for s in said), notes(got)

"""Shorthand, symbols, numbering and format tags in orders (issue 24, shorthand).

Office, scorecard and commentary shorthand ("ovs", "3w", "CRR", "b/c"), symbols as
connectives and comparisons ("->", "=", "@", "+", "&", "/", "|", "~"), numbering and
bullets of any kind, format tags in any position, and scores and counts in compact forms
("120-3", "3-120", "50 off 30", "31st-40th"). The lines here were written for this test in
the style of each class (not taken from the corpus), to check that the mechanisms carry.
Each reads as docs/players/orders.md ("Shorthand, symbols and numbering") says; the decisions
are in docs/rules/orders-shorthand.md.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language._shorthand import shorthand
from tests.engine.orders.test_cricket_glossary_in_orders import read, reads_exactly

FIFTY = FORMATS[Format.FIFTY]
T20 = FORMATS[Format.T20]
ORDER = (
    "batting order: Joe Root, Ben Stokes, Tom Smith, Jones, Ant and Dec, Wilson, "
    "Freddie Flintoff, Green, White, Shane Warne, Jimmy Anderson"
)
LEXICON = Path(__file__).resolve().parents[3] / "engine" / "flungo" / "language" / "lexicon.toml"


def refused_naming(text: str, word: str, fmt: object = FIFTY) -> None:
    """``text`` is refused, the word named as the player wrote it, and nothing acted on."""
    got = read(text, fmt)
    assert any(f"'{word}'" in e.message for e in got.errors), [e.message for e in got.errors]
    assert got.orders == read("", fmt).orders


ABBREVIATIONS = [
    (
        "CRR under 4 at 25 ovs -> Tom Smith aggressive",
        "after 25 overs, if run rate < 4: Tom Smith bats aggressive",
    ),
    (
        "req rr above 9 at 40 ovs - all wahoo",
        "after 40 overs, if required rate > 9: all batsmen bat wahoo",
    ),
    (
        "pplay: Stokes aggressive pls",
        "after 0 overs: Ben Stokes bats aggressive, until after 10 overs",
    ),
    (
        "mid overs: everyone normal thx",
        "after 10 overs: all batsmen bat normal, until after 40 overs",
    ),
    ("Root defensive bc the pitch is cracked", "Joe Root bats defensive"),
    ("Root defensive b/c pitch is cracked", "Joe Root bats defensive"),
    (
        "RR < 5 after 30 ovs -> Root aggressive",
        "after 30 overs, if run rate < 5: Joe Root bats aggressive",
    ),
    (
        "3w down at 20 ov -> Root defensive",
        "after 20 overs, if wickets >= 3: Joe Root bats defensive",
    ),
    (
        "60r needed off 30b -> all wahoo",
        "when 30 balls are left, if runs needed >= 60: all batsmen bat wahoo",
    ),
    (
        "2 wkts inside the pp -> all normal",
        "when the 2nd wicket falls, if overs < 10: all batsmen bat normal",
    ),
    ("Root agg, Stokes norm", "Joe Root bats aggressive\nBen Stokes bats normal"),
    ("1st 10 ovs: Root defensive", "after 0 overs: Joe Root bats defensive, until after 10 overs"),
    ("Wilson†", "wicketkeeper: Wilson"),
]


@pytest.mark.parametrize(("line", "echo"), ABBREVIATIONS)
def test_office_and_scorecard_shorthand_reads_as_its_words(line: str, echo: str) -> None:
    """A scorecard's or an office mail's abbreviation reads as the words it stands for."""
    reads_exactly(line, echo)


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("if SR under 100 Root aggressive", "sr"),
        ("Jimmy econ over 6 -> Stone on", "econ"),
        ("~150 at 30 overs: all aggressive", "~"),
        ("Root aggressive x3", "x3"),
        ("Warne bowls 50% of the overs", "%"),
        ("Root aggressive for ½ the innings", "½"),
        ("≈150 at 30 ovs: all aggressive", "≈"),
        ("c. 150 at 30 ovs: all aggressive", "c."),
        ("if wkts != 0 -> Root aggressive", "!"),
    ],
)
def test_shorthand_the_model_cannot_say_is_named(line: str, word: str) -> None:
    """A strike rate, an economy rate, an approximate number ("~") or a count of times is
    never let pass (the "~" and the "%" were once dropped as noise, leaving the number:
    "Warne bowls 50% of the overs" was over 50): refused, named as written."""
    refused_naming(line, word)


SYMBOLS = [
    ("Root & Stokes aggressive", "Joe Root bats aggressive\nBen Stokes bats aggressive"),
    ("Root + Stokes normal", "Joe Root bats normal\nBen Stokes bats normal"),
    ("Green/White: defensive", "Green bats defensive\nWhite bats defensive"),
    ("4 down -> tail defensive", "when the 4th wicket falls: the remaining batsmen bat defensive"),
    ("Root out => Stokes wahoo", "when Joe Root is out: Ben Stokes bats wahoo"),
    (
        "score < 100 @ 25 ovs: all defensive",
        "after 25 overs, if score < 100: all batsmen bat defensive",
    ),
    ("180+ at 40 ovs: all wahoo", "after 40 overs, if score >= 180: all batsmen bat wahoo"),
    ("Root aggressive | Stokes normal", "Joe Root bats aggressive\nBen Stokes bats normal"),
    ("overs 41-50 → everyone wahoo", "after 40 overs: all batsmen bat wahoo"),
    ("Jones = wahoo", "Jones bats wahoo"),
    ("4 ovs left = wahoo", "when 24 balls are left: all batsmen bat wahoo"),
    ("10 overs to go - all aggressive", "when 60 balls are left: all batsmen bat aggressive"),
]


@pytest.mark.parametrize(("line", "echo"), SYMBOLS)
def test_symbols_read_as_connectives(line: str, echo: str) -> None:
    """An arrow or "=" after a state is its condition's "then" (after overs left, the moment
    they are left: "if 4 overs left" would be 24 balls or more), before a style the style of
    who is named; "&", "+" and "/" between squad members are both; "@" is at; "N+" is N or
    more; "|" parts two orders."""
    reads_exactly(line, echo)


@pytest.mark.parametrize(
    ("sign", "want"),
    [
        ("<", "<"),
        (">", ">"),
        ("<=", "<="),
        (">=", ">="),
        ("=<", "<="),
        ("=>", ">="),
        ("≤", "<="),
        ("≥", ">="),
        ("below", "<"),
        ("under", "<"),
        ("above", ">"),
        ("over", ">"),
        ("less than", "<"),
        ("more than", ">"),
    ],
)
@pytest.mark.parametrize("rate", ["RR", "CRR", "RRR"])
def test_a_symbol_never_changes_a_comparisons_direction(sign: str, want: str, rate: str) -> None:
    """A rate compared by a sign or a word keeps the direction it was written with:
    "=>" and "=<" before a number are ">=" and "<=" typed the other way round."""
    got = read(f"{rate} {sign} 6 at 30 ovs -> Root aggressive")
    assert got.errors == (), [e.message for e in got.errors]
    what = "required rate" if rate == "RRR" else "run rate"
    assert got.echo_text() == f"after 30 overs, if {what} {want} 6: Joe Root bats aggressive"


PREFIXES = [
    ("iii. Stokes keeps wicket", "wicketkeeper: Ben Stokes"),
    ("(b) toss: bat", "toss: bat"),
    ("No. 2) Root captain", "captain: Joe Root"),
    ("• Root aggressive", "Joe Root bats aggressive"),
    ("→ Stokes defensive", "Ben Stokes bats defensive"),
    ("* Green normal", "Green bats normal"),
    ("(iv) Warne wahoo", "Shane Warne bats wahoo"),
    ("– after 30 overs: all aggressive", "after 30 overs: all batsmen bat aggressive"),
]


@pytest.mark.parametrize(("line", "echo"), PREFIXES)
def test_numbering_and_bullets_of_any_kind_are_taken_off(line: str, echo: str) -> None:
    """A list's numbering (1., 1), (a), ii., (iv), No. 2)) and bullets (•, →, *, –) say
    nothing of the order."""
    reads_exactly(line, echo)


@pytest.mark.parametrize(
    ("line", "place"),
    [("2 Ben Stokes wahoo", "Ben Stokes (wahoo)"), ("No. 9 White, defensive", "White (defensive)")],
)
def test_a_number_before_a_name_is_his_batting_place(line: str, place: str) -> None:
    """ "2 Ben Stokes wahoo" in a batting list: the style of the batsman at that place."""
    got = read(f"{ORDER}\n{line}")
    assert got.errors == (), [e.message for e in got.errors]
    assert place in got.echo_text()


@pytest.mark.parametrize(
    ("line", "fmt"),
    [
        ("(T20) Root aggressive", T20),
        ("Root aggressive (T20)", T20),
        ("T-20: Root aggressive", T20),
        ("the shorter game: Root aggressive", T20),
        ("one-dayer: Root aggressive", FIFTY),
        ("the longer format - Root aggressive", FIFTY),
        ("50 ov: Root aggressive", FIFTY),
        ("ODI: Root aggressive", FIFTY),
        ("T20 only: Root aggressive", T20),
        ("both games: Root aggressive", T20),
        ("T20 & ODI - Root aggressive", FIFTY),
        ("ODI/T20: Root aggressive", T20),
    ],
)
def test_a_tag_for_the_match_being_read_says_nothing_more(line: str, fmt: object) -> None:
    """A format tag in any position, for the match being read ("only" says no more), or a
    tag for every match ("both games", "T20 & ODI"), is taken off (a tag for another match
    is refused by name: test_cricket_glossary_in_orders holds those cases, these among
    them)."""
    reads_exactly(line, "Joe Root bats aggressive", fmt)


COUNTS = [
    (
        "if 150-4 at 30 ovs, all aggressive",
        "after 30 overs, if score >= 150 and wickets <= 4: all batsmen bat aggressive",
    ),
    (
        "4-150 at 30 ovs -> all aggressive",
        "after 30 overs, if wickets <= 4 and score >= 150: all batsmen bat aggressive",
    ),
    (
        "200/5 at 45 ovs: all wahoo",
        "after 45 overs, if score >= 200 and wickets <= 5: all batsmen bat wahoo",
    ),
    (
        "31st-40th: Root aggressive",
        "after 30 overs: Joe Root bats aggressive, until after 40 overs",
    ),
    ("41 to 50: all wahoo", "after 40 overs: all batsmen bat wahoo"),
    ("last 5: wahoo", "when 30 balls are left: all batsmen bat wahoo"),
    ("first 10 -> Root defensive", "after 0 overs: Joe Root bats defensive, until after 10 overs"),
    (
        "need 60 off 30 -> all wahoo",
        "when 30 balls are left, if runs needed >= 60: all batsmen bat wahoo",
    ),
    (
        "ovs 11-20 = Stokes aggressive",
        "after 10 overs: Ben Stokes bats aggressive, until after 20 overs",
    ),
    (
        "overs 31–40: Root aggressive",
        "after 30 overs: Joe Root bats aggressive, until after 40 overs",
    ),
    (
        "if 120–3 at 30 ovs, all aggressive",
        "after 30 overs, if score >= 120 and wickets <= 3: all batsmen bat aggressive",
    ),
    ("overs 41+ -> all wahoo", "after 40 overs: all batsmen bat wahoo"),
    (
        "if 2-down at 10 ovs -> Root defensive",
        "after 10 overs, if wickets >= 2: Joe Root bats defensive",
    ),
    (
        "RR under 6/over at 30 ovs -> all aggressive",
        "after 30 overs, if run rate < 6: all batsmen bat aggressive",
    ),
    (
        "RRR > 9 per over at 40 ovs -> all wahoo",
        "after 40 overs, if required rate > 9: all batsmen bat wahoo",
    ),
]


@pytest.mark.parametrize(("line", "echo"), COUNTS)
def test_scores_and_counts_in_compact_forms(line: str, echo: str) -> None:
    """ "150-4" is runs then wickets, "4-150" (past the innings' overs) wickets then runs
    (an en dash, as a mail program makes it, the same);
    a range of ordinals or of overs past a batting order's places is overs; "last 5" and
    "first 10" are overs; "60 off 30" is runs off balls."""
    reads_exactly(line, echo)


def test_compact_forms_in_a_twenty20() -> None:
    """In a Twenty20 "ovs 1-6" is the powerplay's overs and "3-120" a score."""
    reads_exactly(
        "ovs 1-6: Stokes aggressive",
        "after 0 overs: Ben Stokes bats aggressive, until after 6 overs",
        T20,
    )
    reads_exactly(
        "3-120 at 15 ovs -> all wahoo",
        "after 15 overs, if wickets <= 3 and score >= 120: all batsmen bat wahoo",
        T20,
    )


@pytest.mark.parametrize("line", ["31/40: all aggressive", "1-6: aggressive"])
def test_a_pair_of_numbers_that_reads_two_ways_is_not_acted_on(line: str) -> None:
    """ "31/40" (a score? overs?) and "1-6" (overs? the top six?): nothing is acted on."""
    for fmt in (FIFTY, T20):
        got = read(line, fmt)
        assert got.errors and got.orders == read("", fmt).orders


def test_every_shorthand_entry_reads_as_its_entry_says() -> None:
    """Each entry of the lexicon's [shorthand] section is put in its words, alone and in a
    line; a squad member's name that is an entry's word stays his name."""
    entries = tomllib.loads(LEXICON.read_text("utf-8"))["shorthand"]
    assert len(entries) >= 20
    for word, said in entries.items():
        assert shorthand(word) == said, word
        assert shorthand(f"x {word} y") == f"x {said} y", word
        assert shorthand(word, frozenset({word})) == word


@pytest.mark.parametrize(
    "line",
    [
        "4 Green and White defensive",
        "9 Warne, Stone wahoo",
        "Root -> Stokes",
        "Root > Stokes",
        "Stokes = captain",
        "Root aggressive/wahoo",
        "Root/Stokes captain",
        "Warne 4-0-30-1",
    ],
)
def test_a_symbol_that_says_no_order_plainly_acts_on_nothing(line: str) -> None:
    """One place for two men, an arrow between two names, "=" before a role, a slash
    between two styles, bowling figures: refused, nothing acted on, never half read."""
    got = read(line)
    assert got.errors
    assert got.orders == read("").orders

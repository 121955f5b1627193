"""Cricket's own vocabulary in orders (issue 24, R3): the lexicon's entries drawn from the
game's glossary, scorecards and fans' text-speak, not from corpus lines. Each reads as its
entry in docs/players/orders.md says: an idiom as its style, an idiom between two styles
asked, filler let pass, a word the model cannot express named in the refusal."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, canonical, parse_orders
from engine.flungo.language._meaning import lexicon
from tests.engine.orders.squad import XI, fixture_team, opponent_team

FIFTY = FORMATS[Format.FIFTY]
T20 = FORMATS[Format.T20]


def read(text: str, fmt: object = FIFTY) -> ParsedOrders:
    return parse_orders(text, fixture_team(), fmt, context=OrderContext(opponent=opponent_team()))  # type: ignore[arg-type]


def reads_exactly(text: str, echo: str, fmt: object = FIFTY) -> None:
    """``text`` reads to ``echo`` with no error and nothing asked, and the echo, read as
    orders, reads back to itself."""
    got = read(text, fmt)
    assert got.errors == () and got.not_understood == (), [e.message for e in got.errors]
    assert got.echo_text() == echo
    again = read(echo, fmt)
    assert again.errors == () and again.echo_text() == echo
    assert canonical(again.orders) == canonical(got.orders)


GLOSSARY_STYLES = [
    ("dig in", "defensive"),
    ("bat time", "defensive"),
    ("play himself in", "defensive"),
    ("grind it out", "defensive"),
    ("grafting", "defensive"),
    ("drop anchor", "defensive"),
    ("occupy the crease", "defensive"),
    ("stonewall", "defensive"),
    ("nurdle", "normal"),
    ("nudge it around", "normal"),
    ("knock it around", "normal"),
    ("tick the scoreboard over", "normal"),
    ("find the gaps", "normal"),
    ("business as usual", "normal"),
    ("get on with it", "aggressive"),
    ("take on the bowling", "aggressive"),
    ("free his arms", "aggressive"),
    ("kick on", "aggressive"),
    ("hoick", "wahoo"),
    ("agricultural", "wahoo"),
    ("go for broke", "wahoo"),
    ("give it the long handle", "wahoo"),
]


@pytest.mark.parametrize(("idiom", "style"), GLOSSARY_STYLES, ids=[i for i, _ in GLOSSARY_STYLES])
def test_a_glossary_idiom_reads_as_its_style(idiom: str, style: str) -> None:
    """ "Root <idiom>" is Root batting the style the glossary's entry gives it, exactly."""
    assert lexicon().styles[idiom] == style
    reads_exactly(f"Root {idiom}", f"Joe Root bats {style}")


_BETWEEN = sorted((i, s) for i, s in lexicon().styles.items() if "|" in s)


@pytest.mark.parametrize(("idiom", "styles"), _BETWEEN, ids=[i for i, _ in _BETWEEN])
def test_an_idiom_between_two_styles_asks_both(idiom: str, styles: str) -> None:
    """ "Root tee off": aggressive or wahoo? Nothing in the idiom decides, so both readings
    are shown and neither is acted on."""
    got = read(f"Root {idiom}")
    [asked] = got.not_understood
    assert set(asked.readings) == {f"Joe Root bats {s}" for s in styles.split("|")}
    assert got.orders == read("").orders


def test_two_idioms_of_one_style_say_it_once() -> None:
    """ "Root nudge and nurdle": two idioms, one style; Root bats normal, nothing else."""
    reads_exactly("Root nudge and nurdle", "Joe Root bats normal")


def test_a_style_written_beside_an_idiom_between_two_decides() -> None:
    """ "Root tee off, aggressive": the style written outright decides; nothing is asked."""
    reads_exactly("Root tee off, aggressive", "Joe Root bats aggressive")


@pytest.mark.parametrize(
    ("line", "echo", "fmt"),
    [
        (
            "after 10 ovs, if 3 down: all aggressive",
            "after 10 overs, if wickets >= 3: all batsmen bat aggressive",
            FIFTY,
        ),
        ("after 10 ov: all aggressive", "after 10 overs: all batsmen bat aggressive", FIFTY),
        ("if wks <= 3: all aggressive", "if wickets <= 3: all batsmen bat aggressive", FIFTY),
        ("if rr > 8: all wahoo", "if run rate > 8: all batsmen bat wahoo", FIFTY),
        ("if more than 8 rpo: all wahoo", "if run rate > 8: all batsmen bat wahoo", FIFTY),
        ("w/k Wilson", "wicketkeeper: Wilson", FIFTY),
        ("Wilson (wk)", "wicketkeeper: Wilson", FIFTY),
        ("Root (c)", "captain: Joe Root", FIFTY),
        ("captain root (c)", "captain: Joe Root", FIFTY),
        ("Root (c), Wilson (wk)", "captain: Joe Root\nwicketkeeper: Wilson", FIFTY),
        ("Root (c) to bat aggressive", "Joe Root bats aggressive\ncaptain: Joe Root", FIFTY),
        ("Root skipper", "captain: Joe Root", FIFTY),
        ("if we win the toss insert them", "toss: bowl", FIFTY),
        ("Wilson wicky", "wicketkeeper: Wilson", FIFTY),
        ("Root aggro", "Joe Root bats aggressive", FIFTY),
        (
            "after a dozen overs: all aggressive",
            "after 12 overs: all batsmen bat aggressive",
            FIFTY,
        ),
        (
            "after half a dozen overs: all aggressive",
            "after 6 overs: all batsmen bat aggressive",
            FIFTY,
        ),
        (
            "if we lose a couple of wickets: all defensive",
            "when the 2nd wicket falls: all batsmen bat defensive",
            FIFTY,
        ),
        (
            "after 30 overs, if we have 7 wkts in hand: all aggressive",
            "after 30 overs, if wickets <= 3: all batsmen bat aggressive",
            FIFTY,
        ),
        (
            "pp1 everyone aggressive",
            "after 0 overs: all batsmen bat aggressive, until after 6 overs",
            T20,
        ),
        ("everyone hoick at the back end", "when 24 balls are left: all batsmen bat wahoo", T20),
        ("T20: Root aggressive", "Joe Root bats aggressive", T20),
        ("ODI - Root aggressive", "Joe Root bats aggressive", FIFTY),
        ("T20I: Root aggressive", "Joe Root bats aggressive", T20),
        ("50-over game: Root aggressive", "Joe Root bats aggressive", FIFTY),
    ],
)
def test_abbreviations_and_numbers_as_fans_write_them(line: str, echo: str, fmt: object) -> None:
    """Scorecard and commentary abbreviations, numbers in words, and the match's own format
    tag read as the orders they stand for."""
    reads_exactly(line, echo, fmt)


@pytest.mark.parametrize(
    "filler",
    ["gonna", "wanna", "imo", "tbh", "asap", "thx", "pls", "btw", "defo", "hopefully"],
)
def test_text_speak_passes(filler: str) -> None:
    """Text-speak and contractions carry no order: "Root <word> go aggressive" is Root
    aggressive."""
    reads_exactly(f"Root {filler} go aggressive", "Joe Root bats aggressive")


@pytest.mark.parametrize(
    "line", ["cheers ta", "c'mon lads!", "thx pls", "fingers crossed, come on!", "ty gm, btw"]
)
def test_a_line_of_text_speak_is_chatter(line: str) -> None:
    """A line of thanks and cheering in text-speak is chatter: no order, no error."""
    got = read(line)
    assert got.chatter and got.errors == () and got.orders == read("").orders


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("Stokes vc", "vc"),
        ("Stokes finisher", "finisher"),
        ("Stokes pinch-hitter", "pinch"),
        ("if Root gets a ton: Stokes aggressive", "ton"),
        ("if sr < 100: Root aggressive", "sr"),
        ("Root aggressive maybe", "maybe"),
        ("Root perhaps aggressive", "perhaps"),
        ("Root aggressive against the quicks", "against"),
        ("Root defensive on a turner", "turner"),
        ("pp2 everyone normal", "pp2"),
    ],
)
def test_a_word_the_model_cannot_express_is_named(line: str, word: str) -> None:
    """A role, a scorecard count or a hedge that no order can say is never let pass: the
    line is refused naming it, and nothing is acted on."""
    got = read(line)
    assert any(f"'{word}'" in e.message for e in got.errors), [e.message for e in got.errors]
    assert got.orders == read("").orders


@pytest.mark.parametrize(
    ("line", "fmt", "tag"),
    [
        ("T20: Root aggressive", FIFTY, "t20"),
        ("ODI - Root aggressive", T20, "odi"),
        ("odi: Root aggressive", T20, "odi"),
        ("50 over game: Root aggressive", T20, "50 over"),
        ("Root aggressive in the ODI", T20, "odi"),
        # in any position and by any name (issue 24, shorthand)
        ("(T20) Root aggressive", FIFTY, "t20"),
        ("Root aggressive (T20)", FIFTY, "t20"),
        ("Root aggressive in the shorter game", FIFTY, "shorter game"),
        ("one-dayer: Root aggressive", T20, "one-dayer"),
        ("Root aggressive in the longer game", T20, "longer game"),
        ("50 ov: Root aggressive", T20, "50 over"),
        ("ODI only: Root aggressive", T20, "odi"),
    ],
)
def test_a_line_tagged_for_another_format_is_not_read(line: str, fmt: object, tag: str) -> None:
    """A line that says it is for another format ("T20:" in a 50-over match) is for
    another match: refused naming the tag, never read for this one."""
    got = read(line, fmt)
    [e] = got.errors
    assert f"'{tag}'" in e.message and "another match" in e.message
    assert got.orders == read("").orders


def test_a_mail_for_two_formats_reads_only_its_own_lines() -> None:
    """One mail with a line for each format: in the Twenty20 only the T20 line is acted on."""
    mail = "xi: " + ", ".join(XI) + "\nT20: Root aggressive\nODI: Root defensive"
    got = read(mail, T20)
    assert "Joe Root bats aggressive" in got.echo_text()
    assert "defensive" not in got.echo_text() and len(got.errors) == 1

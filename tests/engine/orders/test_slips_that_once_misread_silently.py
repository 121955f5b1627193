"""Five ways a line was misread with no word said, found on a new writers' set (fresh-w18w21)
and fixed by rule (docs/rules/orders-unknown-words.md, "Slips that were read wrong"): each
line is now read right, or refused with its word, never acted on wrongly."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, parse_orders
from tests.engine.orders.squad import fixture_team, opponent_team, read


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "Thanks a ton, and make sure Freddie's batting wahoo, my father-in-law insists",
            ["Freddie Flintoff bats wahoo"],
        ),
        ("Cheers all, and Freddie's bowling overs 1 and 3", ["Freddie Flintoff bowls overs 1, 3"]),
    ],
)
def test_a_name_with_its_s_after_thanks_is_still_an_order(line: str, echo: list[str]) -> None:
    """ "Freddie's batting wahoo" after a thanks names Freddie: the line is read, where it
    used to be taken for a sign-off and dropped with nothing said."""
    got = read(line)
    assert [e.text for e in got.echo] == echo, (got.errors, got.chatter)


@pytest.mark.parametrize(
    "line",
    ["Thanks a ton to everyone, Freddie's a legend", "Thanks everybody, Root's knock was lovely"],
)
def test_thanks_to_everyone_with_a_name_stays_chatter(line: str) -> None:
    """A thanks said to "everyone" that praises a player orders nothing and is no error."""
    got = read(line)
    assert got.echo == () and got.errors == ()


@pytest.mark.parametrize(
    ("line", "overs"),
    [
        ("freddie bowls 1st 3rd and 19th", "1, 3, 19"),
        ("Freddie bowl 1st 3rd n 19th", "1, 3, 19"),
        ("Warne bowls the 1st 5th 9th", "1, 5, 9"),
    ],
)
def test_a_list_of_ordinals_keeps_its_first(line: str, overs: str) -> None:
    """ "1st 3rd" is two overs: the first ordinal was once read as "bowls first" (who of a
    pair starts) and lost."""
    got = read(line)
    assert len(got.echo) == 1 and got.echo[0].text.endswith(f"bowls overs {overs}"), got.errors


def test_the_first_ten_overs_written_1st_10_is_unchanged() -> None:
    """ "the 1st 10 overs" is still the first ten: only an ordinal after "1st" is a list."""
    got = read("Stokes bats aggressive for the 1st 10 overs")
    assert [e.text for e in got.echo] == [
        "after 0 overs: Ben Stokes bats aggressive, until after 10 overs"
    ]


@pytest.mark.parametrize(
    "line",
    [
        "batting reviews only for root, d rest no review",
        "d bats wahoo",
        "Root normal, n Stokes wahoo",
    ],
)
def test_a_letter_alone_is_no_name(line: str) -> None:
    """Texting's "d" (the) and "n" (and) are no prefix of a squad member's name: "d rest"
    once added Ant and Dec to a review order."""
    got = read(line)
    assert all("Ant and Dec" not in e.text for e in got.echo)


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        ("Green also attacking, Wilson normal", ["Green bats aggressive", "Wilson bats normal"]),
        ("Green too slogging, Wilson defensive", ["Green bats wahoo", "Wilson bats defensive"]),
        ("Root - normal, he is our anchor", ["Joe Root bats normal"]),
        ("Taylor ko bolo block karo, defensive only", ["Taylor bats defensive"]),
    ],
)
def test_an_idiom_is_emphasis_only_beside_its_own_batsmans_style(
    line: str, echo: list[str]
) -> None:
    """An idiom in a clause that names a batsman whose style the line does not write out
    is his style; beside a style written out for him (or for no one named) it is emphasis.
    "Green also attacking, Wilson normal" once read Green as normal."""
    got = read(line)
    assert sorted(e.text for e in got.echo) == sorted(echo), got.errors


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        ("if we win the coin toss we bat", "toss: bat"),
        ("we win the flip of the coin, we bowl", "toss: bowl"),
    ],
)
def test_the_coin_toss_is_the_toss(line: str, echo: str) -> None:
    """The glossary's other names of the toss are the toss."""
    assert [e.text for e in read(line).echo] == [echo]


def test_a_coin_flip_line_pbm_cannot_finish_is_refused_not_chatter() -> None:
    """A toss line with a word pbm does not know is refused with the word, never passed
    over as chatter as it once was."""
    got = read("If we win the coin flip we hit first. Put runs on the board and make 'em chase")
    assert got.echo == () and got.errors


def _read_t20(line: str) -> ParsedOrders:
    context = OrderContext(opponent=opponent_team())
    return parse_orders(line, fixture_team(), FORMATS[Format.T20], context=context)


@pytest.mark.parametrize(
    "line",
    [
        "T20: everyone aggressive from ball 1, then wahoo from over 16 on",
        "T20 game: Stokes blorp from over 3",
    ],
)
def test_a_line_tagged_for_its_own_match_is_never_refused_for_its_tag(line: str) -> None:
    """ "T20:" in the Twenty20's mail is read: when the rest of the line is refused, the
    error is about the rest, never "unknown order 'T20'", which told players to drop it."""
    got = _read_t20(line)
    assert got.echo == () and got.errors
    assert all("T20" not in e.message for e in got.errors), got.errors[0].message


def test_a_line_for_the_other_match_gets_no_suggestion_to_read_it_here() -> None:
    """ "ODI: ..." in the Twenty20's mail is for the other match: pbm names the tag and
    never suggests leaving it out to have the line acted on in this one."""
    got = _read_t20("ODI: Stokes aggressive")
    assert got.echo == () and "another match" in got.errors[0].message
    assert "could read this as" not in (got.errors[0].hint or "")


def test_no_suggestion_that_is_itself_refused() -> None:
    """A refusal's "pbm could read this as" must read as written: a reading that gives one
    batsman two styles at one moment is refused once the line is whole, so it is never
    suggested (it was: "... (leaving out 'bats'): write it like that to have it")."""
    got = read("after 0 overs: Joe Root bats normal; Joe Root and Ben Stokes bat defensive")
    assert got.echo == () and got.errors
    assert all("could read this as" not in (e.hint or "") for e in got.errors)
    assert got.nearest == ()

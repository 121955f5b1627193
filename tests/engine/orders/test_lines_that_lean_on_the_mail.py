"""Lines that lean on the mail's other lines (issue 24, R3; docs/rules/orders-in-a-mail.md).

A change to the XI is read against the mail's XI or the standing one; a batting place said as
cricket says it, and a group of places, against the batting order in force; a pronoun as the
one squad member it can mean. Where what a line leans on is missing it is refused naming it,
and where two readings exist it is asked. The "fresh" lines of each mechanism were written
for these tests (not copied from the corpus), to check that the mechanism carries.
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrder
from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, parse_orders
from engine.flungo.orders import MatchOrders
from tests.engine.orders.squad import XI, fixture_team, opponent_team

XI_LINE = "xi: " + ", ".join(XI)
ORDER_LINE = "batting order: " + ", ".join(XI)


def _read(text: str, *, standing: bool = False, fmt: Format = Format.FIFTY) -> ParsedOrders:
    stands = MatchOrders(xi=XI, batting_order=XI) if standing else None
    ctx = OrderContext(opponent=opponent_team(), standing=stands)
    return parse_orders(text, fixture_team(), FORMATS[fmt], context=ctx)


def _m(got: ParsedOrders) -> MatchOrders:
    """The match orders read (empty when none)."""
    return got.orders.match or MatchOrders()


def _changed(**swaps: str) -> tuple[str, ...]:
    """The fixture XI with each ``out=in`` pair changed, the newcomer in the slot."""
    return tuple(swaps.get(n.replace(" ", "_"), n) for n in XI)


# --- changes to the XI ---

FRESH_CHANGES = [
    ("Grey in for White", _changed(White="Grey")),
    ("bring Black in for Green", _changed(Green="Black")),
    ("Stone replaces Jimmy Anderson", _changed(Jimmy_Anderson="Stone")),
    ("Taylor comes in, Wilson sits out", _changed(Wilson="Taylor")),
    ("Jones out, Moss in", _changed(Jones="Moss")),
    ("drop White and bring in Grey", _changed(White="Grey")),
    ("Rock to come in for Tom Smith", _changed(Tom_Smith="Rock")),
    ("Ant and Dec make way for Steve Smith", _changed(Ant_and_Dec="Steve Smith")),
    ("swap Stone and Anderson", _changed(Jimmy_Anderson="Stone")),
    ("leave out Green, pick Grey", _changed(Green="Grey")),
    ("Moss plays instead of Green", _changed(Green="Moss")),
    ("unchanged XI", XI),
]


@pytest.mark.parametrize(("line", "xi"), FRESH_CHANGES)
def test_a_change_to_the_xi_reads_against_the_standing_xi(line: str, xi: tuple[str, ...]) -> None:
    """A change with no XI in the mail changes the XI that stands; the echo is the whole XI,
    and a note says what it was built from."""
    got = _read(line, standing=True)
    assert got.errors == (), got.errors
    assert _m(got).xi == xi
    assert got.echo_text() == "xi: " + ", ".join(xi)
    assert any("the XI built from the XI that stands" in n.text for n in got.notes)


def test_a_change_reads_against_the_mails_own_xi_first() -> None:
    """The mail's XI, not the standing one, is the XI a change changes."""
    mail = "xi: " + ", ".join(_changed(White="Black")) + "\nGrey in for Green"
    got = _read(mail, standing=True)
    assert got.errors == ()
    assert _m(got).xi == _changed(White="Black", Green="Grey")
    assert any("line 1's XI" in n.text for n in got.notes)


def test_an_xi_below_the_change_is_the_xi_it_changes() -> None:
    """A change written above the XI line changes that XI: it is not lost under it."""
    got = _read("Grey in for Green\n" + XI_LINE)
    assert got.errors == ()
    assert _m(got).xi == _changed(Green="Grey")


@pytest.mark.parametrize("line", ["Rock in for Tom Smith", "same side", "drop Green, pick Grey"])
def test_a_change_with_no_xi_to_change_is_refused_naming_it(line: str) -> None:
    """With no XI in the mail and none standing, the change is refused, naming it."""
    got = _read(line)
    assert _m(got).xi is None
    assert len(got.errors) == 1 and isinstance(got.errors[0], IllegalOrder)
    assert "none stands yet" in got.errors[0].message


def test_a_change_of_a_player_not_in_the_xi_is_refused() -> None:
    """Bringing a man in for one who does not play says nothing pbm can do: refused."""
    got = _read("Root in for Rock", standing=True)
    assert _m(got).xi is None
    assert "Rock is not in the XI" in got.errors[0].message


def test_a_swap_of_two_players_in_the_xi_is_refused() -> None:
    """ "swap X and Y" with both in the XI says nobody new: never guessed."""
    got = _read("swap Root and Stokes", standing=True)
    assert _m(got).xi is None
    assert got.errors


def test_w6_6_a_change_beside_another_order_is_not_dropped() -> None:
    """fresh-w6w7 #6 read only 'toss: bat' and dropped the change: both are read now."""
    mail = (
        "The XI: Root, Stokes, Tom Smith, Steve Smith, Freddie, Wilson, Green, Grey, Warne, "
        "Jimmy Anderson and Stone\n"
        "For the T20 game same side but bring Rock in for Tom Smith, and if Root wins the "
        "toss we bat, I'd rather set a total in the short game"
    )
    got = _read(mail, fmt=Format.T20)
    assert got.errors == ()
    match = _m(got)
    assert match.toss is not None and match.toss.value == "bat"
    assert match.xi is not None and "Rock" in match.xi
    assert "Tom Smith" not in match.xi


def test_w6_6_alone_is_refused_never_read_as_the_toss_only() -> None:
    """Read alone (no XI anywhere) the line is refused naming the change: no part vanishes."""
    got = _read(
        "For the T20 game same side but bring Rock in for Tom Smith, and if Root wins the "
        "toss we bat, I'd rather set a total in the short game",
        fmt=Format.T20,
    )
    assert any("Rock in for Tom Smith" in e.message for e in got.errors)


def test_a_change_in_a_line_of_another_match_is_not_acted_on() -> None:
    """The rest of a changing line refused (another format's tag) blocks the change too."""
    got = _read("for the T20 game Rock in for Tom Smith", standing=True)
    assert _m(got).xi is None
    assert got.errors


def test_a_change_in_a_rule_is_no_change_of_the_xi() -> None:
    """ "if Root is out, Stokes in": the XI cannot change in an innings: not read as one."""
    got = _read("if Root out, Grey in", standing=True)
    assert _m(got).xi is None


# --- batting places ---


def _placed(name: str, place: int) -> tuple[str, ...]:
    rest = [n for n in XI if n != name]
    return (*rest[: place - 1], name, *rest[place - 1 :])


FRESH_PLACES = [
    ("Jones first drop", _placed("Jones", 3)),
    ("Wilson second drop", _placed("Wilson", 4)),
    ("Wilson third drop", _placed("Wilson", 5)),
    ("Green in at 5", _placed("Green", 5)),
    ("Flintoff bats 6", _placed("Freddie Flintoff", 6)),
    ("move White up to 7", _placed("White", 7)),
    ("Warne batting at number eight", _placed("Shane Warne", 8)),
    ("Anderson comes in at ten", _placed("Jimmy Anderson", 10)),
    ("Stokes to open with Root", ("Ben Stokes", "Joe Root", *XI[2:])),
    ("promote Green to number 4", _placed("Green", 4)),
]


@pytest.mark.parametrize(("line", "order"), FRESH_PLACES)
def test_a_batting_place_as_cricket_says_it(line: str, order: tuple[str, ...]) -> None:
    """A place said as cricket says it is the guide's "X at N", merged with the mail's XI."""
    got = _read(XI_LINE + "\n" + line)
    assert got.errors == (), got.errors
    assert _m(got).batting_order == order


def test_a_move_with_no_place_is_refused_naming_it() -> None:
    """ "Jones down the order" gives no place: refused, the words named."""
    got = _read("Jones down the order", standing=True)
    assert _m(got).batting_order is None
    assert "'down the order'" in got.errors[0].message


# --- groups of places ---

FRESH_GROUPS = [
    ("the openers aggressive", XI[:2], "aggressive"),
    ("top order defensive", XI[:3], "defensive"),
    ("the middle order normal", XI[3:7], "normal"),
    ("the lower order wahoo", XI[7:], "wahoo"),
    ("the tail wahoo", XI[7:], "wahoo"),
    ("numbers 9 to 11 aggressive", XI[8:], "aggressive"),
    ("nos 6-8 defensive", XI[5:8], "defensive"),
    ("the top five normal", XI[:5], "normal"),
    ("the bottom two wahoo", XI[9:], "wahoo"),
    ("Numbers eight to eleven are to throw the bat (wahoo)", XI[7:], "wahoo"),
]


@pytest.mark.parametrize(("line", "names", "style"), FRESH_GROUPS)
def test_a_group_of_places_reads_against_the_batting_order(
    line: str, names: tuple[str, ...], style: str
) -> None:
    """A group is the batsmen at its places of the mail's batting order, with a note."""
    got = _read(ORDER_LINE + "\n" + line)
    assert got.errors == (), got.errors
    assert {n: s.value for n, s in _m(got).styles} == dict.fromkeys(names, style)
    assert any(n.line == 2 and "of the batting order" in n.text for n in got.notes)


def test_a_group_reads_against_the_standing_order_with_none_in_the_mail() -> None:
    """No order in the mail: the standing batting order's places."""
    got = _read("the top order defensive", standing=True)
    assert {n for n, _ in _m(got).styles} == set(XI[:3])


def test_a_group_in_a_rule_is_its_batsmen() -> None:
    """In a rule, a group of places is its batsmen at that line's order."""
    got = _read(ORDER_LINE + "\ntop 4 aggressive after 30 overs")
    want = _read(ORDER_LINE + "\nafter 30 overs: " + ", ".join(XI[:4]) + " bat aggressive")
    assert got.errors == () and got.orders == want.orders


def test_the_tail_in_a_rule_with_a_trigger_is_still_the_batsmen_to_come() -> None:
    """ "when the 7th wicket falls, the tail wahoo" keeps its reading: the batsmen yet to come."""
    got = _read(ORDER_LINE + "\nwhen the 7th wicket falls, the tail wahoo")
    want = _read(ORDER_LINE + "\nwhen the 7th wicket falls: the remaining batsmen bat wahoo")
    assert got.errors == () and got.orders == want.orders


@pytest.mark.parametrize("line", ["the tail wahoo", "numbers 8 to 11 wahoo", "top order normal"])
def test_a_group_with_no_order_to_read_it_by_is_refused_naming_it(line: str) -> None:
    """No batting order, XI or standing orders: refused, naming the group."""
    got = _read(line)
    assert _m(got).styles == ()
    assert len(got.errors) == 1 and "needs the batting order" in got.errors[0].message


def test_the_rest_with_a_style_is_everyone_else() -> None:
    """ "the rest normal" beside a style line is everyone else: those not styled."""
    got = _read(ORDER_LINE + "\nRoot wahoo\nthe rest normal")
    styles = dict(_m(got).styles)
    assert styles["Joe Root"].value == "wahoo"
    assert {n for n, s in styles.items() if s.value == "normal"} == set(XI[1:])


# --- pronouns ---

FRESH_PRONOUNS = [
    ("Stokes at 3\nhe bats aggressive", "after", ("Ben Stokes", "aggressive")),
    ("Jones keeps wicket\nhe bats normal", "after", ("Jones", "normal")),
    ("Wilson bats 6, make him defensive", "after", ("Wilson", "defensive")),
    ("Jones normal\nhe goes aggressive after 35 overs", "rule", "Jones"),
    ("Root and Stokes open\nthey bat defensive until 10 overs", "rule", "Ben Stokes"),
    ("Warne and Anderson at the death\nthey bat wahoo", "after", ("Shane Warne", "wahoo")),
    ("Green is our keeper\nhe bats defensive", "after", ("Green", "defensive")),
    ("Flintoff wahoo from the start, he can't help it", "after", ("Freddie Flintoff", "wahoo")),
    ("Anderson at 11\nhe bats wahoo", "after", ("Jimmy Anderson", "wahoo")),
    ("Tom Smith captains\nhe bats defensive", "after", ("Tom Smith", "defensive")),
]


@pytest.mark.parametrize(("mail", "kind", "want"), FRESH_PRONOUNS)
def test_a_pronoun_is_the_one_squad_member_named_before_it(
    mail: str, kind: str, want: str | tuple[str, str]
) -> None:
    """ "he", "him", "they", "them" are the squad member(s) named just before: read whole."""
    got = _read(XI_LINE + "\n" + mail)
    assert got.errors == () and got.not_understood == (), (got.errors, got.not_understood)
    if isinstance(want, tuple):
        name, style = want
        assert dict(_m(got).styles)[name].value == style
    else:
        assert any(want in str(r) for r in _m(got).rules)


@pytest.mark.parametrize(
    "mail",
    ["Root and Stokes open\nhe bats defensive", "Root aggressive, Stokes normal and he opens"],
)
def test_a_pronoun_that_could_mean_two_is_asked_with_both(mail: str) -> None:
    """Two squad members it could mean: not acted on, both readings shown."""
    got = _read(XI_LINE + "\n" + mail)
    asked = [n for n in got.not_understood if n.readings]
    assert len(asked) == 1 and len(asked[0].readings) == 2
    assert "'he' as Joe Root" in asked[0].readings[0]
    assert "'he' as Ben Stokes" in asked[0].readings[1]


def test_a_pronoun_with_nobody_named_before_it_stays_refused() -> None:
    """Nobody named before it: the line's own refusal stands."""
    got = _read("he bats aggressive")
    assert got.errors and _m(got).styles == ()


# --- reviews kept back (fresh-w6w7 #53) ---


@pytest.mark.parametrize(
    "line",
    [
        "When we're bowling, keep one review back for Richards or Lara, only use the first "
        "one on anyone else",
        "batting reviews: save one for Root, only",
        "hold a review back for Stokes only when batting",
    ],
)
def test_a_review_line_that_counts_reviews_is_never_read_as_only_for(line: str) -> None:
    """A count of reviews, or one kept back, is no "only for" order: refused, a word named."""
    got = _read(line)
    assert _m(got).batting_reviews is None and _m(got).bowling_reviews is None
    assert got.errors


def test_a_place_for_a_man_not_in_the_xi_says_so() -> None:
    """ "Grey at 8" with Grey out of the XI names him, not "12 batsmen"; brought in, he reads."""
    got = _read("Grey at 8", standing=True)
    assert "Grey is not in the XI" in got.errors[0].message
    got = _read("Grey in for White\nGrey at 8", standing=True)
    assert got.errors == ()
    assert _m(got).batting_order == (*XI[:7], "Grey", *(n for n in XI[7:] if n != "White"))


def test_a_pronoun_that_reads_is_still_the_one_it_means() -> None:
    """ "if he is out" read whole once took its batsman from the next name (Stokes, silently):
    it is the squad member named before it, with a note."""
    got = _read("Root wahoo\nif he is out, Stokes defensive")
    want = _read("Root wahoo\nwhen Root is out: Stokes bats defensive")
    assert got.errors == () and got.orders == want.orders
    assert any(n.line == 2 and "'he' as Joe Root" in n.text for n in got.notes)


def test_a_pronoun_waited_for_with_nobody_named_is_refused_naming_it() -> None:
    """ "if he is out" with no squad member before it: refused, the pronoun named."""
    got = _read("if he is out, Stokes defensive")
    assert _m(got).rules == ()
    assert "'he' is what this order waits for" in got.errors[0].message


def test_a_pronoun_read_whole_that_could_mean_two_is_asked() -> None:
    """ "when he's out" after two openers: both readings, neither acted on."""
    got = _read("Root and Stokes open\nwhen he's out, Jones aggressive")
    assert _m(got).rules == ()
    asked = [n for n in got.not_understood if n.readings]
    assert len(asked) == 1 and len(asked[0].readings) == 2


def test_a_leaning_line_that_also_passes_words_over_is_refused() -> None:
    """A pronoun written out that reads only by passing a word over ("bonkers") is two
    guesses: the line stays refused, the word named."""
    got = _read(
        XI_LINE + "\nafter 40 overs everyone goes bonkers except Root and Stokes, they stay normal"
    )
    assert _m(got).rules == ()
    assert any("'bonkers'" in e.message for e in got.errors)

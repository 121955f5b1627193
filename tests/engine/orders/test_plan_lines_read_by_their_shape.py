"""Plan lines read by their shape (issue 24, bowling): names joined by a sign, the pitch's two
ends, one over each in the order written, bowlers named and then named again with their
overs, an opening said before its bowlers, a pair's start and count each, a count before
where a spell starts. Each reading keeps the limits and its echo reads back to itself; a
line whose overs stay unsaid is refused, never guessed."""

from __future__ import annotations

import pytest

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language._plan_forms import ends, in_order, joined
from engine.flungo.plan_check import is_legal
from tests.engine.orders.test_bowling_plans_as_captains_say_them import _odd, read


def _plan(line: str, fmt: Format = Format.FIFTY) -> str:
    got = read(line, fmt)
    assert not got.errors and not got.not_understood, (line, got.errors, got.not_understood)
    echo = got.echo_text().strip()
    again = read(echo, fmt)
    assert again.orders == got.orders and not again.errors  # the echo is the contract
    plan = dict(got.orders.match.bowling_plan) if got.orders.match else {}
    assert is_legal(plan, FORMATS[fmt])
    return echo


def _refused(line: str, fmt: Format = Format.FIFTY) -> None:
    """The line is refused or asked, with no bowling plan read from it."""
    got = read(line, fmt)
    assert got.errors or got.not_understood, line
    assert got.orders.match is None or not got.orders.match.bowling_plan


def test_a_sign_between_names_joins_them() -> None:
    """ "Stone + Green", "Stone/Green": a pair written in a list or a note, never a score."""
    assert joined("stone + green share 23-34") == "stone and green share 23-34"
    assert joined("split stone/green") == "split stone and green"
    assert joined("120/3 at 30") == "120/3 at 30"
    assert _plan("Stone + Green share 23-34") == (
        f"Stone bowls overs {_odd(23, 33)}\nGreen bowls overs {_odd(24, 34)}"
    )


def test_the_two_ends_are_a_pair_in_turn() -> None:
    """ "X from one end, Y from the other": the pair in turn, the first named first, over the
    overs the line gives them; with the new ball said, they open."""
    assert ends("warne from the one end and flintoff the other", ["warne", "flintoff"]) == (
        "warne and flintoff from both ends"
    )
    assert _plan("New ball: Warne from one end and Anderson spin from other end") == (
        "Shane Warne bowls over 1\nJimmy Anderson bowls over 2"
    )
    assert _plan("Stone at one end, Green at the other, overs 21 to 26") == (
        "Stone bowls overs 21, 23, 25\nGreen bowls overs 22, 24, 26"
    )


def test_the_two_ends_with_no_overs_are_not_guessed() -> None:
    """The ends say who bowls together, not when: with no overs, no opening and no phase the
    line is refused with a word named, not read as the new ball."""
    _refused("Stone from one end, Green from the other")


@pytest.mark.parametrize(
    ("line", "fmt", "echo"),
    [
        (
            "T20: Stone and Freddie the 13th to the 16th, and the last four overs Warne, Rock, "
            "Warne, Flintoff in that order",
            Format.T20,
            "Stone bowls overs 13, 15\nFreddie Flintoff bowls overs 14, 16, 20\n"
            "Shane Warne bowls overs 17, 19\nRock bowls over 18",
        ),
        (
            "Warne, Stone and Rock bowl the last three overs in that order",
            Format.FIFTY,
            "Shane Warne bowls over 48\nStone bowls over 49\nRock bowls over 50",
        ),
        (
            "overs 31-34: Grey, Stone, Grey, Rock",
            Format.FIFTY,
            "Grey bowls overs 31, 33\nStone bowls over 32\nRock bowls over 34",
        ),
    ],
)
def test_one_over_each_in_the_order_written(line: str, fmt: Format, echo: str) -> None:
    """A span followed by as many names as it has overs (or the names, the span and "in that
    order") is one over each, in the order written; a name said twice bowls twice."""
    assert _plan(line, fmt) == echo


def test_a_span_with_fewer_names_than_overs_is_no_sequence() -> None:
    """Two names over six overs is a pair in turn, as before; the sequence is only where each
    over has its name."""
    assert in_order("overs 1-6: warne, flintoff", ["warne", "flintoff"], 50) == (
        "overs 1-6: warne, flintoff"
    )


@pytest.mark.parametrize(
    ("line", "fmt", "echo"),
    [
        (
            "T20 bowling: Warne opens with Rock, Warne overs 1 and 3, Rock 2 and 4, then "
            "Anderson and Grey take overs 5 through 12 between them",
            Format.T20,
            "Shane Warne bowls overs 1, 3\nRock bowls overs 2, 4\n"
            "Jimmy Anderson bowls overs 5, 7, 9, 11\nGrey bowls overs 6, 8, 10, 12",
        ),
        (
            "Opening pair is Warne and Freddie, Warne from the one end and Flintoff the other, "
            "overs 1 to 6 between them",
            Format.FIFTY,
            "Shane Warne bowls overs 1, 3, 5\nFreddie Flintoff bowls overs 2, 4, 6",
        ),
    ],
)
def test_bowlers_named_again_with_their_overs(line: str, fmt: Format, echo: str) -> None:
    """Bowlers named first (an opening pair) and then again with their overs: the second
    naming says what they bowl, and the opening is checked against it."""
    assert _plan(line, fmt) == echo


def test_an_opening_the_overs_contradict_is_refused() -> None:
    """ "Warne opens with Rock" and then overs that give neither the first: which is meant is
    the manager's to say."""
    _refused("Warne opens with Rock, Warne overs 5 and 7, Rock 6 and 8")


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "Open: Warne & Freddie, 5 overs each, alternating",
            f"Shane Warne bowls overs {_odd(1, 9)}\nFreddie Flintoff bowls overs {_odd(2, 10)}",
        ),
        (
            "then spin - Jimmy and Grey from over 11, 6 each",
            f"Jimmy Anderson bowls overs {_odd(11, 21)}\nGrey bowls overs {_odd(12, 22)}",
        ),
        ("Warne bowls a 5-over spell from the 11th", f"Shane Warne bowls overs {_odd(11, 19)}"),
        ("Grey gets 6 from over 20", f"Grey bowls overs {_odd(20, 30)}"),
        (
            "Anderson and Grey through overs 11 to 18",
            f"Jimmy Anderson bowls overs {_odd(11, 17)}\nGrey bowls overs {_odd(12, 18)}",
        ),
    ],
)
def test_openings_starts_and_counts(line: str, echo: str) -> None:
    """An opening said before its bowlers is theirs; a pair from an over with a count each
    bowls in turn from there; a count before where a spell starts is its length."""
    assert _plan(line) == echo


def test_a_number_then_a_comma_is_no_count() -> None:
    """ "Grey 6, from over 20": the comma parts them, so 6 is not read as his count."""
    got = read("Grey 6, from over 20")
    assert got.errors or got.not_understood


# Ten plan lines written for this test, in the forms above, by a captain who never saw the
# corpus: each must read exactly (the mechanisms carry beyond the lines they were built on).
FRESH = [
    (
        "Rock + Stone take the new ball, 3 overs each",
        Format.FIFTY,
        "Rock bowls overs 1, 3, 5\nStone bowls overs 2, 4, 6",
    ),
    (
        "Overs 47 to 50: Flintoff, Warne, Flintoff, Warne",
        Format.FIFTY,
        "Freddie Flintoff bowls overs 47, 49\nShane Warne bowls overs 48, 50",
    ),
    (
        "Grey from the one end and Anderson from the other end, overs 15-22",
        Format.FIFTY,
        f"Grey bowls overs {_odd(15, 21)}\nJimmy Anderson bowls overs {_odd(16, 22)}",
    ),
    (
        "Opening bowlers: Stone and Rock. Stone 1, 3, 5 and Rock 2, 4, 6",
        Format.FIFTY,
        "Stone bowls overs 1, 3, 5\nRock bowls overs 2, 4, 6",
    ),
    (
        "stokes/green 31-36 between em",
        Format.FIFTY,
        f"Ben Stokes bowls overs {_odd(31, 35)}\nGreen bowls overs {_odd(32, 36)}",
    ),
    (
        "Warne bowls a four-over spell from over 7",
        Format.T20,
        "Shane Warne bowls overs 7, 9, 11, 13",
    ),
    (
        "Anderson, Grey and Warne the 18th to the 20th in that order",
        Format.T20,
        "Jimmy Anderson bowls over 18\nGrey bowls over 19\nShane Warne bowls over 20",
    ),
    (
        "Flintoff and Stone from over 41, 5 apiece",
        Format.FIFTY,
        f"Freddie Flintoff bowls overs {_odd(41, 49)}\nStone bowls overs {_odd(42, 50)}",
    ),
    ("Stone takes 4 from the 9th", Format.T20, "Stone bowls overs 9, 11, 13, 15"),
    (
        "New ball - Rock at one end, Stone spin at the other",
        Format.FIFTY,
        "Rock bowls over 1\nStone bowls over 2",
    ),
]


@pytest.mark.parametrize(("line", "fmt", "echo"), FRESH)
def test_ten_fresh_plan_lines_read_exactly(line: str, fmt: Format, echo: str) -> None:
    """Ten lines of our own in the forms this module reads, never tuned on."""
    assert _plan(line, fmt) == echo


@pytest.mark.parametrize(
    ("line", "fmt", "first", "second"),
    [
        ("Flintoff at the death", Format.FIFTY, _odd(41, 49), _odd(42, 50)),
        ("Warne in the powerplay", Format.T20, "1, 3, 5", "2, 4, 6"),
    ],
)
def test_one_bowler_over_a_phase_asks_which_end(
    line: str, fmt: Format, first: str, second: str
) -> None:
    """One bowler given a phase bowls from one end, every second over; from its first over
    or its second is not said, so both readings are shown and neither is acted on."""
    got = read(line, fmt)
    assert not got.errors
    [asked] = got.not_understood
    name = "Freddie Flintoff" if "Flintoff" in line else "Shane Warne"
    assert asked.readings == (f"{name} bowls overs {first}", f"{name} bowls overs {second}")
    assert got.orders.match is None or not got.orders.match.bowling_plan


def test_one_bowler_over_a_phase_takes_the_end_the_line_leaves() -> None:
    """Where the line gives the other end's overs, one reading is left and it is read."""
    assert _plan("Stone overs 42, 44, 46, 48, 50; Flintoff at the death") == (
        f"Freddie Flintoff bowls overs {_odd(41, 49)}\nStone bowls overs {_odd(42, 50)}"
    )


@pytest.mark.parametrize(
    "line", ["twirlers 11 to 16", "our spinners share overs 11 to 16", "spin attack 11-16"]
)
def test_the_glossarys_words_for_spin_are_the_squads_spinners(line: str) -> None:
    """Cricket's words for the slow bowlers, in the plural, are the squad's two spinners."""
    assert _plan(line) == (
        f"Jimmy Anderson bowls overs {_odd(11, 15)}\nGrey bowls overs {_odd(12, 16)}"
    )


def test_one_spinner_of_two_is_asked() -> None:
    """ "Our spinner" where the squad has two: either could be meant, both are shown; the
    line's other overs never make one silently."""
    got = read("Stone overs 42, 44, 46; the spinner 41, 43, 45")
    assert not got.errors
    [asked] = got.not_understood
    assert [r.splitlines()[0] for r in asked.readings] == [
        "Jimmy Anderson bowls overs 41, 43, 45",
        "Grey bowls overs 41, 43, 45",
    ]


def test_one_spinner_of_the_xis_one_is_him() -> None:
    """With an XI that holds one spinner, "our spinner" is he."""
    xi = "xi: Root, Stokes, Tom Smith, Jones, Ant and Dec, Wilson, Flintoff, Green, White, "
    got = read(xi + "Warne, Anderson\nour spinner overs 11, 13, 15")
    assert not got.errors and not got.not_understood
    assert got.echo_text().splitlines()[-1] == "Jimmy Anderson bowls overs 11, 13, 15"


def test_one_of_many_seamers_is_not_guessed() -> None:
    """Seven pace bowlers: "our seamer" is refused, not given to the best of them."""
    _refused("our seamer bowls overs 1, 3, 5")


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "after 30 overs: the spinners bowl the rest",
            "after 30 overs: Jimmy Anderson and Grey bowl the rest",
        ),
        (
            "when the 7th wicket falls the spinners bowl the rest",
            "when the 7th wicket falls: Jimmy Anderson and Grey bowl the rest",
        ),
    ],
)
def test_a_kind_of_bowler_in_a_rule_is_the_squads(line: str, echo: str) -> None:
    """In a rule that says who bowls, "the spinners" are the squad's two, as in a plan."""
    got = read(line)
    assert not got.errors and not got.not_understood
    assert got.echo_text().strip() == echo


def test_a_kind_of_bowler_in_a_rule_is_never_guessed_from_many() -> None:
    """ "pace" with seven pace bowlers in a rule: refused, never two of them chosen."""
    got = read("after 30 overs: pace bowls the rest")
    assert got.errors or got.not_understood
    assert not got.orders.match or not got.orders.match.rules


@pytest.mark.parametrize(
    ("line", "fmt", "echo"),
    [
        (
            "Anderson on at 11 and bowls out",
            Format.FIFTY,
            f"Jimmy Anderson bowls overs {_odd(11, 29)}",
        ),
        (
            "Anderson from the 11th, bowls his quota",
            Format.FIFTY,
            f"Jimmy Anderson bowls overs {_odd(11, 29)}",
        ),
        (
            "Warne on at 5, bowls his full allocation",
            Format.T20,
            "Shane Warne bowls overs 5, 7, 9, 11",
        ),
    ],
)
def test_his_whole_quota_in_cricket_words_is_a_spells_length(
    line: str, fmt: Format, echo: str
) -> None:
    """ "Bowls out", "his quota", "his full allocation": the format's quota, as a spell's
    length from where he comes on."""
    assert _plan(line, fmt) == echo


def test_his_whole_quota_with_no_overs_is_still_refused() -> None:
    """ "Anderson bowls out" alone says how many, not which: refused with a word, as before."""
    _refused("Anderson bowls out")


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "Stone and Rock bowl overs 11-20 with Rock first",
            f"Rock bowls overs {_odd(11, 19)}\nStone bowls overs {_odd(12, 20)}",
        ),
        (
            "Stone and Rock bowl overs 11-20, Rock starting",
            f"Rock bowls overs {_odd(11, 19)}\nStone bowls overs {_odd(12, 20)}",
        ),
        (
            "overs 11 to 14 go to Stone and Rock",
            "Stone bowls overs 11, 13\nRock bowls overs 12, 14",
        ),
        ("give the 49th and 50th to Warne", "Shane Warne bowls overs 49, 50"),
        (
            "Stone partnered by Rock, overs 11 to 16",
            "Stone bowls overs 11, 13, 15\nRock bowls overs 12, 14, 16",
        ),
        (
            "Anderson and Grey operate in tandem from 21 to 30",
            f"Jimmy Anderson bowls overs {_odd(21, 29)}\nGrey bowls overs {_odd(22, 30)}",
        ),
    ],
)
def test_who_starts_and_whom_overs_go_to(line: str, echo: str) -> None:
    """Who of a pair starts ("with Rock first", "Rock starting": never let pass, which read
    Stone first), overs said first and then "to" their bowler, and a pair in cricket's words
    ("partnered by", "operate in tandem")."""
    assert _plan(line) == echo


@pytest.mark.parametrize(
    "line",
    [
        # more names than overs: the last would bowl none (it was dropped silently)
        "overs 17-20: Warne, Rock, Warne, Flintoff, Stone",
        "Warne and Flintoff bowl over 50",
        # the opener the line names is not the one the overs give the first over
        "Warne opens with Rock, Rock overs 1 and 3, Warne 2 and 4",
        "Warne and Rock open, Rock overs 1 and 3, Warne 2 and 4",
        # a spell longer than the innings left (it was cut to the overs there are)
        "Grey gets 6 from over 46",
        "Grey bowls 6 overs from the 46th",
    ],
)
def test_what_a_plan_line_cannot_mean_as_written_is_refused(line: str) -> None:
    """A name with no over, an opening the overs contradict, a count the innings cannot
    hold: refused, never read as a part of what was said."""
    _refused(line)


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        (
            "Warne opens with Flintoff, overs 1 to 8 between them, then Stone and Rock 9 to 14",
            f"Shane Warne bowls overs {_odd(1, 7)}\nFreddie Flintoff bowls overs {_odd(2, 8)}\n"
            f"Stone bowls overs {_odd(9, 13)}\nRock bowls overs {_odd(10, 14)}",
        ),
        (
            "Warne opens with Flintoff, 4 overs each",
            f"Shane Warne bowls overs {_odd(1, 7)}\nFreddie Flintoff bowls overs {_odd(2, 8)}",
        ),
    ],
)
def test_the_opener_and_his_partner_share_what_follows(line: str, echo: str) -> None:
    """A span or a count after "X opens with Y" is the pair's, X first (it was Y's alone)."""
    assert _plan(line) == echo


@pytest.mark.parametrize(
    ("line", "echo"),
    [
        ("Stone to take the new ball", "Stone bowls over 1"),
        (
            "Stone takes the new ball, Rock overs 2 and 4",
            "Stone bowls over 1\nRock bowls overs 2, 4",
        ),
    ],
)
def test_one_bowler_with_the_new_ball_opens(line: str, echo: str) -> None:
    """The new ball said of one bowler is his opening, the first over."""
    assert _plan(line) == echo


def test_to_open_with_no_word_of_bowling_is_still_not_a_plan() -> None:
    """ "Root to open" may be the batting's: no bowling plan is read from it."""
    got = read("Root to open")
    assert got.orders.match is None or not got.orders.match.bowling_plan


@pytest.mark.parametrize(
    "line", ["whatever's left to Stone and Green", "rest of the overs to Stone and Green"]
)
def test_the_rest_to_a_pair_is_both_of_theirs(line: str) -> None:
    """ "Whatever's left to Stone and Green": the rest goes to both, in turn (Stone, after
    "to", was taken for a mere reference and the rest given to Green alone)."""
    assert _plan(line) == (f"Stone bowls overs {_odd(1, 19)}\nGreen bowls overs {_odd(2, 20)}")


def test_the_rest_after_a_bowlers_overs_is_not_his() -> None:
    """ "Warne overs 1-10 odd, the rest to Stone and Green": the rest is Stone's and
    Green's, after Warne's five."""
    echo = _plan("Warne overs 1-10 odd, the rest to Stone and Green")
    assert echo.startswith(f"Shane Warne bowls overs {_odd(1, 9)}\nStone bowls overs 2, ")


@pytest.mark.parametrize(
    "line",
    [
        # two spells' starts, or overs and a start: one spell's overs cannot hold both
        "Stone 3 overs from 11 and 3 from 41",
        "Warne 1, 3 and from 41 every other over",
        # "to" is no prefix of Tom Smith's name: the line is refused, not read as his
        "overs 41 to 44 to Warne",
        # a bowler after the pair at the two ends is not a third of their turns
        "Warne from one end and Flintoff from the other, Stone overs 1 to 4",
        "Warne, Flintoff and Stone from both ends, overs 1-6",
    ],
)
def test_lines_that_were_misread_are_refused(line: str) -> None:
    """Lines main read silently as something else (overs 3, 11, 41; Tom Smith's overs)."""
    _refused(line)


def test_an_opener_whose_overs_are_not_the_new_balls_is_refused() -> None:
    """ "Warne opens, overs 5, 7, 9": an opener bowls the first or second over."""
    _refused("Warne opens, overs 5, 7, 9")

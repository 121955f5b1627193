"""Where a real player stumbled: team names, a bare toss choice, near-miss names, phrasings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.errors import AmbiguousOrder
from engine.flungo.formats import FORMATS, Format, FormatSpec
from engine.flungo.language import OrderContext, ParsedOrders, parse_orders
from engine.flungo.orders import (
    BattingStyle,
    Comparison,
    Condition,
    Quantity,
    Rule,
    StyleChange,
    StyleTarget,
    TargetKind,
    TossChoice,
    Trigger,
    TriggerKind,
)
from engine.flungo.squad import Team, generate_squad
from tests.engine.orders.squad import opponent_team

# The squad a new manager gets: placeholder names with digits ("Batsman 3").
PLACEHOLDERS = generate_squad(Dice(1), "Gunge Giants")
ALL = StyleTarget(TargetKind.ALL)


def read(text: str, team: Team, fmt: FormatSpec) -> ParsedOrders:
    return parse_orders(text, team, fmt, context=OrderContext(opponent=opponent_team()))


def one_error(result: ParsedOrders) -> tuple[str, int, str, str | None]:
    assert len(result.errors) == 1, [str(e) for e in result.errors]
    (e,) = result.errors
    assert e.span is not None
    return (e.kind, e.span.column, e.message, e.hint)


@pytest.mark.parametrize(
    "text",
    [
        "Team Gunge Rovers",
        "Team: Gunge Rovers",
        "team - Gunge Rovers",
        "Our team is called Gunge Rovers",
        "Team name Gunge Rovers",
        "The team will be called Gunge Rovers",
        "we are called Gunge Rovers",
    ],
)
def test_team_name_wordings(team: Team, t20: FormatSpec, text: str) -> None:
    """Every usual way of giving the team's name names the team."""
    r = read(text, team, t20)
    assert r.errors == ()
    assert r.orders.naming is not None and r.orders.naming.team_name == "Gunge Rovers"


@pytest.mark.parametrize(
    "text",
    [
        "Team: Root, Stokes, Tom Smith, Jones, Ant and Dec, Wilson, Flintoff, Green, White, "
        "Warne, Anderson",
        "team is Root, Stokes, Tom Smith, Jones, Ant and Dec, Wilson, Flintoff, Green, White, "
        "Warne, Anderson",
        "Team:\nRoot, Stokes, Tom Smith, Jones, Ant and Dec\nWilson, Flintoff, Green, White, "
        "Warne, Anderson",
    ],
)
def test_team_followed_by_a_list_is_the_xi(team: Team, t20: FormatSpec, text: str) -> None:
    """ "Team:" with a list of names (or names under it) is still the XI, not a team name."""
    r = read(text, team, t20)
    assert r.errors == ()
    assert r.orders.naming is None
    assert r.orders.match is not None and r.orders.match.xi is not None
    assert len(r.orders.match.xi) == 11


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("bat", TossChoice.BAT),
        ("Bowl", TossChoice.BOWL),
        ("- bowl.", TossChoice.BOWL),
        ("field", TossChoice.BOWL),
        ("we'll bowl", TossChoice.BOWL),
        ("We will bat first", TossChoice.BAT),
        ("we want to bat", TossChoice.BAT),
        ("we'd like to field first", TossChoice.BOWL),
        ("elect to bowl", TossChoice.BOWL),
        ("bowl first", TossChoice.BOWL),
        ("batting first", TossChoice.BAT),
        ("bat first if we win the toss", TossChoice.BAT),
        ("bowl if we win the toss", TossChoice.BOWL),
        ("toss: we'll bowl", TossChoice.BOWL),
        ("if we win the toss we want to bat", TossChoice.BAT),
    ],
)
def test_toss_wordings(team: Team, t20: FormatSpec, text: str, choice: TossChoice) -> None:
    """A bare "bat" or "bowl", or any usual way of saying it, is the choice on winning the toss."""
    r = read(text, team, t20)
    assert r.errors == (), [str(e) for e in r.errors]
    assert r.orders.match is not None and r.orders.match.toss is choice


def test_bowling_alone_is_still_the_plan_heading(team: Team, t20: FormatSpec) -> None:
    """ "Bowling:" over the plan is a heading, not the toss (only "bowling first" is a toss)."""
    r = read("Bowling:\nWarne overs 1-2", team, t20)
    assert r.errors == ()
    assert r.orders.match is not None and r.orders.match.toss is None
    assert r.orders.match.bowling_plan == ((1, "Shane Warne"), (2, "Shane Warne"))


def test_a_sentence_starting_with_we_is_chatter_not_a_toss(team: Team, t20: FormatSpec) -> None:
    """ "We are going to win this time" carries no order: chatter, free, not a broken toss."""
    r = read("We are going to win this time", team, t20)
    assert r.errors == () and r.orders == read("", team, t20).orders
    assert [c.text for c in r.chatter] == ["We are going to win this time"]


@pytest.mark.parametrize(
    ("text", "column", "wrong", "first"),
    [
        ("Star Bowlr 2 overs 7-8", 1, "Star Bowlr 2", "Star Bowler 2"),
        ("captain star batsmen 1", 9, "star batsmen 1", "Star Batsman 1"),
        ("Batsmen 3 aggressive", 1, "Batsmen 3", "Batsman 3"),
        ("when Batsmn 2 is out, all batsmen wahoo", 6, "Batsmn 2", "Batsman 2"),
        ("batting order: Star Batsman 1, Batsmen 1, Batsman 2", 32, "Batsmen 1", "Batsman 1"),
    ],
)
def test_near_miss_of_a_name_with_digits(
    t20: FormatSpec, text: str, column: int, wrong: str, first: str
) -> None:
    """A near miss of a placeholder name ("Batsmen 1") gets "did you mean", wherever it is."""
    kind, col, message, hint = one_error(read(text, PLACEHOLDERS, t20))
    assert (kind, col, message) == ("invalid", column, f"there is no squad member called '{wrong}'")
    assert hint is not None and hint.startswith(f"did you mean '{first}'")


def test_near_miss_inside_the_xi_list(t20: FormatSpec) -> None:
    """In the XI, "Batsmen 1" is the one name reported; the rest of the list is read."""
    names = [p.name for p in PLACEHOLDERS.players[:11]]
    names[2] = "Batsmen 1"
    kind, col, message, hint = one_error(read("1. XI: " + ", ".join(names), PLACEHOLDERS, t20))
    assert (kind, message) == ("invalid", "there is no squad member called 'Batsmen 1'")
    assert col == len("1. XI: Star Batsman 1, Star Batsman 2, ") + 1
    assert hint is not None and hint.startswith("did you mean 'Batsman 1'")


def test_near_miss_under_an_xi_heading(t20: FormatSpec) -> None:
    """A near miss on a line under an "XI:" heading also gets "did you mean"."""
    text = "XI:\nStar Batsman 1, Star Batsman 2\nBatsmen 1, Batsman 2"
    first = read(text, PLACEHOLDERS, t20).errors[0]
    assert first.span is not None and first.span.line == 3
    assert first.message == "there is no squad member called 'Batsmen 1'"
    assert first.hint is not None and first.hint.startswith("did you mean 'Batsman 1'")


def test_two_near_misses_on_one_line(t20: FormatSpec) -> None:
    """Each near miss on a line is reported."""
    r = read("Star Bowlr 1 overs 1-2, Bowlr 3 overs 3-4", PLACEHOLDERS, t20)
    assert [e.message for e in r.errors] == [
        "there is no squad member called 'Star Bowlr 1'",
        "there is no squad member called 'Bowlr 3'",
    ]


def test_an_unreadable_line_keeps_its_parse_error(t20: FormatSpec) -> None:
    """A line with no near miss of a name keeps the parser's own error."""
    r = read("Bowler 1 overs 1-2 ?? 7", PLACEHOLDERS, t20)
    assert len(r.errors) == 1 and r.errors[0].message == "I don't understand '?' here"


def test_suggestions_are_not_repeated(team: Team, t20: FormatSpec) -> None:
    """A name close to both a full name and its surname is offered once; at most 3 in all."""
    r = read("captain Smyth", team, t20)
    (e,) = r.errors
    assert e.hint is not None
    offered = e.hint.removeprefix("did you mean ").rstrip("?").split(" or ")
    assert len(offered) == len(set(offered)) <= 3
    # two letters off (one off is read as him, and said: test_nicknames_and_name_variants)
    r = read("captain Fintopf", team, t20)
    assert r.errors[0].hint == "did you mean 'Freddie Flintoff'?"


WAHOO = (StyleChange(ALL, BattingStyle.WAHOO),)


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        (
            "If we need 30 runs with 12 balls left all batsmen go wahoo",
            Rule(
                Trigger(TriggerKind.BALLS_LEFT, 12),
                (Condition(Quantity.RUNS_NEEDED, Comparison.GE, 30),),
                WAHOO,
            ),
        ),
        (
            "if we need 30 off the last 2 overs, everyone wahoo",
            Rule(
                Trigger(TriggerKind.BALLS_LEFT, 12),
                (Condition(Quantity.RUNS_NEEDED, Comparison.GE, 30),),
                WAHOO,
            ),
        ),
        (
            "need 20 off 6 balls: all wahoo",
            Rule(
                Trigger(TriggerKind.BALLS_LEFT, 6),
                (Condition(Quantity.RUNS_NEEDED, Comparison.GE, 20),),
                WAHOO,
            ),
        ),
        (
            "when 40 runs are needed, if more than 12 balls are left: all batsmen wahoo",
            Rule(
                Trigger(TriggerKind.RUNS_NEEDED, 40),
                (Condition(Quantity.BALLS_LEFT, Comparison.GT, 12),),
                WAHOO,
            ),
        ),
        (
            "when we need 20, if there are 3 overs left, all wahoo",
            Rule(
                Trigger(TriggerKind.RUNS_NEEDED, 20),
                (Condition(Quantity.BALLS_LEFT, Comparison.GE, 18),),
                WAHOO,
            ),
        ),
        (
            "after 15 overs, if runs needed > 60 and balls left < 40, all wahoo",
            Rule(
                Trigger(TriggerKind.AFTER_OVERS, 15),
                (
                    Condition(Quantity.RUNS_NEEDED, Comparison.GT, 60),
                    Condition(Quantity.BALLS_LEFT, Comparison.LT, 40),
                ),
                WAHOO,
            ),
        ),
        (
            "from the 15th over all batsmen aggressive",
            Rule(
                Trigger(TriggerKind.AFTER_OVERS, 14),
                (),
                (StyleChange(ALL, BattingStyle.AGGRESSIVE),),
            ),
        ),
        (
            "from over 15 onwards everyone wahoo",
            Rule(Trigger(TriggerKind.AFTER_OVERS, 14), (), WAHOO),
        ),
        (
            "once we pass 100 everybody wahoo",
            Rule(Trigger(TriggerKind.SCORE_REACHES, 100), (), WAHOO),
        ),
        (
            "if we lose 5 wickets before 10 overs, the rest bat defensive",
            Rule(
                Trigger(TriggerKind.WICKET, 5),
                (Condition(Quantity.OVERS, Comparison.LT, 10),),
                (StyleChange(StyleTarget(TargetKind.REMAINING), BattingStyle.DEFENSIVE),),
            ),
        ),
        (
            "when the 3rd wicket falls in the first 6 overs, all batsmen defensive",
            Rule(
                Trigger(TriggerKind.WICKET, 3),
                (Condition(Quantity.OVERS, Comparison.LT, 6),),
                (StyleChange(ALL, BattingStyle.DEFENSIVE),),
            ),
        ),
        (
            "if we lose the 4th wicket before the 10th over, all batsmen defensive",
            Rule(
                Trigger(TriggerKind.WICKET, 4),
                (Condition(Quantity.OVERS, Comparison.LT, 9),),
                (StyleChange(ALL, BattingStyle.DEFENSIVE),),
            ),
        ),
    ],
)
def test_conditional_phrasings(t20: FormatSpec, team: Team, text: str, rule: Rule) -> None:
    """Conditional orders as players write them read as the rule beside them."""
    r = read(text, team, t20)
    assert r.errors == (), [str(e) for e in r.errors]
    assert r.orders.match is not None and r.orders.match.rules == (rule,)


def test_echo_of_new_quantities_reads_back(team: Team, t20: FormatSpec) -> None:
    """Runs needed and balls left are echoed in words the parser reads back."""
    r = read("If we need 30 runs with 12 balls left all batsmen go wahoo", team, t20)
    assert r.echo_text() == "when 12 balls are left, if runs needed >= 30: all batsmen bat wahoo"
    assert read(r.echo_text(), team, t20).orders == r.orders


@pytest.mark.parametrize(
    "text",
    [
        "if we need lots with a few balls left, all wahoo",
        "when we are in trouble, the rest bat defensive",
    ],
)
def test_unreadable_conditionals_go_to_the_gm(team: Team, t20: FormatSpec, text: str) -> None:
    """A conditional sentence that still can't be read is an error and is not understood."""
    r = read(text, team, t20)
    assert r.errors and r.orders.match is None
    assert [n.text for n in r.not_understood] == [text]


@st.composite
def _misspelt(draw: st.DrawFn) -> tuple[str, str]:
    """A placeholder name with one letter changed, and the name."""
    name = draw(
        st.sampled_from([p.name for p in PLACEHOLDERS.players if any(c.isdigit() for c in p.name)])
    )
    letters = [i for i, ch in enumerate(name) if ch.isalpha()]
    i = draw(st.sampled_from(letters))
    new = draw(st.sampled_from("aeioubcdklmnrst").filter(lambda c: c != name[i].lower()))
    return name[:i] + new + name[i + 1 :], name


@settings(max_examples=100, deadline=None)
@given(
    _misspelt(),
    st.sampled_from(["captain {}", "{} overs 3-4", "{} aggressive", "xi: Bowler 3, {}"]),
)
def test_any_misspelt_placeholder_name_gets_did_you_mean(
    pair: tuple[str, str], template: str
) -> None:
    """One wrong letter in a placeholder name, in any order, gets "did you mean" with the name
    (unless the misspelling is itself a way of writing some squad member)."""
    wrong, name = pair
    result = parse_orders(template.format(wrong), PLACEHOLDERS, FORMATS[Format.T20])
    hints = [e.hint or "" for e in result.errors if "squad member" in e.message]
    if not hints:  # "Bowler 3" with the 'B' changed can still be a prefix or a word of someone
        assert any(isinstance(e, AmbiguousOrder) for e in result.errors) or not any(
            "I don't understand" in e.message for e in result.errors
        )
        return
    assert f"'{name}'" in hints[0]


@pytest.mark.parametrize(
    ("text", "echo"),
    [
        ("capt Root, wk Wilson, toss bat", "captain: Joe Root\nwicketkeeper: Wilson\ntoss: bat"),
        ("Toss: if we win, bat", "toss: bat"),
        ("3. Win toss - bowl", "toss: bowl"),
        (
            "Opening bowlers: Anderson and Warne",
            "Jimmy Anderson bowls over 1\nShane Warne bowls over 2",
        ),
        (
            "Anderson opens the bowling with Warne",
            "Jimmy Anderson bowls over 1\nShane Warne bowls over 2",
        ),
        (
            "Bowling: Anderson & Warne to open, then Flintoff 3-4",
            "Jimmy Anderson bowls over 1\nShane Warne bowls over 2\n"
            "Freddie Flintoff bowls overs 3, 4",
        ),
        (
            "Warne overs 1,3 Anderson 2,4",
            "Shane Warne bowls overs 1, 3\nJimmy Anderson bowls overs 2, 4",
        ),
        ("anderson 1 2", "Jimmy Anderson bowls overs 1, 2"),
        (
            "Reviews - top 4 only",
            "batting reviews: only for the top 4\nbowling reviews: only for the top 4",
        ),
        ("captain J Root", "captain: Joe Root"),
        ("batting order: root stokes t. smith", "batting order: Joe Root, Ben Stokes, Tom Smith"),
        ("Jones (wahoo)", "Jones bats wahoo"),
        ("Ant & Dec defensive", "Ant and Dec bats defensive"),
        ("Root Stokes aggressive", "Joe Root bats aggressive\nBen Stokes bats aggressive"),
        ("Orders for match 3", ""),
        (
            "after the 10th over all batsmen aggressive",
            "after 10 overs: all batsmen bat aggressive",
        ),
        ("at the end of the 10th over, everyone wahoo", "after 10 overs: all batsmen bat wahoo"),
        ("when we're 4 down all defensive", "when the 4th wicket falls: all batsmen bat defensive"),
        ("when there are 3 overs left all wahoo", "when 18 balls are left: all batsmen bat wahoo"),
        (
            "when the opposition need 30, Anderson bowls 48 and 50",
            "when 30 runs are needed: Jimmy Anderson bowls overs 48, 50",
        ),
        (
            "Once we reach 250, Root goes back to normal",
            "when the score reaches 250: Joe Root bats normal",
        ),
        (
            "when the 7th wicket falls, the tail bats defensive",
            "when the 7th wicket falls: the remaining batsmen bat defensive",
        ),
        (
            "at drinks if we are 3 down or less go aggressive",
            "at drinks, if wickets <= 3: all batsmen bat aggressive",
        ),
        (
            "at drinks, if our score is over 120: all wahoo",
            "at drinks, if score > 120: all batsmen bat wahoo",
        ),
        (
            "after 25 overs if we have fewer than 100 runs, all aggressive",
            "after 25 overs, if score < 100: all batsmen bat aggressive",
        ),
        (
            "If the run rate drops below 4 after 20 overs, all aggressive",
            "after 20 overs, if run rate < 4: all batsmen bat aggressive",
        ),
        (
            "after 40 overs, if we need more than 10 an over, everyone wahoo",
            "after 40 overs, if required rate > 10: all batsmen bat wahoo",
        ),
        (
            "after 40 overs if wickets in hand >= 5 all wahoo",
            "after 40 overs, if wickets <= 5: all batsmen bat wahoo",
        ),
        (
            "after 40 overs, if we have 5 wickets in hand, all wahoo",
            "after 40 overs, if wickets <= 5: all batsmen bat wahoo",
        ),
        (
            "at drinks, if we have lost 2 wickets or fewer and scored at least 100 runs, all wahoo",
            "at drinks, if wickets <= 2 and score >= 100: all batsmen bat wahoo",
        ),
    ],
)
def test_everyday_wordings(team: Team, fifty: FormatSpec, text: str, echo: str) -> None:
    """Wordings found by writing emails as a player would read to the echo beside them."""
    r = read(text, team, fifty)
    assert r.errors == (), [str(e) for e in r.errors]
    assert r.echo_text() == echo


def test_misspelt_order_word_is_read_as_a_fan_means_it(team: Team, t20: FormatSpec) -> None:
    """A common misspelling of a style ("aggresive") is read as the style (the lexicon's
    spelling table), and the echo shows the word pbm read."""
    r = read("Root agressive", team, t20)
    assert r.errors == () and r.echo_text() == "Joe Root bats aggressive"


@pytest.mark.parametrize(
    ("text", "column", "word", "right"),
    [
        ("Root bats normle", 11, "normle", "normal"),
        ("after 10 overs: Root dfensiv", 22, "dfensiv", "defensive"),
    ],
)
def test_misspelt_last_word_after_a_name_gets_did_you_mean(
    team: Team, t20: FormatSpec, text: str, column: int, word: str, right: str
) -> None:
    """A misspelt style the lexicon does not hold is pointed at, caret under it, with "did
    you mean", not "stops too soon"; nothing is acted on."""
    kind, col, message, hint = one_error(read(text, team, t20))
    assert (kind, col, hint) == ("invalid", column, f"did you mean '{right}'?")
    assert f"'{word}'" in message

"""Each kind of order: what it parses to and how it is echoed."""

from __future__ import annotations

import pytest

from engine.errors import AmbiguousOrder, IllegalOrder, InvalidOrder
from engine.flungo.formats import FormatSpec
from engine.flungo.language import OrderContext, ParsedOrders, parse_orders
from engine.flungo.orders import (
    BattingStyle,
    BowlingChange,
    Comparison,
    Condition,
    MatchOrders,
    Quantity,
    ReviewMode,
    ReviewPolicy,
    ReviewsChange,
    Rule,
    Stat,
    StyleChange,
    StyleTarget,
    TargetKind,
    TossChoice,
    Trigger,
    TriggerKind,
)
from engine.flungo.squad import Team
from tests.engine.orders.squad import XI, opponent_team


def read(text: str, team: Team, fmt: FormatSpec, **ctx: object) -> ParsedOrders:
    return parse_orders(text, team, fmt, context=OrderContext(**ctx))  # type: ignore[arg-type]


def match(result: ParsedOrders) -> MatchOrders:
    assert result.errors == (), [str(e) for e in result.errors]
    assert result.orders.match is not None
    return result.orders.match


XI_LINE = "XI: " + ", ".join(XI)


def test_selection(team: Team, fifty: FormatSpec) -> None:
    """XI, captain, keeper and toss parse with surnames and are echoed canonically."""
    r = read(
        "xi: Root, Stokes, Tom Smith, Jones, Ant and Dec, Wilson, Flintoff, Green, White, Warne,"
        " Anderson\ncaptain: Root\nwicket keeper is Wilson\nIf we win the toss we will bowl first",
        team,
        fifty,
    )
    m = match(r)
    assert m.xi == XI
    assert (m.captain, m.wicketkeeper, m.toss) == ("Joe Root", "Wilson", TossChoice.BOWL)
    assert [e.text for e in r.echo] == [
        "xi: " + ", ".join(XI),
        "captain: Joe Root",
        "wicketkeeper: Wilson",
        "toss: bowl",
    ]


def test_bullets_numbering_case_and_chatter_do_not_matter(team: Team, fifty: FormatSpec) -> None:
    """Bullets, numbers, case, spaces, greetings and a signature are all taken in stride."""
    r = read(
        "Hi GM,\n\n  1.   CAPTAIN:   root\n- toss:  BAT.\n* keeper Wilson\n• Root WAHOO\n"
        "2) Jones defensive\nThanks,\nFred Bloggs\n",
        team,
        fifty,
    )
    m = match(r)
    assert (m.captain, m.toss, m.wicketkeeper) == ("Joe Root", TossChoice.BAT, "Wilson")
    assert m.styles == (("Joe Root", BattingStyle.WAHOO), ("Jones", BattingStyle.DEFENSIVE))
    assert [e.line for e in r.echo] == [3, 4, 5, 6, 7]


def test_nested_bullets_and_lettered_items_are_stripped(team: Team, fifty: FormatSpec) -> None:
    """Nested bullets ("- * ") and "a)" or "(b)" are numbering; "J. Root" keeps his initial."""
    m = match(
        read("- * toss: bowl\na) captain Root\n(b) keeper Wilson\nJ. Root wahoo", team, fifty)
    )
    assert (m.toss, m.captain, m.wicketkeeper) == (TossChoice.BOWL, "Joe Root", "Wilson")
    assert m.styles == (("Joe Root", BattingStyle.WAHOO),)


def test_batting_order_with_styles_and_heading(team: Team, fifty: FormatSpec) -> None:
    """A batting order on one line or under a heading; styles in brackets or after the name."""
    one = match(read("batting order: Root (aggressive), Stokes, Jones wahoo", team, fifty))
    many = match(
        read("Batting order:\n1. Root (aggressive)\n2. Stokes\n3. Jones - wahoo", team, fifty)
    )
    assert one == many
    assert one.batting_order == ("Joe Root", "Ben Stokes", "Jones")
    assert one.styles == (("Joe Root", BattingStyle.AGGRESSIVE), ("Jones", BattingStyle.WAHOO))


def test_bowling_plan_forms(team: Team, fifty: FormatSpec) -> None:
    """Overs, ranges, "X bowls overs", openers and shared spells all build the plan."""
    m = match(
        read(
            "Anderson and Warne open\nAnderson overs 3, 5, 7-8, Warne 4,6 and 9\n"
            "Flintoff bowls overs 10-11\nStokes and Green bowl 12-15",
            team,
            fifty,
        )
    )
    assert dict(m.bowling_plan) == {
        1: "Jimmy Anderson",
        2: "Shane Warne",
        3: "Jimmy Anderson",
        4: "Shane Warne",
        5: "Jimmy Anderson",
        6: "Shane Warne",
        7: "Jimmy Anderson",
        8: "Jimmy Anderson",
        9: "Shane Warne",
        10: "Freddie Flintoff",
        11: "Freddie Flintoff",
        12: "Ben Stokes",
        13: "Green",
        14: "Ben Stokes",
        15: "Green",
    }


def test_over_given_twice_goes_to_the_later_line_and_the_echo_says_so(
    team: Team, fifty: FormatSpec
) -> None:
    """An over given twice is the later line's, and the earlier bowler's echo drops it."""
    result = read("Anderson overs 1, 3, 5\nWarne overs 5, 7", team, fifty)
    assert dict(match(result).bowling_plan) == {
        1: "Jimmy Anderson",
        3: "Jimmy Anderson",
        5: "Shane Warne",
        7: "Shane Warne",
    }
    assert result.echo_text().splitlines() == [
        "Jimmy Anderson bowls overs 1, 3",
        "Shane Warne bowls overs 5, 7",
    ]


def test_reviews(team: Team, fifty: FormatSpec) -> None:
    """Reviews policies for either side; "reviews" alone sets both, or with names the batting."""
    m = match(read("batting reviews: only for the top 4\nbowling reviews: never", team, fifty))
    assert m.batting_reviews == ReviewPolicy(ReviewMode.TOP_ORDER, top=4)
    assert m.bowling_reviews == ReviewPolicy(ReviewMode.NEVER)
    both = match(read("reviews: only for Root and Stokes", team, fifty))
    policy = ReviewPolicy(ReviewMode.NAMED, names=("Joe Root", "Ben Stokes"))
    assert (both.batting_reviews, both.bowling_reviews) == (policy, None)
    never = match(read("no reviews", team, fifty))
    assert never.batting_reviews == never.bowling_reviews == ReviewPolicy(ReviewMode.NEVER)


def test_bowling_reviews_name_the_opponents(team: Team, fifty: FormatSpec) -> None:
    """The bowling side's named reviews are the opponents' batsmen."""
    r = read("bowling reviews only for Lara", team, fifty, opponent=opponent_team())
    assert match(r).bowling_reviews == ReviewPolicy(ReviewMode.NAMED, names=("Brian Lara",))


def test_seed_conditional_example(team: Team, fifty: FormatSpec) -> None:
    """The seed's own example reads as a rule with a chained "but ... when" rule."""
    text = (
        "After 20 overs, if I have lost 3 wickets or less all batsmen will be aggressive, "
        "but will reduce to normal when the 6th wicket is lost."
    )
    (rule,) = match(read(text, team, fifty)).rules
    everyone = StyleTarget(TargetKind.ALL)
    assert rule == Rule(
        Trigger(TriggerKind.AFTER_OVERS, 20),
        (Condition(Quantity.WICKETS, Comparison.LE, 3.0),),
        (StyleChange(everyone, BattingStyle.AGGRESSIVE),),
        then=(
            Rule(Trigger(TriggerKind.WICKET, 6), (), (StyleChange(everyone, BattingStyle.NORMAL),)),
        ),
    )


@pytest.mark.parametrize(
    ("text", "trigger"),
    [
        ("after 10 overs: all batsmen wahoo", Trigger(TriggerKind.AFTER_OVERS, 10)),
        ("after 30 balls, everyone wahoo", Trigger(TriggerKind.AFTER_BALLS, 30)),
        ("at drinks all batsmen wahoo", Trigger(TriggerKind.AT_DRINKS)),
        ("when the 4th wicket falls, all wahoo", Trigger(TriggerKind.WICKET, 4)),
        ("at the fall of the fourth wicket all batsmen wahoo", Trigger(TriggerKind.WICKET, 4)),
        ("when Root is out, all batsmen wahoo", Trigger(TriggerKind.BATSMAN_OUT, name="Joe Root")),
        ("when the score reaches 150 all batsmen wahoo", Trigger(TriggerKind.SCORE_REACHES, 150)),
        ("when 30 runs are needed all batsmen wahoo", Trigger(TriggerKind.RUNS_NEEDED, 30)),
        ("with 12 balls left all batsmen wahoo", Trigger(TriggerKind.BALLS_LEFT, 12)),
        ("with 2 overs to go all batsmen wahoo", Trigger(TriggerKind.BALLS_LEFT, 12)),
        ("all batsmen wahoo when we need 20", Trigger(TriggerKind.RUNS_NEEDED, 20)),
    ],
)
def test_triggers(team: Team, fifty: FormatSpec, text: str, trigger: Trigger) -> None:
    """Every trigger of the conditional language, in several wordings."""
    (rule,) = match(read(text, team, fifty)).rules
    assert rule.trigger == trigger


@pytest.mark.parametrize(
    ("words", "condition"),
    [
        ("I have lost 3 wickets or less", Condition(Quantity.WICKETS, Comparison.LE, 3)),
        ("we have lost fewer than 3 wickets", Condition(Quantity.WICKETS, Comparison.LT, 3)),
        ("wickets <= 3", Condition(Quantity.WICKETS, Comparison.LE, 3)),
        ("the score is at least 100", Condition(Quantity.SCORE, Comparison.GE, 100)),
        ("score > 100", Condition(Quantity.SCORE, Comparison.GT, 100)),
        ("the run rate is below 5.5", Condition(Quantity.RUN_RATE, Comparison.LT, 5.5)),
        ("the required rate is more than 8", Condition(Quantity.REQUIRED_RATE, Comparison.GT, 8)),
        ("the asking rate >= 9", Condition(Quantity.REQUIRED_RATE, Comparison.GE, 9)),
        ("overs = 12", Condition(Quantity.OVERS, Comparison.EQ, 12)),
        ("5 or more wickets are down", Condition(Quantity.WICKETS, Comparison.GE, 5)),
        ("we have scored 200 or more", Condition(Quantity.SCORE, Comparison.GE, 200)),
    ],
)
def test_conditions(team: Team, fifty: FormatSpec, words: str, condition: Condition) -> None:
    """Conditions in words and in symbols."""
    (rule,) = match(read(f"at drinks, if {words}, all batsmen wahoo", team, fifty)).rules
    assert rule.conditions == (condition,)


def test_conditions_joined_by_and(team: Team, fifty: FormatSpec) -> None:
    """Several conditions joined by "and" must all hold."""
    (rule,) = match(read("at drinks if wickets < 3 and run rate < 5: all wahoo", team, fifty)).rules
    assert len(rule.conditions) == 2


def test_actions_and_until(team: Team, fifty: FormatSpec) -> None:
    """Targets (named, next N, remaining), bowling and review changes, and "until"."""
    text = (
        "when the score reaches 150, the next 2 batsmen bat wahoo; Root and Stokes defensive; "
        "Warne bowls overs 45-46; reviews never, until the sixth wicket falls"
    )
    (rule,) = match(read(text, team, fifty)).rules
    assert rule.actions == (
        StyleChange(StyleTarget(TargetKind.NEXT, count=2), BattingStyle.WAHOO),
        StyleChange(
            StyleTarget(TargetKind.NAMED, ("Joe Root", "Ben Stokes")), BattingStyle.DEFENSIVE
        ),
        BowlingChange("Shane Warne", (45, 46)),
        ReviewsChange(ReviewPolicy(ReviewMode.NEVER)),
    )
    assert rule.until == Trigger(TriggerKind.WICKET, 6)
    (rest,) = match(read("at drinks the remaining batsmen aggressive", team, fifty)).rules
    assert rest.actions == (
        StyleChange(StyleTarget(TargetKind.REMAINING), BattingStyle.AGGRESSIVE),
    )


def test_helper_points(team: Team, fifty: FormatSpec) -> None:
    """Treatment and boosts between matches."""
    r = read("treat Rock 2\nboost Root batting\nboost Green's fielding", team, fifty)
    assert r.errors == ()
    assert r.orders.helpers is not None
    assert r.orders.helpers.treatments == (("Rock", 2),)
    assert r.orders.helpers.boosts == (("Joe Root", Stat.BATTING), ("Green", Stat.FIELDING))


def test_orders_naming_an_injured_player_read_whole(team: Team, fifty: FormatSpec) -> None:
    """Rock is injured (2 injury points): an XI, batting order, style and overs naming him are
    read as written, not dropped, so orders sent before an injury keep their meaning; the
    engine's selection puts the best fit player in his slot if he is not treated (issue 22)."""
    xi = "Root, Stokes, Tom Smith, Jones, Ant and Dec, Wilson, Flintoff, Green, White, Warne, Rock"
    text = f"xi: {xi}\nbatting order: {xi}\nRock wahoo\nover 3: Rock\ncaptain: Rock"
    got = match(read(text, team, fifty))
    assert got.xi is not None and "Rock" in got.xi and got.captain == "Rock"
    assert got.batting_order is not None and got.batting_order[-1] == "Rock"
    assert ("Rock", BattingStyle.WAHOO) in got.styles and (3, "Rock") in got.bowling_plan
    # the state may still say outright that someone cannot play
    said = read(text, team, fifty, unavailable=frozenset({"Rock"}))
    assert "Rock cannot play this match (injured)" in [str(e.message) for e in said.errors]


def test_naming(team: Team, fifty: FormatSpec) -> None:
    """Team and squad naming by slot or by replacing a name; later orders use the new names."""
    r = read(
        "Team name: The Flying Gunges\nname 12: Mr Bean\nrename Grey as Dot Cotton\ncaptain: Bean",
        team,
        fifty,
    )
    assert r.errors == ()
    assert r.orders.naming is not None
    assert r.orders.naming.team_name == "The Flying Gunges"
    assert r.orders.naming.names == ((12, "Mr Bean"), (13, "Dot Cotton"))
    assert match(r).captain == "Mr Bean"


def test_errors_are_all_reported_with_location(team: Team, fifty: FormatSpec) -> None:
    """Three kinds of error, each with line, column and caret; good lines still count."""
    r = read("capitan Stokes\nSmith aggressive\ncaptain Root\nboost Moss fielding", team, fifty)
    kinds = [(type(e), e.span.line if e.span else 0) for e in r.errors]
    assert kinds == [(InvalidOrder, 1), (AmbiguousOrder, 2), (IllegalOrder, 4)]
    assert r.errors[0].hint == "did you mean 'captain'?"
    assert str(r.errors[1]).endswith("Smith aggressive\n^^^^^")
    assert match_ok(r).captain == "Joe Root"


def match_ok(r: ParsedOrders) -> MatchOrders:
    assert r.orders.match is not None
    return r.orders.match


def test_conditional_sentence_not_understood_is_kept(team: Team, fifty: FormatSpec) -> None:
    """A conditional sentence that cannot be read is listed for the GM, not dropped."""
    r = read("after 20 overs, if the moon is full all batsmen wahoo", team, fifty)
    assert len(r.not_understood) == 1
    assert r.not_understood[0].line == 1
    assert isinstance(r.errors[0], InvalidOrder)


def test_a_quota_of_overs_is_listed_not_understood(team: Team, fifty: FormatSpec) -> None:
    """ "Anderson to bowl 4 overs" (a number of overs, not which) is refused with what to
    write and listed for the GM; the rest of the mail is read, and a plan is not a quota."""
    text = "Anderson to bowl 4 overs\nWarne and Anderson will bowl 10 overs max\ntoss: bat"
    r = read(text, team, fifty)
    assert [n.line for n in r.not_understood] == [1, 2]
    assert all("number of overs for a bowler" in e.message for e in r.errors)
    assert match_ok(r).toss is not None
    plan = read("Anderson bowls overs 4, 6", team, fifty)
    assert not plan.errors and not plan.not_understood


def test_heading_without_names(team: Team, fifty: FormatSpec) -> None:
    """A batting order heading with no names under it is reported, not taken as empty."""
    r = read("Batting order:\n\ncaptain: Root", team, fifty)
    assert [e.message for e in r.errors] == ["no names follow this batting order heading"]
    assert match_ok(r).batting_order is None


@pytest.mark.parametrize(
    ("text", "echo"),
    [
        ("Captain - Root", "captain: Joe Root"),
        ("Toss = bat", "toss: bat"),
        ("Root - aggressive", "Joe Root bats aggressive"),
        ("Stokes: wahoo", "Ben Stokes bats wahoo"),
        ("If we win the toss we'll bat", "toss: bat"),
        ("on winning the toss we will field", "toss: bowl"),
        (
            "When we lose our 5th wicket, all batsmen defensive",
            "when the 5th wicket falls: all batsmen bat defensive",
        ),
        ("From over 15, all batsmen aggressive", "after 14 overs: all batsmen bat aggressive"),
        ("In the last 5 overs, everyone wahoo", "when 30 balls are left: all batsmen bat wahoo"),
        (
            "If Root is out, Stokes bats aggressively",
            "when Joe Root is out: Ben Stokes bats aggressive",
        ),
        ("aggressive from over 10", "after 9 overs: all batsmen bat aggressive"),
        ("Bowling plan: Flintoff 9, 11", "Freddie Flintoff bowls overs 9, 11"),
        ("please treat rock", "treat Rock: 2"),
        ("Flint overs 1 to 2", "Freddie Flintoff bowls overs 1, 2"),
        (
            "when the sixth wicket goes down, revert to normal",
            "when the 6th wicket falls: all batsmen bat normal",
        ),
    ],
)
def test_ways_of_saying_it(team: Team, fifty: FormatSpec, text: str, echo: str) -> None:
    """Common ways of writing an order read as the canonical order shown."""
    r = read(text, team, fifty)
    assert r.errors == (), [str(e) for e in r.errors]
    assert r.echo_text() == echo


def test_heading_lines_for_the_plan_are_skipped(team: Team, fifty: FormatSpec) -> None:
    """A "Bowling:" heading line says nothing itself; the lines under it are orders."""
    m = match(read("Bowling:\nAnderson 1-2 and Warne 3-4", team, fifty))
    assert m.bowling_plan == (
        (1, "Jimmy Anderson"),
        (2, "Jimmy Anderson"),
        (3, "Shane Warne"),
        (4, "Shane Warne"),
    )


def test_renamed_applies_squad_naming(team: Team, fifty: FormatSpec) -> None:
    """renamed() gives the squad the names and team name the orders chose."""
    from engine.flungo.language import renamed

    r = read("team name: Gunge United\nname 1: Mr Bean", team, fifty)
    new = renamed(team, r.orders.naming)
    assert new.name == "Gunge United"
    assert new.players[0].name == "Mr Bean"
    assert new.players[1:] == team.players[1:]
    assert renamed(team, None) is team


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("Ant and Dec", True),
        ("Zoë Ball", True),
        ("O’Brien", True),
        ("R2-D2", True),
        ("A", True),
        ("", False),
        ("x" * 41, False),
        ("<b>Bold</b>", False),
        ("Tab\there", False),
        ("1234", False),
        ("Wahoo", False),
        ("Wahoo Jones", True),
    ],
)
def test_name_limits(name: str, ok: bool) -> None:
    """Names: 1-40 characters, letters, digits, spaces and . ' ’ - &; not a lone order word."""
    from engine.flungo.language import check_name

    assert (check_name(name) is None) is ok

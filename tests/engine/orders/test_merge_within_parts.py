"""Within a part, a mail that names some overs or some batsmen changes those and keeps the rest;
"new bowling plan:", "new batting order:" and "new styles:" give a part afresh (issue 22)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, ParsedOrders, canonical, parse_orders
from engine.flungo.merge import merge_orders
from engine.flungo.orders import BattingStyle, MatchOrders, Orders
from tests.engine.orders.squad import fixture_team

TEAM = fixture_team()
FIFTY = FORMATS[Format.FIFTY]
T20 = FORMATS[Format.T20]


def _mail(text: str, standing: Orders, fmt: Format = Format.T20) -> ParsedOrders:
    return parse_orders(text, TEAM, fmt, context=OrderContext(standing=standing.match))


def _standing(text: str, fmt: Format = Format.T20) -> Orders:
    parsed = parse_orders(text, TEAM, fmt)
    assert parsed.errors == (), parsed.errors
    return parsed.orders


PLAN = _standing(
    "Warne bowls overs 1, 3, 5, 7\nAnderson bowls overs 2, 4, 6, 8\n"
    "Flintoff bowls overs 9, 11, 13, 15\nGreen bowls overs 10, 12, 17, 19\n"
    "White bowls overs 14, 18, 20"
)


def test_a_bowler_given_two_overs_changes_only_those_overs() -> None:
    """ "Stokes bowls overs 14 and 16" (the issue's "Lenny Henry bowls overs 14 and 16"):
    overs 14 and 16 are his, every other over of the plan stands, and the report says which."""
    got = merge_orders(PLAN, _mail("Stokes bowls overs 14 and 16", PLAN))
    assert got.orders.match is not None
    before, after = dict(PLAN.match.bowling_plan), dict(got.orders.match.bowling_plan)  # type: ignore[union-attr]
    assert {o for o in before.keys() | after.keys() if before.get(o) != after.get(o)} == {14, 16}
    assert after[14] == after[16] == "Ben Stokes"
    [report] = got.parts
    assert report.status == "changed"
    assert report.kept == tuple(str(o) for o in sorted(before) if o not in (14, 16))


def test_new_bowling_plan_replaces_the_whole_plan() -> None:
    """ "new bowling plan:" (and "a fresh bowling plan", "replace the bowling plan with") gives
    the plan whole: the overs it leaves out go to the default bowler."""
    for text in (
        "new bowling plan: Stokes 1, 3",
        "New bowling plan:\nStokes 1, 3",
        "a fresh bowling plan - Stokes overs 1 and 3",
        "replace the bowling plan with: Stokes 1, 3",
        "bowling plan from scratch: Stokes 1, 3",
    ):
        mail = _mail(text, PLAN)
        assert mail.errors == (), (text, mail.errors)
        got = merge_orders(PLAN, mail)
        assert got.orders.match is not None
        assert got.orders.match.bowling_plan == ((1, "Ben Stokes"), (3, "Ben Stokes")), text
        assert got.parts[0].status == "new" and got.parts[0].kept == ()
        assert mail.echo_text().splitlines()[0] == "new bowling plan:", text


def test_a_standing_over_the_mail_keeps_counts_against_the_limits() -> None:
    """An over the mail gives that, with the overs that stand, makes a bowler bowl five in a
    Twenty20 or three in a row is mended to the nearest legal plan, the standing overs
    counting and unchanged, and says so once: the over past the quota is not his (the plan
    that stood keeps it), the over in a run too long moves to the nearest free one."""
    mail = _mail("Warne bowls over 9", PLAN)
    [error] = mail.errors
    assert "more than 4 overs" in str(error) and "with the plan that stands" in str(error)
    assert "new bowling plan" in str(error)
    got = merge_orders(PLAN, mail)
    assert got.orders.match is not None and got.orders.match.bowling_plan == PLAN.match.bowling_plan  # type: ignore[union-attr]
    assert not got.blocked
    run = _mail("White bowls over 19", PLAN)  # 18, 19, 20: three in a row
    [error] = run.errors
    assert "in succession (overs 18 to 20): he bowls over 16 instead of 19" in str(error)
    mended = merge_orders(PLAN, run).orders.match
    assert mended is not None and dict(mended.bowling_plan)[16] == "White"
    fresh = _mail("new bowling plan: Warne 9", PLAN)  # afresh, nothing stands to count
    assert fresh.errors == ()


BATTING = _standing(
    "batting order: Root (aggressive), Stokes (wahoo), Tom Smith, Jones, Wilson\n"
    "Green bats defensive"
)


def test_one_batsmans_style_keeps_the_others() -> None:
    """A style for one batsman changes his and keeps everyone else's."""
    got = merge_orders(BATTING, _mail("Jones bats wahoo", BATTING))
    assert got.orders.match is not None
    assert dict(got.orders.match.styles) == {
        "Joe Root": BattingStyle.AGGRESSIVE,
        "Ben Stokes": BattingStyle.WAHOO,
        "Jones": BattingStyle.WAHOO,
        "Green": BattingStyle.DEFENSIVE,
    }
    assert got.parts[0].status == "changed"
    assert got.parts[0].kept == ("Ben Stokes", "Green", "Joe Root")


def test_a_new_batting_order_keeps_the_styles_and_the_batsmen_it_does_not_name() -> None:
    """A batting order naming some batsmen puts them first, in its order; the others follow in
    the order that stood, and every style stands. "new batting order:" gives it whole."""
    got = merge_orders(BATTING, _mail("batting order: Jones, Stokes", BATTING))
    m = got.orders.match
    assert m is not None
    assert m.batting_order == ("Jones", "Ben Stokes", "Joe Root", "Tom Smith", "Wilson")
    assert dict(m.styles)["Joe Root"] is BattingStyle.AGGRESSIVE
    assert dict(m.styles)["Green"] is BattingStyle.DEFENSIVE
    assert got.parts[0].kept == ("Joe Root", "Tom Smith", "Wilson")
    whole = merge_orders(BATTING, _mail("new batting order: Jones, Stokes", BATTING))
    assert whole.orders.match is not None
    assert whole.orders.match.batting_order == ("Jones", "Ben Stokes")
    assert dict(whole.orders.match.styles) == dict(m.styles)  # styles stand still
    styles = merge_orders(BATTING, _mail("new styles: Jones wahoo", BATTING)).orders.match
    assert styles is not None and dict(styles.styles) == {"Jones": BattingStyle.WAHOO}


def test_merged_orders_read_back_as_they_are() -> None:
    """What a merge keeps is written so it reads back equal (the standing orders are text)."""
    for standing, text in (
        (PLAN, "Stokes bowls overs 14 and 16"),
        (BATTING, "batting order: Jones, Stokes"),
        (BATTING, "Jones bats wahoo"),
    ):
        merged = merge_orders(standing, _mail(text, standing)).orders
        back = parse_orders(canonical(merged), TEAM, Format.T20)
        assert back.errors == () and back.orders == merged, text


_BOWLERS = ("Shane Warne", "Jimmy Anderson", "Freddie Flintoff", "Green", "White", "Wilson")


def _rotation() -> Orders:
    """A 50-over plan of six bowlers in turn: none bowls two overs running, each 8 or 9."""
    plan = tuple((o, _BOWLERS[(o - 1) % len(_BOWLERS)]) for o in range(1, 51))
    return Orders(match=MatchOrders(bowling_plan=plan))


def _no_three_running(overs: list[int]) -> bool:
    return not any(o + 1 in overs and o + 2 in overs for o in overs)


@settings(max_examples=120, deadline=None)
@given(
    st.lists(st.integers(1, 50), min_size=1, max_size=10, unique=True)
    .map(sorted)
    .filter(_no_three_running)
)
def test_an_amendment_naming_some_overs_changes_exactly_those_overs(overs: list[int]) -> None:
    """Property: a mail giving a bowler who is not in the plan any set of overs he may bowl,
    merged into a whole 50-over plan, changes exactly those overs; every other over stands,
    and the report lists the overs kept."""
    standing = _rotation()
    text = f"Jones bowls overs {', '.join(map(str, overs))}"
    mail = _mail(text, standing, Format.FIFTY)
    assert mail.errors == (), mail.errors
    got = merge_orders(standing, mail)
    assert got.orders.match is not None and standing.match is not None
    before, after = dict(standing.match.bowling_plan), dict(got.orders.match.bowling_plan)
    assert {o for o in range(1, 51) if before.get(o) != after.get(o)} == set(overs)
    assert all(after[o] == "Jones" for o in overs)
    assert got.parts[0].kept == tuple(str(o) for o in range(1, 51) if o not in overs)


@settings(max_examples=120, deadline=None)
@given(
    st.dictionaries(st.integers(1, 20), st.sampled_from(_BOWLERS), max_size=20),
    st.dictionaries(st.integers(1, 20), st.sampled_from(_BOWLERS), min_size=1, max_size=20),
)
def test_merging_a_plan_changes_only_the_overs_it_names(
    old: dict[int, str], new: dict[int, str]
) -> None:
    """Property, on the merge alone (limits aside): the merged plan is the mail's bowler for
    each over it names and the standing plan's for every other."""
    standing = Orders(match=MatchOrders(bowling_plan=tuple(sorted(old.items()))))
    mail = ParsedOrders(
        Orders(match=MatchOrders(bowling_plan=tuple(sorted(new.items())))),
        line_parts=((1, ("bowling plan",)),),
    )
    got = merge_orders(standing, mail).orders.match
    assert got is not None
    merged = dict(got.bowling_plan)
    assert merged == {**old, **new}
    assert {o for o in merged.keys() | old.keys() if merged.get(o) != old.get(o)} <= set(new)

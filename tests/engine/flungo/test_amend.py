"""Amendments across a match's turns: a side's standing orders are handed to the resolver whole
at every stage, and a match under way receives only what changed since the stage before.

So a conditional order fires at most once an innings however often it is sent, a stage in
which nothing changed says no "amended orders accepted", and a change is applied and named.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.flungo import Format, generate_squad
from engine.flungo.amend import PLAN, RULES, amendment
from engine.flungo.draw import mini_tournament
from engine.flungo.events import OrdersAmended, RuleFired
from engine.flungo.orders import (
    BattingStyle,
    MatchOrders,
    Orders,
    Rule,
    StyleChange,
    StyleTarget,
    TargetKind,
    Trigger,
    TriggerKind,
)
from engine.flungo.rules import RulesSnapshot, rearm
from engine.flungo.turn import (
    MatchTurn,
    SeasonState,
    next_stage,
    replay,
    resolve_stage,
    start_season,
)


def _mini(seed: str = "amend-season") -> SeasonState:
    squads = [generate_squad(Dice(300 + i), f"Side {i}") for i in range(1, 5)]
    comp, _ = mini_tournament("Cup", [t.name for t in squads], Format.T20, Dice(3))
    return start_season(comp, squads, seed)


def _wahoo_after(overs: int) -> Rule:
    """ "after N overs: all batsmen wahoo": its trigger holds at every ball from then on, so a
    rule armed again at drinks would fire again at once."""
    return Rule(
        Trigger(TriggerKind.AFTER_OVERS, overs),
        actions=(StyleChange(StyleTarget(TargetKind.ALL), BattingStyle.WAHOO),),
    )


def _season_turn_by_turn(
    orders_at: dict[int, dict[str, Orders]] | None = None, default: dict[str, Orders] | None = None
) -> list[list[MatchTurn]]:
    """Resolve the whole mini-tournament stage by stage; stage k is given ``orders_at[k]`` (or
    ``default``). Returns each stage's match turns."""
    state = _mini()
    out = []
    k = 0
    while next_stage(state) is not None:
        given = (orders_at or {}).get(k, default or {})
        state, report = resolve_stage(state, given)
        out.append(list(report.matches))
        k += 1
    return out


def test_a_conditional_order_fires_once_an_innings_over_a_match_resolved_turn_by_turn() -> None:
    """Every team sends "after 3 overs: all batsmen wahoo" once and its standing orders repeat
    it at every stage: across the drinks split of each innings (turns 1-2, 3-4, 5-6 and 7-8)
    it fires exactly once an innings for each side, never again after drinks."""
    state = _mini()
    orders = {t.name: Orders(match=MatchOrders(rules=(_wahoo_after(3),))) for t in state.squads}
    fired: dict[tuple[str, int, str], int] = {}
    stages = _season_turn_by_turn(default=orders)
    for matches in stages:
        for m in matches:
            for e in m.events:
                if isinstance(e, RuleFired):
                    key = (m.fixture_id, e.innings, e.team)
                    fired[key] = fired.get(key, 0) + 1
    assert fired, "the rule fires in the matches"
    assert set(fired.values()) == {1}, fired
    batting = {(f, i) for f, i, _ in fired}
    assert len(batting) == 8  # both innings of the four matches
    assert len(fired) == 16  # each side's rule (the bowling side's "nothing applies")


def test_a_rule_sent_again_unchanged_with_a_new_one_keeps_its_state() -> None:
    """At drinks a manager adds a rule and sends the first one again: the first stays spent
    (it fired before drinks), the new one is armed; a changed rule is armed afresh."""
    a, b = _wahoo_after(3), _wahoo_after(12)
    snap = RulesSnapshot(armed=((0, (1,)), (1, (0,))), done=((0, (0,)),))
    again = rearm(snap, 0, (a,), (b, a))
    assert again.done == ((0, (1,)),)  # a, now the second rule, is still spent
    assert again.armed == ((0, (0,)), (1, (0,)))  # b armed; the other side untouched
    changed = rearm(snap, 0, (a,), (_wahoo_after(4),))
    assert changed.done == () and changed.armed == ((0, (0,)), (1, (0,)))


def _amended(matches: list[MatchTurn], team: str) -> list[str]:
    return [
        e.text
        for m in matches
        for e in m.events
        if isinstance(e, OrdersAmended) and e.team == team and e.accepted
    ]


def test_amended_orders_accepted_only_in_a_stage_whose_orders_changed() -> None:
    """A team whose standing orders stand unchanged from stage to stage gets no "amended orders
    accepted"; at the stage where they change, the event names what changed."""
    state = _mini()
    name = state.squads[0].name
    team = state.squads[0]
    xi = tuple(p.name for p in team.players[:11])
    first = Orders(match=MatchOrders(xi=xi, styles=((xi[0], BattingStyle.AGGRESSIVE),)))
    later = Orders(
        match=MatchOrders(
            xi=xi, styles=((xi[0], BattingStyle.AGGRESSIVE), (xi[1], BattingStyle.WAHOO))
        )
    )
    stages = _season_turn_by_turn({0: {name: first}, 1: {name: first}}, {name: later})
    assert _amended(stages[1], name) == []  # turn 1: the orders of selection, unchanged
    [text] = _amended(stages[2], name)  # turn 2: one style more
    assert text == f"amended orders accepted: styles ({xi[1]})"
    assert _amended(stages[3], name) == []  # turn 3: the same again


def test_a_season_whose_matches_receive_only_changes_replays_from_its_reports() -> None:
    """The orders a match received at each turn (only what changed) are what the reports keep:
    played again from them, every match gives the same balls and result."""
    state = _mini()
    orders = {t.name: Orders(match=MatchOrders(rules=(_wahoo_after(5),))) for t in state.squads}
    name = state.squads[1].name
    newer = Orders(match=MatchOrders(rules=(_wahoo_after(5), _wahoo_after(15))))
    stages = _season_turn_by_turn({3: orders | {name: newer}}, orders)
    by_fixture: dict[str, list[MatchTurn]] = {}
    for matches in stages:
        for m in matches:
            by_fixture.setdefault(m.fixture_id, []).append(m)
    for turns in by_fixture.values():
        again = replay(turns)
        assert again.innings == turns[-1].state.innings and again.result == turns[-1].state.result


_NAMES = st.sampled_from([f"P {i}" for i in range(1, 12)])
_STYLES = st.dictionaries(_NAMES, st.sampled_from(list(BattingStyle)), max_size=6)
_PLANS = st.dictionaries(st.integers(1, 20), _NAMES, max_size=10)


@settings(max_examples=150, deadline=None)
@given(_STYLES, _STYLES, _PLANS, _PLANS)
def test_an_amendment_names_exactly_what_changed(
    old_styles: dict[str, BattingStyle],
    new_styles: dict[str, BattingStyle],
    old_plan: dict[int, str],
    new_plan: dict[int, str],
) -> None:
    """Between two versions of a side's orders, the amendment names the batsmen whose style
    changed and the overs whose bowler changed, and nothing else; an over taken out of the
    plan makes it give the plan whole. Nothing changed: no amendment."""
    before = MatchOrders(
        styles=tuple(sorted(old_styles.items())), bowling_plan=tuple(sorted(old_plan.items()))
    )
    now = MatchOrders(
        styles=tuple(sorted(new_styles.items())), bowling_plan=tuple(sorted(new_plan.items()))
    )
    got = amendment(before, now)
    if before == now:
        assert got is None
        return
    normal = BattingStyle.NORMAL
    changed = {
        n for n in old_styles.keys() | new_styles.keys()
        if old_styles.get(n, normal) != new_styles.get(n, normal)
    }  # fmt: skip
    if got is None:
        assert not changed and old_plan == new_plan
        return
    assert {n for n, _ in got.styles} == changed
    assert all(s == new_styles.get(n, normal) for n, s in got.styles)
    if old_plan.keys() - new_plan.keys():
        assert PLAN in got.cleared and dict(got.bowling_plan) == new_plan
    else:
        assert PLAN not in got.cleared
        assert dict(got.bowling_plan) == {o: b for o, b in new_plan.items() if old_plan.get(o) != b}
    assert got.rules == () and RULES not in got.cleared


def test_clearing_the_rules_is_an_amendment_too() -> None:
    """ "No conditional orders" after a rule: the match is told the rules are gone."""
    got = amendment(MatchOrders(rules=(_wahoo_after(3),)), MatchOrders())
    assert got is not None and got.rules == () and got.cleared == (RULES,)


def test_a_plan_given_whole_at_drinks_leaves_the_overs_it_omits_to_the_default() -> None:
    """At drinks, a bowling plan given whole ("new bowling plan:", ``cleared``) replaces the
    plan of the overs not begun: an over it leaves out goes to the default bowler, and the
    event names the new plan; an amendment naming overs only changes those."""
    from engine.flungo.match import play_turn
    from tests.engine.flungo.helpers import Scripted, dots, started

    state = started(seed=2)  # the home side bats first
    plan = tuple((o, f"A {7 + (o - 1) % 5}") for o in range(1, 21))
    state = play_turn(state, None, MatchOrders(bowling_plan=plan), dice=Scripted(dots(90))).state
    whole = MatchOrders(bowling_plan=((17, "A 6"),), cleared=(PLAN,))
    res = play_turn(state, None, whole, dice=Scripted(dots(30)))
    bowlers = res.state.innings[0].over_bowlers
    assert len(bowlers) == 20 and bowlers[16] == "A 6"
    assert dict(res.state.innings[0].plan) == {**{o: b for o, b in plan if o <= 15}, 17: "A 6"}
    [text] = [e.text for e in res.events if isinstance(e, OrdersAmended) and e.accepted]
    assert text == "amended orders accepted: a new bowling plan (over 17)"
    some = play_turn(state, None, MatchOrders(bowling_plan=((17, "A 6"),)), dice=Scripted(dots(30)))
    assert dict(some.state.innings[0].plan) == {**dict(plan), 17: "A 6"}

"""Any well-typed conditional orders, however odd, play a legal and reproducible match."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.flungo.formats import FORMATS, Format
from engine.flungo.match import play_match
from engine.flungo.orders import (
    BattingStyle,
    BowlingChange,
    BowlingRest,
    Comparison,
    Condition,
    Quantity,
    ReviewMode,
    ReviewPolicy,
    ReviewsChange,
    Rule,
    StyleChange,
    StyleTarget,
    TargetKind,
    Trigger,
    TriggerKind,
)
from tests.engine.flungo.helpers import orders, setup

NAMES = [f"{s} {i}" for s in "HA" for i in (1, 2, 3, 5, 11, 17)]

triggers = st.builds(
    Trigger,
    st.sampled_from(list(TriggerKind)),
    st.integers(0, 130),
    st.sampled_from(NAMES),
)
conditions = st.builds(
    Condition,
    st.sampled_from(list(Quantity)),
    st.sampled_from(list(Comparison)),
    st.floats(0, 200, allow_nan=False),
)
targets = st.builds(
    StyleTarget,
    st.sampled_from(list(TargetKind)),
    st.lists(st.sampled_from(NAMES), max_size=3).map(tuple),
    st.integers(0, 4),
    st.lists(st.sampled_from(NAMES), max_size=3).map(tuple),
)
actions = st.one_of(
    st.builds(StyleChange, targets, st.sampled_from(list(BattingStyle))),
    st.builds(
        BowlingChange,
        st.sampled_from(NAMES),
        st.lists(st.integers(1, 25), max_size=4).map(tuple),
    ),
    st.builds(BowlingRest, st.lists(st.sampled_from(NAMES), max_size=3).map(tuple)),
    st.builds(
        ReviewsChange,
        st.builds(
            ReviewPolicy,
            st.sampled_from(list(ReviewMode)),
            st.lists(st.sampled_from(NAMES), max_size=2).map(tuple),
            st.integers(0, 5),
        ),
    ),
)
rules = st.recursive(
    st.builds(
        Rule,
        triggers,
        st.lists(conditions, max_size=2).map(tuple),
        st.lists(actions, max_size=3).map(tuple),
        st.none() | triggers,
    ),
    lambda children: st.builds(
        Rule,
        triggers,
        st.lists(conditions, max_size=1).map(tuple),
        st.lists(actions, max_size=2).map(tuple),
        st.none() | triggers,
        st.lists(children, max_size=2).map(tuple),
    ),
    max_leaves=6,
)


@settings(max_examples=40, deadline=None)
# Found by this test: "the rest" of the sets from the first ball of The Hundred looked at
# the set before the first one for the change of ends (an IndexError).
@example(
    home=(),
    away=(
        Rule(
            Trigger(TriggerKind.AFTER_OVERS, 0, "H 1"),
            (),
            (
                StyleChange(StyleTarget(TargetKind.ALL), BattingStyle.DEFENSIVE),
                BowlingRest(("H 1",)),
            ),
        ),
    ),
    seed=0,
    fmt=Format.HUNDRED,
)
@given(
    home=st.lists(rules, max_size=3).map(tuple),
    away=st.lists(rules, max_size=3).map(tuple),
    seed=st.integers(0, 1000),
    fmt=st.sampled_from([Format.T20, Format.HUNDRED]),
)
def test_arbitrary_rules_play_legal_reproducible_matches(
    home: tuple[Rule, ...], away: tuple[Rule, ...], seed: int, fmt: Format
) -> None:
    """Random rules never crash the engine, keep bowling limits and replay identically."""
    s = setup(fmt, seed, knockout=True)
    a = play_match(s, orders("H", rules=home), orders("A", rules=away))
    b = play_match(s, orders("H", rules=home), orders("A", rules=away))
    assert a == b and a.state.result is not None
    spec = FORMATS[fmt]
    for inn in a.state.innings[:2]:
        who = inn.over_bowlers
        keeper = a.state.selections[1 - inn.batting_side].wicketkeeper
        assert keeper not in who
        assert max(who.count(x) for x in who) <= spec.max_overs_per_bowler
        assert all(not (x == y == z) for x, y, z in zip(who, who[1:], who[2:], strict=False))
        assert inn.wickets <= 10 and inn.legal <= spec.balls

"""The state's JSON form carries every kind of order value and reads back equal."""

from __future__ import annotations

import json

import pytest

from engine.flungo.codec import decode, encode
from engine.flungo.match import MatchState, play_turn
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
    StyleChange,
    StyleTarget,
    TargetKind,
    Trigger,
    TriggerKind,
)
from tests.engine.flungo.helpers import orders, started

RULE = Rule(
    Trigger(TriggerKind.AFTER_OVERS, 5),
    (Condition(Quantity.RUN_RATE, Comparison.LT, 4.5),),
    (
        StyleChange(StyleTarget(TargetKind.NEXT, count=2), BattingStyle.WAHOO),
        BowlingChange("A 7", (9, 10)),
        ReviewsChange(ReviewPolicy(ReviewMode.NAMED, names=("H 1",))),
    ),
    until=Trigger(TriggerKind.BATSMAN_OUT, name="H 2"),
    then=(
        Rule(
            Trigger(TriggerKind.WICKET, 3),
            (),
            (StyleChange(StyleTarget(TargetKind.ALL), BattingStyle.DEFENSIVE),),
        ),
    ),
)


def test_orders_round_trip() -> None:
    """Match orders with nested rules, every action kind and review policies read back equal."""
    o = orders("H", rules=(RULE,), batting_reviews=ReviewPolicy(ReviewMode.TOP_ORDER, top=3))
    assert decode(MatchOrders, json.loads(json.dumps(encode(o)))) == o


def test_state_with_rules_round_trips_mid_match() -> None:
    """A state with rules armed, fired and watched reads back equal from its text form."""
    state = started(home=orders("H", rules=(RULE,)), away=orders("A", rules=(RULE,)), seed=3)
    for _ in range(3):
        state = play_turn(state).state
        assert MatchState.from_text(state.to_text()) == state


def test_decode_rejects_wrong_types() -> None:
    """Decoding checks types: a string where an integer belongs is an error, not a value."""
    with pytest.raises(ValueError, match="is none of int"):
        decode(Trigger, {"type": "Trigger", "kind": "wicket", "value": "3", "name": None})

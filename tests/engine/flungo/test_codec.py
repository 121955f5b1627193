"""The state's JSON form carries every kind of order value and reads back equal."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.flungo import codec
from engine.flungo.codec import decode, decoder, encode
from engine.flungo.formats import Format
from engine.flungo.match import MatchState, play_turn, start_match
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
from tests.engine.flungo.helpers import orders, setup, started

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


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), fmt=st.sampled_from(list(Format)), turns=st.integers(0, 4))
def test_state_text_round_trip_property(seed: int, fmt: Format, turns: int) -> None:
    """Any match after any number of turns reads back equal from its canonical text."""
    state = start_match(setup(fmt, seed, knockout=True)).state
    for _ in range(turns):
        state = play_turn(state).state
    text = state.to_text()
    assert MatchState.from_text(text) == state and MatchState.from_text(text).to_text() == text


def test_a_subclass_defined_after_the_decoder_is_still_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A decoder built before a subclass of its type existed reads a value of that subclass
    (by its tag), as one built after does, building the subclass's decoder the first time and
    not again for each value; an unknown tag is still refused, each time, and nothing is kept
    for it."""

    @dataclasses.dataclass(frozen=True)
    class Base:
        n: int

    read = decoder(Base)

    @dataclasses.dataclass(frozen=True)
    class Later(Base):
        m: int = 0

    built: list[object] = []
    real = codec.decoder

    def counting(tp: object) -> object:
        built.append(tp)
        return real(tp)

    monkeypatch.setattr(codec, "decoder", counting)
    assert [read(encode(Later(i, i))) for i in range(3)] == [Later(i, i) for i in range(3)]
    assert read(encode(Base(3))) == Base(3)
    for _ in range(2):
        with pytest.raises(ValueError, match="expected Base, got Nobody"):
            read({"type": "Nobody", "n": 1})
    assert built == [Later]

"""Generated sentences in every combination of trigger, condition, action and duration, in
the orders players put them and with numbers as digits or words, read back to their meaning."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.flungo.formats import FORMATS, Format
from engine.flungo.language import OrderContext, parse_orders
from engine.flungo.orders import (
    Action,
    BattingStyle,
    Comparison,
    Condition,
    Quantity,
    Rule,
    StyleChange,
    StyleTarget,
    TargetKind,
    Trigger,
    TriggerKind,
)
from tests.engine.orders.squad import fixture_team, opponent_team

TEAM = fixture_team()
FIFTY = FORMATS[Format.FIFTY]
CONTEXT = OrderContext(opponent=opponent_team())

_WORDS = [
    "zero", "one", "two", "three", "four", "five", "six",
    "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
]  # fmt: skip
_TENS = {20: "twenty", 30: "thirty", 40: "forty"}
_ORD = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
]  # fmt: skip


def _num(draw: st.DrawFn, n: int) -> str:
    """``n`` as digits, or as words when it has a simple name."""
    words = _WORDS[n] if n < len(_WORDS) else _TENS.get(n)
    return draw(st.sampled_from([str(n), words])) if words else str(n)


def _ordinal(draw: st.DrawFn, n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return draw(st.sampled_from([f"{n}{suffix}", _ORD[n - 1]]))


@st.composite
def triggers(draw: st.DrawFn) -> tuple[str, Trigger]:
    kind = draw(
        st.sampled_from(
            ["overs", "drinks", "wicket", "down", "score", "need", "last", "out", "from"]
        )
    )
    if kind == "overs":
        n = draw(st.sampled_from([5, 10, 12, 20, 30, 40]))
        return f"after {_num(draw, n)} overs", Trigger(TriggerKind.AFTER_OVERS, n)
    if kind == "drinks":
        return draw(st.sampled_from(["at drinks", "at the drinks interval"])), Trigger(
            TriggerKind.AT_DRINKS
        )
    if kind in ("wicket", "down"):
        k = draw(st.integers(1, 9))
        text = (
            f"when the {_ordinal(draw, k)} wicket falls"
            if kind == "wicket"
            else f"once {_num(draw, k)} wickets are down"
        )
        return text, Trigger(TriggerKind.WICKET, k)
    if kind == "score":
        s = draw(st.sampled_from([50, 100, 150, 200, 250]))
        return f"when the score reaches {s}", Trigger(TriggerKind.SCORE_REACHES, s)
    if kind == "need":
        r = draw(st.sampled_from([10, 20, 30, 40]))
        return f"when {_num(draw, r)} runs are needed", Trigger(TriggerKind.RUNS_NEEDED, r)
    if kind == "last":
        m = draw(st.integers(1, 10))
        lead = draw(st.sampled_from(["in the last", "for the last", "last"]))
        return f"{lead} {_num(draw, m)} overs", Trigger(TriggerKind.BALLS_LEFT, m * 6)
    if kind == "out":
        return "when Root is out", Trigger(TriggerKind.BATSMAN_OUT, name="Joe Root")
    n = draw(st.integers(2, 10))
    return f"from the {_ordinal(draw, n)} over", Trigger(TriggerKind.AFTER_OVERS, n - 1)


@st.composite
def conditions(draw: st.DrawFn) -> tuple[str, Condition]:
    kind = draw(st.sampled_from(["lost", "rate", "score", "unless", "required", "in"]))
    k = draw(st.integers(1, 8))
    if kind == "lost":
        text = f"if we have lost {_num(draw, k)} wickets or fewer"
        return text, Condition(Quantity.WICKETS, Comparison.LE, k)
    if kind == "rate":
        return f"if the run rate is below {k}", Condition(Quantity.RUN_RATE, Comparison.LT, k)
    if kind == "score":
        s = draw(st.sampled_from([80, 120, 180]))
        return f"if the score is more than {s}", Condition(Quantity.SCORE, Comparison.GT, s)
    if kind == "unless":
        text = f"unless we have lost {_num(draw, k)} wickets"
        return text, Condition(Quantity.WICKETS, Comparison.LT, k)
    if kind == "required":
        text = f"if the asking rate is above {k}"
        return text, Condition(Quantity.REQUIRED_RATE, Comparison.GT, k)
    return "if Stokes is still in", Condition(Quantity.NOT_OUT, Comparison.EQ, 1, "Ben Stokes")


_STYLES = {
    "aggressive": BattingStyle.AGGRESSIVE,
    "wahoo": BattingStyle.WAHOO,
    "defensive": BattingStyle.DEFENSIVE,
    "normal": BattingStyle.NORMAL,
}


@st.composite
def actions(draw: st.DrawFn) -> tuple[str, tuple[Action, ...]]:
    word = draw(st.sampled_from(sorted(_STYLES)))
    style = _STYLES[word]
    kind = draw(
        st.sampled_from(["all", "everyone", "rest", "named", "next", "except", "else", "others"])
    )
    if kind == "all":
        return f"all batsmen {word}", (StyleChange(StyleTarget(TargetKind.ALL), style),)
    if kind == "everyone":
        return f"everyone {word}", (StyleChange(StyleTarget(TargetKind.ALL), style),)
    if kind == "rest":
        return f"the rest bat {word}", (StyleChange(StyleTarget(TargetKind.REMAINING), style),)
    if kind == "named":
        target = StyleTarget(TargetKind.NAMED, names=("Joe Root",))
        return f"Root bats {word}", (StyleChange(target, style),)
    if kind == "except":
        # "all batsmen wahoo except Stokes", "everyone wahoo apart from Stokes and Root"
        who = draw(st.sampled_from([("Stokes",), ("Stokes", "Root")]))
        full = {"Stokes": "Ben Stokes", "Root": "Joe Root"}
        lead = draw(st.sampled_from(["all batsmen", "everyone"]))
        but = draw(st.sampled_from(["except", "apart from", "other than", "bar"]))
        target = StyleTarget(TargetKind.ALL, excluding=tuple(full[w] for w in who))
        return f"{lead} {word} {but} {' and '.join(who)}", (StyleChange(target, style),)
    if kind in ("else", "others"):
        # "Flintoff slog, everyone else wahoo", "Flintoff slog and the rest wahoo"
        other = draw(st.sampled_from(sorted(_STYLES)))
        named = StyleChange(
            StyleTarget(TargetKind.NAMED, names=("Freddie Flintoff",)), _STYLES[other]
        )
        join = draw(st.sampled_from([", ", " and ", "; "]))
        left = StyleTarget(
            TargetKind.ALL if kind == "else" else TargetKind.REMAINING,
            excluding=("Freddie Flintoff",),
        )
        rest = "everyone else" if kind == "else" else "the rest"
        text = f"Flintoff {other}{join}{rest} {word}"
        return text, (named, StyleChange(left, style))
    n = draw(st.integers(1, 4))
    return f"the next {n} batsmen go {word}", (
        StyleChange(StyleTarget(TargetKind.NEXT, count=n), style),
    )


@st.composite
def durations(draw: st.DrawFn) -> tuple[str, Trigger | None]:
    kind = draw(st.sampled_from(["none", "wicket", "score"]))
    if kind == "none":
        return "", None
    if kind == "wicket":
        k = draw(st.integers(1, 9))
        return f"until the {_ordinal(draw, k)} wicket falls", Trigger(TriggerKind.WICKET, k)
    s = draw(st.sampled_from([100, 200, 300]))
    return f"until the score reaches {s}", Trigger(TriggerKind.SCORE_REACHES, s)


@st.composite
def sentences(draw: st.DrawFn) -> tuple[str, Rule]:
    """A sentence and the rule it means, its parts in one of the orders players use."""
    t_text, trigger = draw(triggers())
    c = draw(st.none() | conditions())
    a_text, acts = draw(actions())
    d_text, until = draw(durations())
    c_text = c[0] if c else ""
    parts_order = draw(st.sampled_from(["tca", "cta", "atc"]))
    pause = draw(st.sampled_from([", ", " ", ": "]))
    if parts_order == "tca":
        head = f"{t_text}, {c_text}" if c else t_text
        text = f"{head}{pause}{a_text}"
    elif parts_order == "cta" and c:
        text = f"{c_text}, {t_text}{pause}{a_text}"
    else:
        text = f"{a_text} {t_text}" + (f" {c_text}" if c else "")
    if d_text:
        text += f" {d_text}"
    rule = Rule(trigger, (c[1],) if c else (), acts, until)
    return text, rule


@settings(max_examples=400, deadline=None)
@given(sentences())
def test_composed_sentences_read_to_their_meaning(pair: tuple[str, Rule]) -> None:
    """Every combination reads, to exactly the rule it was made from."""
    text, rule = pair
    r = parse_orders(text, TEAM, FIFTY, context=CONTEXT)
    assert r.errors == (), (text, [str(e) for e in r.errors])
    assert r.orders.match is not None
    assert r.orders.match.rules == (rule,), text


@settings(max_examples=150, deadline=None)
@given(sentences(), st.integers(1, 9))
def test_but_when_chains_compose(pair: tuple[str, Rule], k: int) -> None:
    """ "..., but when the Nth wicket falls, all batsmen normal" chains to any sentence."""
    text, rule = pair
    if rule.until is not None:
        return  # the chain goes on the sentence without a duration
    chained = f"{text}, but when the {k}th wicket falls, all batsmen normal"
    if k in (1, 2, 3):
        chained = chained.replace(f"{k}th", {1: "1st", 2: "2nd", 3: "3rd"}[k])
    r = parse_orders(chained, TEAM, FIFTY, context=CONTEXT)
    assert r.errors == (), (chained, [str(e) for e in r.errors])
    then = Rule(
        Trigger(TriggerKind.WICKET, k),
        (),
        (StyleChange(StyleTarget(TargetKind.ALL), BattingStyle.NORMAL),),
    )
    assert r.orders.match is not None
    assert r.orders.match.rules == (
        Rule(rule.trigger, rule.conditions, rule.actions, None, (then,)),
    )

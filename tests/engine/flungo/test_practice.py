"""Practice matches: the mail's orders played with the mail's dice, line by line."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import Dice, seed_from_text
from engine.flungo.events import RuleFired
from engine.flungo.formats import Format
from engine.flungo.ground import Conditions
from engine.flungo.match import play_match
from engine.flungo.orders import (
    BattingStyle,
    BowlingChange,
    MatchOrders,
    Rule,
    StyleChange,
    StyleTarget,
    TargetKind,
    Trigger,
    TriggerKind,
)
from engine.flungo.practice import OutcomeKind, practice_lines, practice_seed, practise
from engine.flungo.squad import generate_squad
from engine.flungo.state import MatchSetup

HOME = generate_squad(Dice(11), "Gunge Giants")
AWAY = generate_squad(Dice(12), "Snodge Stars")
GROUND = Conditions("The Gunge Bowl", 3, 1)
ALL = StyleTarget(TargetKind.ALL)


def rule(kind: TriggerKind, value: int, style: BattingStyle = BattingStyle.AGGRESSIVE) -> Rule:
    """A batting rule: at the trigger, everyone bats ``style``."""
    return Rule(Trigger(kind, value), actions=(StyleChange(ALL, style),))


def but(first: Rule, then: Rule) -> MatchOrders:
    """``first`` (everyone aggressive), "but" ``then`` (everyone normal) once it has fired."""
    normal = replace(then, actions=(StyleChange(ALL, BattingStyle.NORMAL),))
    return MatchOrders(rules=(replace(first, then=(normal,)),))


def test_same_orders_same_practice_and_other_seed_other_practice() -> None:
    """The practice is a pure function of its arguments: the same seed gives the same
    practice, another seed (changed orders) another."""
    orders = MatchOrders(rules=(rule(TriggerKind.AFTER_OVERS, 5),))
    one = practise(HOME, orders, AWAY, Format.T20, GROUND, 1)
    assert practise(HOME, orders, AWAY, Format.T20, GROUND, 1) == one
    assert practise(HOME, orders, AWAY, Format.T20, GROUND, 2).scores != one.scores


def test_the_seed_is_the_orders_text_and_the_seat() -> None:
    """The documented seed: SHA-256 of "practice:{seat}:{text}", its first 8 bytes."""
    assert practice_seed("toss: bat", "DEMO:3") == seed_from_text("practice:DEMO:3:toss: bat")
    assert practice_seed("toss: bat", "DEMO:3") != practice_seed("toss: bowl", "DEMO:3")


def test_practice_k_is_the_engine_match_on_its_documented_seed() -> None:
    """Practice k is the engine's own match on seed_from_text(f"{seed}:practice {k}"): the
    ball at which an order fired in the practice is the one the engine's match reports, with
    the wickets and score there, and the match's own seed is nowhere used."""
    orders = MatchOrders(rules=(rule(TriggerKind.WICKET, 2),))
    p = practise(HOME, orders, AWAY, Format.T20, GROUND, 77)
    [(side, outcomes)] = p.rules[0].outcomes
    assert side == "batting" and len(outcomes) == 3
    for k, got in enumerate(outcomes, 1):
        setup = MatchSetup(Format.T20, seed_from_text(f"77:practice {k}"), GROUND, HOME, AWAY)
        res = play_match(setup, orders)
        fired = [e for e in res.events if isinstance(e, RuleFired) and e.team == HOME.name]
        inn = next(i for i in res.state.innings if i.batting_side == 0)
        mine = [e for e in fired if e.innings == inn.index]
        if got.kind is OutcomeKind.FIRED:
            assert mine and mine[0].at_ball == got.legal
            legal = runs = wickets = 0
            for b in inn.balls:
                if legal >= got.legal:
                    break
                runs += b.total
                wickets += b.wicket is not None and b.wicket != "retired hurt"
                legal += b.legal
            assert (wickets, runs) == (got.wickets, got.runs)
            assert got.wickets >= 2
        else:
            assert not mine and got.kind is OutcomeKind.NEVER and inn.wickets < 2


def test_the_lines_say_when_it_fired_and_why_it_never_did() -> None:
    """After 5 overs fires at 5.0 in every practice; the 10th wicket can never be a trigger
    that acts (the innings is over): "never, N down at most" with the most that fell."""
    orders = MatchOrders(
        rules=(
            rule(TriggerKind.AFTER_OVERS, 5),
            rule(TriggerKind.WICKET, 10, BattingStyle.WAHOO),
        )
    )
    p = practise(HOME, orders, AWAY, Format.T20, GROUND, 5)
    lines = practice_lines(p)
    assert lines[1].startswith("after 5 overs: fired at 5.0 with ")
    assert lines[1].endswith(" in 3 of 3")
    most = max(o.wickets for o in p.rules[1].outcomes[0][1])
    assert lines[2] == f"when the 10th wicket falls: never, {most} down at most"


def test_a_but_whose_order_fired_says_why_it_did_not() -> None:
    """The issue's promise for a "but ...": once the order before it fired, a "but" that
    never fires says what its own trigger missed ("never, 5 down at most"), not that the
    order before it never fired."""
    orders = but(rule(TriggerKind.AFTER_OVERS, 1), rule(TriggerKind.WICKET, 10))
    p = practise(HOME, orders, AWAY, Format.T20, GROUND, 5)
    lines = practice_lines(p)
    assert lines[1].startswith("after 1 over: fired at 1.0 ") and lines[1].endswith("in 3 of 3")
    most = max(o.wickets for o in p.rules[1].outcomes[0][1])
    assert lines[2] == f"but when the 10th wicket falls: never, {most} down at most"


def test_a_but_whose_order_never_fired_says_so() -> None:
    """A "but" after an order that never fired was never watched: that is its reason."""
    orders = but(rule(TriggerKind.WICKET, 10), rule(TriggerKind.AFTER_OVERS, 3))
    p = practise(HOME, orders, AWAY, Format.T20, GROUND, 5)
    assert practice_lines(p)[2] == "but after 3 overs: never, the order before it never fired"


def test_the_bowling_says_who_bowled_and_where_the_plan_ran_out() -> None:
    """A plan for the first two overs: both bowled as planned, then the default takes over
    at over 3, which the lines say."""
    xi = tuple(p.name for p in HOME.players[:11])
    a, b = HOME.players[13].name, HOME.players[14].name
    xi = (*xi[:9], a, b)
    orders = MatchOrders(xi=xi, bowling_plan=((1, a), (2, b)))
    p = practise(HOME, orders, AWAY, Format.T20, GROUND, 9)
    assert all(bp.overs[:2] == (a, b) for bp in p.bowling)
    assert all(bp.departure is not None and bp.departure[0] == 3 for bp in p.bowling)
    lines = practice_lines(p)
    assert any(ln.startswith("Your plan ran out at over 3") for ln in lines)
    assert any(f"{a} 1" in ln for ln in lines if ln.startswith("Bowling"))


def test_a_bowling_rule_is_practised_in_the_field() -> None:
    """A rule that changes the bowling is reported from the innings the side bowls."""
    bowler = HOME.players[14].name
    xi = (*(p.name for p in HOME.players[:10]), bowler)
    r = Rule(Trigger(TriggerKind.AFTER_OVERS, 10), actions=(BowlingChange(bowler, (11, 13)),))
    p = practise(HOME, MatchOrders(xi=xi, rules=(r,)), AWAY, Format.T20, GROUND, 3)
    [(side, outcomes)] = p.rules[0].outcomes
    assert side == "bowling"
    assert all(o.kind is OutcomeKind.FIRED and o.legal == 60 for o in outcomes)
    assert all(bp.overs[10] == bowler and bp.overs[12] == bowler for bp in p.bowling)


def test_the_practice_leaves_the_match_alone() -> None:
    """A match on its committed seed is the same whether or not a practice was played."""
    orders = MatchOrders(rules=(rule(TriggerKind.AFTER_OVERS, 5),))
    setup = MatchSetup(Format.T20, 123456, GROUND, HOME, AWAY)
    before = play_match(setup, orders).state
    practise(HOME, orders, AWAY, Format.T20, GROUND, 123456)
    assert play_match(setup, orders).state == before


@settings(max_examples=25, deadline=None)
@given(
    fmt=st.sampled_from(list(Format)),
    kind=st.sampled_from(
        [
            TriggerKind.AFTER_OVERS,
            TriggerKind.WICKET,
            TriggerKind.SCORE_REACHES,
            TriggerKind.BALLS_LEFT,
            TriggerKind.RUNS_NEEDED,
        ]
    ),
    value=st.integers(min_value=0, max_value=300),
    seed=st.integers(min_value=0, max_value=2**64 - 1),
)
def test_every_order_has_an_outcome_in_each_practice(
    fmt: Format, kind: TriggerKind, value: int, seed: int
) -> None:
    """Whatever the trigger, each practice innings gives the order one outcome, a fired one
    within the innings, and the lines say something for it."""
    p = practise(HOME, MatchOrders(rules=(rule(kind, value),)), AWAY, fmt, GROUND, seed)
    [(_, outcomes)] = p.rules[0].outcomes
    assert len(outcomes) == 3
    spec = p.spec
    for o in outcomes:
        assert 0 <= o.legal <= spec.balls
        if o.kind is not OutcomeKind.NEVER:
            assert o.reason == ""
        else:
            assert o.reason
    assert len(practice_lines(p)) >= 4


def test_the_text_groups_outcomes_shortly() -> None:
    """The text in one place: an order that fired twice at one ball and failed its "if"
    once, and a reviews order practised on both sides, each on one short line; a plan given
    way to a hurt bowler says who bowled instead."""
    from engine.flungo.formats import FORMATS
    from engine.flungo.practice import BowlingPractice, Outcome, Practice, RulePractice

    fired = Outcome(OutcomeKind.FIRED, 120, 2, 97)
    spent = Outcome(OutcomeKind.SPENT, 120, 5, 130)
    never = Outcome(OutcomeKind.NEVER, 103, 10, 88, "the innings ended at 17.1 (all out)")
    p = Practice(
        seed=1,
        spec=FORMATS[Format.T20],
        rules=(
            RulePractice(
                (0,), "after 20 overs, if wickets <= 3", (("batting", (fired, fired, spent)),)
            ),
            RulePractice(
                (1,),
                "after 3 overs",
                (("batting", (fired, fired, never)), ("bowling", (fired, fired, fired))),
            ),
        ),
        bowling=(BowlingPractice(("A", "B", "C"), (3, "A", "C", "A is retired hurt")),) * 3,
        scores=(("97/2", "96/8"),) * 3,
        planned=True,
        opponent="Snodge Stars",
    )
    lines = practice_lines(p)
    assert lines[1] == (
        "after 20 overs, if wickets <= 3: fired at 20.0 with 2 down in 2 of 3; "
        "its conditions failed at 20.0 with 5 down and 130 runs in 1 of 3"
    )
    assert lines[2] == (
        "after 3 overs: batting, fired at 20.0 with 2 down in 2 of 3; never in 1: the innings "
        "ended at 17.1 (all out); bowling, fired at 20.0 with 2 down in 3 of 3"
    )
    assert lines[3] == "Bowling (overs, in all 3): A 1; B 2; C 3."
    assert lines[4] == "Your plan gave way at over 3 (A is retired hurt): C bowled it (in all 3)."
    assert lines[5] == "Scores (yours first): 97/2 v 96/8, 97/2 v 96/8, 97/2 v 96/8."

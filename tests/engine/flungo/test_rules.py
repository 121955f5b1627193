"""Conditional orders obeyed as ``engine.flungo.orders`` defines them (rules built directly)."""

from __future__ import annotations

from engine.flungo.events import Ball, EventKind, MatchEvent
from engine.flungo.match import MatchState, Resolution, play_turn
from engine.flungo.orders import (
    BattingStyle,
    BowlingChange,
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
from tests.engine.flungo.helpers import Scripted, dots, orders, started

SEED_H_BATS = 2
ALL = StyleTarget(TargetKind.ALL)
AGG, DEF, WAHOO = BattingStyle.AGGRESSIVE, BattingStyle.DEFENSIVE, BattingStyle.WAHOO


def after_balls(n: int) -> Trigger:
    return Trigger(TriggerKind.AFTER_BALLS, n)


def play(
    home_rules: tuple[Rule, ...] = (),
    away_rules: tuple[Rule, ...] = (),
    script: tuple[int, ...] = (),
    legal: int = 0,
) -> Resolution:
    """Turn 0 (H bats) with these rules, ``script`` then dots to drinks."""
    state = started(
        seed=SEED_H_BATS,
        home=orders("H", rules=home_rules),
        away=orders("A", rules=away_rules),
    )
    return play_turn(state, dice=Scripted([*script, *dots(90 - legal)]))


def styles(res: Resolution) -> list[str]:
    return [b.style for b in res.state.innings[0].balls]


def notes(res: Resolution, kind: EventKind) -> list[MatchEvent]:
    return [e for e in res.events if isinstance(e, MatchEvent) and e.kind is kind]


def test_after_overs_with_condition_fires_before_next_ball() -> None:
    """ "After 2 overs, if 3 wickets or fewer are down, all aggressive": from ball 13 on."""
    rule = Rule(
        Trigger(TriggerKind.AFTER_OVERS, 2),
        (Condition(Quantity.WICKETS, Comparison.LE, 3),),
        (StyleChange(ALL, AGG),),
    )
    res = play((rule,))
    assert styles(res)[:12] == ["normal"] * 12 and set(styles(res)[12:]) == {"aggressive"}
    fired = notes(res, EventKind.RULE_FIRED)
    assert len(fired) == 1 and fired[0].at_ball == 12 and fired[0].team == "H"
    assert "rule 1 of H fired (after 2 overs)" in fired[0].text


def test_failed_condition_spends_the_rule() -> None:
    """A rule whose conditions fail when its trigger first holds is spent for the innings."""
    rule = Rule(
        after_balls(1), (Condition(Quantity.SCORE, Comparison.GE, 50),), (StyleChange(ALL, AGG),)
    )
    res = play((rule,))
    assert set(styles(res)) == {"normal"}
    assert len(notes(res, EventKind.RULE_SPENT)) == 1


def test_until_reverts_styles_set_by_the_rule() -> None:
    """An until puts back the styles its rule set, before the ball after it holds."""
    rule = Rule(after_balls(1), (), (StyleChange(ALL, AGG),), until=Trigger(TriggerKind.WICKET, 1))
    res = play((rule,), script=(6, 5, 6, 5, 5, 5, 6, 1), legal=3)
    assert styles(res)[:4] == ["normal", "aggressive", "aggressive", "normal"]
    assert res.state.innings[0].balls[3].striker == "H 3"
    assert len(notes(res, EventKind.RULE_REVERTED)) == 1


def test_then_chain_is_armed_when_parent_fires() -> None:
    """A ``then`` rule is armed only when its parent fires, then fires on its own trigger."""
    child = Rule(Trigger(TriggerKind.WICKET, 1), (), (StyleChange(ALL, DEF),))
    parent = Rule(after_balls(2), (), (StyleChange(ALL, AGG),), then=(child,))
    # The wicket falls on ball 1, before the parent fires; the child, armed then, fires at once.
    res = play((parent,), script=(5, 5, 6, 1, 6, 5), legal=2)
    assert styles(res)[:3] == ["normal", "normal", "defensive"]
    fired = [e.text for e in notes(res, EventKind.RULE_FIRED)]
    assert fired[0].startswith("rule 1 of H fired") and fired[1].startswith("rule 1.1 of H fired")


def test_later_rule_wins() -> None:
    """Two rules firing before the same ball apply in the order written: the later wins."""
    first = Rule(after_balls(1), (), (StyleChange(ALL, WAHOO),))
    second = Rule(after_balls(1), (), (StyleChange(ALL, DEF),))
    res = play((first, second))
    assert styles(res)[1] == "defensive"


def test_rule_fires_once_per_innings() -> None:
    """A rule fires at most once per innings even though its trigger keeps holding."""
    res = play((Rule(after_balls(1), (), (StyleChange(ALL, AGG),)),))
    assert len(notes(res, EventKind.RULE_FIRED)) == 1


def test_next_batsmen_target() -> None:
    """ "The next 2 batsmen defensive": those to come in, not those at the crease."""
    rule = Rule(after_balls(0), (), (StyleChange(StyleTarget(TargetKind.NEXT, count=2), DEF),))
    res = play((rule,), script=(5, 5, 6, 1), legal=1)
    assert styles(res)[:2] == ["normal", "defensive"]
    assert res.state.innings[0].balls[1].striker == "H 3"
    assert dict(res.state.innings[0].styles)["H 4"] == "defensive"
    assert dict(res.state.innings[0].styles)["H 2"] == "normal"


def test_batsman_out_trigger_and_named_target() -> None:
    """ "When H 1 is out, H 2 wahoo"."""
    rule = Rule(
        Trigger(TriggerKind.BATSMAN_OUT, name="H 1"),
        (),
        (StyleChange(StyleTarget(TargetKind.NAMED, names=("H 2",)), WAHOO),),
    )
    res = play((rule,), script=(5, 5, 6, 1), legal=1)
    assert dict(res.state.innings[0].styles)["H 2"] == "wahoo"


def test_bowling_change_by_bowling_side() -> None:
    """The bowling side's rule puts a bowler on for later overs."""
    rule = Rule(Trigger(TriggerKind.AFTER_OVERS, 1), (), (BowlingChange("A 7", (3, 4)),))
    res = play(away_rules=(rule,))
    assert res.state.innings[0].over_bowlers[:4] == ("A 1", "A 2", "A 7", "A 7")


def test_actions_for_the_other_role_are_ignored() -> None:
    """A style change by the bowling side and a bowling change by the batting side do nothing."""
    res = play(
        home_rules=(Rule(after_balls(0), (), (BowlingChange("H 5", (2,)),)),),
        away_rules=(Rule(after_balls(0), (), (StyleChange(ALL, WAHOO),)),),
    )
    assert set(styles(res)) == {"normal"}
    assert "H 5" not in res.state.innings[0].over_bowlers
    assert all("nothing applies" in e.text for e in notes(res, EventKind.RULE_FIRED))


def test_reviews_change() -> None:
    """A rule can change the side's reviews policy (here the bowling side stops reviewing)."""
    rule = Rule(after_balls(0), (), (ReviewsChange(ReviewPolicy(ReviewMode.NEVER)),))
    res = play(away_rules=(rule,), script=(5, 5, 8, 5, 1), legal=1)
    last = res.state.innings[0].balls[0].rolls[-1]
    assert last.purpose == "umpire" and res.state.innings[0].reviews == (2, 2)


def test_at_drinks_rule_fires_after_drinks() -> None:
    """An at-drinks rule fires before the first ball after drinks, not before."""
    rule = Rule(Trigger(TriggerKind.AT_DRINKS), (), (StyleChange(ALL, AGG),))
    res = play((rule,))
    assert set(styles(res)) == {"normal"}
    res2 = play_turn(res.state, dice=Scripted(dots(30)))
    balls = [e for e in res2.events if isinstance(e, Ball)]
    assert {b.style for b in balls} == {"aggressive"}


def test_runs_needed_and_required_rate() -> None:
    """Second-innings quantities: runs needed trigger, required-rate condition."""
    rule = Rule(
        Trigger(TriggerKind.RUNS_NEEDED, 500),
        (Condition(Quantity.REQUIRED_RATE, Comparison.GT, 0.5),),
        (StyleChange(ALL, AGG),),
    )
    state: MatchState = started(seed=SEED_H_BATS, away=orders("A", rules=(rule,)))
    for n in (90, 30):
        state = play_turn(state, dice=Scripted(dots(n))).state
    assert state.innings[0].balls[0].style == "normal"  # no target in the first innings
    # Innings 1 target 1: 1 needed, 120 balls left: rate 0.05 fails, the rule is spent.
    res = play_turn(state, dice=Scripted([6, 5, 1, 1]))
    assert len(notes(res, EventKind.RULE_SPENT)) == 1


def test_ball_log_shows_rule_where_it_fired() -> None:
    """The printed ball log has the rule's line just before the first ball it affected."""
    from engine.flungo.scorecard import ball_log_text

    rule = Rule(Trigger(TriggerKind.AFTER_OVERS, 2), (), (StyleChange(ALL, AGG),))
    lines = ball_log_text(play((rule,)).state).splitlines()
    at = next(i for i, line in enumerate(lines) if "rule 1 of H fired (after 2 overs)" in line)
    assert lines[at + 1].lstrip().startswith("3.1 ") and "(aggressive)" in lines[at + 1]

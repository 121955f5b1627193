"""Rules whose targets leave batsmen out, and "the rest" of the overs, as the engine obeys them."""

from __future__ import annotations

from engine.flungo.codec import decode, encode
from engine.flungo.events import EventKind
from engine.flungo.match import play_turn
from engine.flungo.orders import (
    BattingStyle,
    BowlingChange,
    BowlingRest,
    Rule,
    StyleChange,
    StyleTarget,
    TargetKind,
    Trigger,
    TriggerKind,
)
from engine.flungo.rules import Limits, share_rest
from tests.engine.flungo.helpers import Scripted, dots
from tests.engine.flungo.test_rules import notes, play

WAHOO, DEF, AGG = BattingStyle.WAHOO, BattingStyle.DEFENSIVE, BattingStyle.AGGRESSIVE


def test_all_except_changes_only_the_others_after_the_trigger() -> None:
    """ "After 2 overs, all batsmen wahoo except H 1": H 2's balls turn wahoo from ball 13,
    H 1's stay normal (dot balls: the openers face alternate overs)."""
    target = StyleTarget(TargetKind.ALL, excluding=("H 1",))
    rule = Rule(Trigger(TriggerKind.AFTER_OVERS, 2), (), (StyleChange(target, WAHOO),))
    balls = play((rule,)).state.innings[0].balls
    for k, b in enumerate(balls):
        expected = "wahoo" if k >= 12 and b.striker != "H 1" else "normal"
        assert b.style == expected, (k, b.striker)
    assert {b.striker for b in balls[12:]} == {"H 1", "H 2"}
    styles = dict(play((rule,)).state.innings[0].styles)
    assert styles["H 1"] == "normal" and {styles[f"H {i}"] for i in range(2, 12)} == {"wahoo"}


def test_the_rest_beside_a_named_batsman_leaves_him_out() -> None:
    """ "After 1 over, H 2 defensive, the rest aggressive": H 2 stays defensive, as written."""
    rule = Rule(
        Trigger(TriggerKind.AFTER_OVERS, 1),
        (),
        (
            StyleChange(StyleTarget(TargetKind.NAMED, names=("H 2",)), DEF),
            StyleChange(StyleTarget(TargetKind.REMAINING, excluding=("H 2",)), AGG),
        ),
    )
    res = play((rule,))
    styles = dict(res.state.innings[0].styles)
    assert styles["H 2"] == "defensive" and styles["H 1"] == "aggressive"
    fired = notes(res, EventKind.RULE_FIRED)[0]
    assert "H 2 defensive" in fired.text and "H 1, H 3" in fired.text
    assert "H 2, " not in fired.text.split("defensive;")[1]


def test_bowling_rest_after_an_over_keeps_quota_and_succession() -> None:
    """ "After 10 overs: A 7 11 and 13, A 8 the rest" (T20: 4 overs each, 2 in a row at most):
    A 8 takes 12, 14, 15 and 17, then his quota is spent and the default bowls 16, 18-20."""
    rule = Rule(
        Trigger(TriggerKind.AFTER_OVERS, 10),
        (),
        (BowlingChange("A 7", (11, 13)), BowlingRest(("A 8",))),
    )
    res = play(away_rules=(rule,))
    who = res.state.innings[0].over_bowlers
    assert who[10:15] == ("A 7", "A 8", "A 7", "A 8", "A 8")
    fired = notes(res, EventKind.RULE_FIRED)[0]
    assert "A 8 to bowl the rest: 12, 14, 15, 17" in fired.text
    rest = play_turn(res.state, dice=Scripted(dots(30))).state.innings[0].over_bowlers
    assert rest[16] == "A 8" and rest.count("A 8") == 4 and "A 8" not in (rest[15], *rest[17:])


def test_bowling_rest_on_a_wicket_starts_at_the_next_over() -> None:
    """ "When the 1st wicket falls, A 9 and A 10 the rest": the over in progress is finished
    by its bowler; A 9 and A 10 take turns from the next one."""
    rule = Rule(Trigger(TriggerKind.WICKET, 1), (), (BowlingRest(("A 9", "A 10")),))
    res = play(away_rules=(rule,), script=(5, 5, 6, 1), legal=1)
    who = res.state.innings[0].over_bowlers
    assert who[0] == "A 1"
    assert who[1:9] == ("A 9", "A 10") * 4  # each has his 4 overs by the 9th
    assert "A 9" not in who[9:] and "A 10" not in who[9:]


def test_bowling_rest_does_nothing_for_the_batting_side() -> None:
    """A batting side's "the rest" of the overs is ignored, like its other bowling changes."""
    rule = Rule(Trigger(TriggerKind.AFTER_OVERS, 1), (), (BowlingRest(("H 5",)),))
    res = play(home_rules=(rule,))
    assert "H 5" not in res.state.innings[0].over_bowlers
    assert "nothing applies" in notes(res, EventKind.RULE_FIRED)[0].text


def test_old_stored_targets_decode_as_before() -> None:
    """A target stored before ``excluding`` existed decodes to the same value, leaving no one
    out; the new field and action encode and decode back equal."""
    old = {"type": "StyleTarget", "kind": "all", "names": [], "count": 0}
    assert decode(StyleTarget, old) == StyleTarget(TargetKind.ALL)
    new = Rule(
        Trigger(TriggerKind.AT_DRINKS),
        (),
        (
            StyleChange(StyleTarget(TargetKind.ALL, excluding=("H 1",)), WAHOO),
            BowlingRest(("A 8", "A 9")),
        ),
    )
    assert decode(Rule, encode(new)) == new


def test_share_rest_in_the_hundred_never_crosses_a_change_of_ends() -> None:
    """The Hundred (20 sets, 4 each, 2 in a row, ends change every 2 sets): "A and B the
    rest" after set 12 never gives one of them the odd set after his own set."""
    bowled = ("X", "Y") * 6
    plan: dict[int, str] = {}
    got = share_rest(("A", "B"), plan, {14}, 12, Limits(20, 4, 2, bowled, hundred=True))
    sets = dict(got)
    assert 14 not in sets and sorted(sets) == [13, 15, 16, 17, 18, 19, 20]
    for s, b in sets.items():
        if s % 2 == 1:
            assert sets.get(s - 1) != b, (s, sets)
    assert max(list(sets.values()).count(b) for b in "AB") <= 4


def test_share_rest_under_the_cricket_law_alternates() -> None:
    """Under the house rule "no bowler bowls two overs running" (succession limit 1), one
    bowler given the rest takes every other over, and the plan keeps the others."""
    plan = dict.fromkeys(range(1, 21), "P")
    got = share_rest(("A",), plan, set(), 10, Limits(20, 4, 1, ("Q",) * 10))
    assert got == [(11, "A"), (13, "A"), (15, "A"), (17, "A")]
    assert [plan[o] for o in range(11, 21)] == ["A", "P", "A", "P", "A", "P", "A", "P", "P", "P"]

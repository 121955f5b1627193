"""Issue 10's match rules: the house rule on consecutive overs, a drinks amendment that
changes only the overs it names, and The Hundred as the real competition plays it."""

from __future__ import annotations

import itertools
from dataclasses import replace

from engine.flungo.formats import Format
from engine.flungo.match import play_match
from engine.flungo.orders import MatchOrders
from engine.flungo.state import MatchSetup
from tests.engine.flungo.helpers import orders, setup


def _bowlers(st_setup: MatchSetup) -> list[list[str]]:
    state = play_match(st_setup).state
    return [list(i.over_bowlers) for i in state.innings]


def test_house_rule_no_bowler_bowls_two_overs_running() -> None:
    """With the competition's house rule, no bowler bowls two overs in a row."""
    for seed in range(1, 6):
        for overs in _bowlers(replace(setup(Format.T20, seed), no_consecutive_overs=True)):
            assert all(a != b for a, b in itertools.pairwise(overs))


def test_the_seed_reading_allows_two_overs_running() -> None:
    """Without it, the seed's reading stands: up to 2 overs in succession."""
    assert setup(Format.T20).spec.max_consecutive == 2
    assert replace(setup(Format.T20), no_consecutive_overs=True).spec.max_consecutive == 1


def test_hundred_sets_never_cross_a_change_of_ends() -> None:
    """In The Hundred a bowler's consecutive sets are from one end: never sets 2 and 3."""
    for seed in range(1, 8):
        for sets in _bowlers(setup(Format.HUNDRED, seed)):
            for k in range(2, len(sets), 2):  # set k+1 starts a new ten balls
                assert sets[k] != sets[k - 1]


def test_hundred_no_ball_is_worth_two() -> None:
    """A no-ball is two runs in The Hundred, one elsewhere."""
    seen = {Format.HUNDRED: set(), Format.T20: set()}
    for fmt in seen:
        for seed in range(1, 10):
            for inn in play_match(setup(fmt, seed)).state.innings:
                seen[fmt] |= {b.extra_runs for b in inn.balls if b.extra == "no_ball"}
    assert seen == {Format.HUNDRED: {2}, Format.T20: {1}}


def _plan(name: str) -> tuple[tuple[int, str], ...]:
    """Players 7..11 of a squad in pairs of overs: 10 each in 50 overs, at most 2 running."""
    return tuple((o, f"{name} {7 + (o - 1) // 2 % 5}") for o in range(1, 51))


def test_drinks_amendment_changes_only_the_overs_it_names() -> None:
    """Amending overs 36-37 at drinks leaves overs 38-50 to the plan, not the default."""
    base = setup(Format.FIFTY, 3)
    home = orders("H", bowling_plan=_plan("H"))
    away = orders("A", bowling_plan=_plan("A"))
    plan_h, plan_a = dict(_plan("H")), dict(_plan("A"))
    swap_h = MatchOrders(bowling_plan=((36, plan_h[37]), (37, plan_h[36])))
    swap_a = MatchOrders(bowling_plan=((36, plan_a[37]), (37, plan_a[36])))
    state = play_match(base, home, away, {1: (swap_h, swap_a)}).state
    first = state.innings[0]
    plan = plan_h if first.batting_side == 1 else plan_a
    bowled = first.over_bowlers
    assert len(bowled) >= 40  # the innings went well past the amended overs
    assert bowled[35] == plan[37] and bowled[36] == plan[36]
    assert [bowled[o - 1] for o in range(38, len(bowled) + 1)] == [
        plan[o] for o in range(38, len(bowled) + 1)
    ]


def test_hundred_tie_two_super_fives_then_the_higher_place() -> None:
    """A tied Super Five is followed by one more; if that ties too, the higher place wins."""
    state = play_match(replace(setup(Format.HUNDRED, 1501, knockout=True), seeding=(2, 1))).state
    assert len(state.innings) == 6  # the match, and two Super Fives
    assert state.result is not None
    assert state.result.text == "Match tied; A won on the higher place"


def test_a_drinks_amendment_past_a_quota_plays_the_nearest_legal_plan() -> None:
    """At drinks (35 overs bowled of 50), giving a bowler who has bowled his ten overs two
    more is mended with the overs bowled counting: those two go to the default, said once
    for the bowler in the match's log, and he bowls no eleventh over."""
    base = setup(Format.FIFTY, 3)
    plan_h, plan_a = dict(_plan("H")), dict(_plan("A"))
    home = orders("H", bowling_plan=_plan("H"))
    away = orders("A", bowling_plan=_plan("A"))
    # 7 bowled overs 1-2, 11-12, 21-22, 31-32 (8) and bowls 41-42 (10): 36 and 38 are too many
    extra_h = MatchOrders(bowling_plan=((36, "H 7"), (38, "H 7")))
    extra_a = MatchOrders(bowling_plan=((36, "A 7"), (38, "A 7")))
    assert plan_h[41] == "H 7" and plan_a[41] == "A 7"
    res = play_match(base, home, away, {1: (extra_h, extra_a)})
    first = res.state.innings[0]
    bowler = "H 7" if first.batting_side == 1 else "A 7"
    assert first.over_bowlers.count(bowler) <= 10
    said = [e.text for e in res.state.log if "bowling plan:" in e.text and bowler in e.text]
    assert len(said) == 1 and "more than 10 overs" in said[0], said

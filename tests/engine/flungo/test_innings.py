"""Strike, extras, wickets, the Hundred's ends, injuries and reviews inside an innings."""

from __future__ import annotations

from engine.flungo.events import Ball, MatchEvent
from engine.flungo.formats import Format
from engine.flungo.match import MatchState, play_turn
from engine.flungo.orders import BattingStyle, ReviewMode, ReviewPolicy
from tests.engine.flungo.helpers import Scripted, batting_first, dots, orders, started

SEED_H_BATS = 2  # with this seed the home side (H) wins the toss and bats first


def turn0(script: list[int], legal: int, fmt: Format = Format.T20, **kw: object) -> MatchState:
    """Play turn 0 with ``script`` (``legal`` legal balls) followed by dots up to drinks."""
    state = started(fmt, seed=SEED_H_BATS, **kw)  # type: ignore[arg-type]
    assert batting_first(state) == "H"
    spec = state.setup.spec
    rest = spec.drinks_after * spec.balls_per_over - legal
    dice = Scripted(script + dots(rest))
    new = play_turn(state, dice=dice).state
    assert dice.values == []
    return new


def balls(state: MatchState, innings: int = 0) -> tuple[Ball, ...]:
    return state.innings[innings].balls


def test_odd_runs_byes_and_over_end_change_strike() -> None:
    """Odd runs, odd byes and the over's end change strike; wides and no balls do not."""
    script = [1, 1, 1, 4, 3, 1, 1, 4, 6, 2, 2, 1, 4, 1, 6, 5, 6, 5, 6, 5]
    b = balls(turn0(script, 6))
    assert [x.striker for x in b[:9]] == [
        "H 1",
        "H 2",
        "H 1",
        "H 1",
        "H 1",
        "H 1",
        "H 1",
        "H 1",
        "H 2",
    ]
    assert [x.ball for x in b[:8]] == [1, 2, 3, 3, 4, 4, 5, 6]
    assert [x.legal for x in b[:8]] == [True, True, False, True, False, True, True, True]


def test_byes_change_strike() -> None:
    """A single bye is run: the batsmen cross (decision: byes and leg byes change strike)."""
    b = balls(turn0([1, 4, 4, 1], 1))
    assert (b[0].extra, b[0].extra_runs) == ("leg_bye", 1)
    assert b[1].striker == "H 2"


def test_wide_is_one_run_and_bowled_again() -> None:
    """A wide is one extra and not a legal ball; the over still has six legal balls."""
    state = turn0([1, 4, 6], 0)
    inn = state.innings[0]
    assert inn.runs == 1 and inn.legal == 90
    over1 = [x for x in inn.balls if x.over == 1]
    assert len(over1) == 7 and sum(x.legal for x in over1) == 6


def test_wicket_brings_in_next_batsman_on_strike() -> None:
    """A bowled striker is replaced by the next in the order, who faces the next ball."""
    b = balls(turn0([5, 5, 6, 1], 1))
    assert (b[0].wicket, b[0].player_out) == ("bowled", "H 1")
    assert b[1].striker == "H 3" and b[1].non_striker == "H 2"


def test_wicket_on_last_ball_of_over() -> None:
    """After a wicket on the sixth ball the new batsman goes to the non-striker's end."""
    b = balls(turn0([*dots(5), 5, 5, 1, 1, 1], 6))
    assert b[5].wicket == "caught"
    assert (b[6].striker, b[6].non_striker) == ("H 2", "H 3")


def test_hundred_ends_change_every_ten_balls() -> None:
    """The Hundred: strike changes after every ten balls (two sets), not after every set."""
    b = balls(turn0([], 0, Format.HUNDRED))
    assert [x.striker for x in b[:21]] == ["H 1"] * 10 + ["H 2"] * 10 + ["H 1"]
    assert [x.over for x in (b[4], b[5])] == [1, 2]


def test_hundred_new_batter_takes_strike_after_catch() -> None:
    """The Hundred: after a catch on the tenth ball the new batter still faces next."""
    caught = balls(turn0([*dots(9), 5, 5, 1, 1, 1], 10, Format.HUNDRED))
    assert caught[9].wicket == "caught" and caught[10].striker == "H 3"
    bowled = balls(turn0([*dots(9), 5, 5, 6, 1], 10, Format.HUNDRED))
    assert bowled[9].wicket == "bowled" and bowled[10].striker == "H 2"


def test_retired_hurt_is_not_a_wicket_and_is_reported() -> None:
    """Retired hurt is no wicket; his injury points and substitute are in the state."""
    state = turn0([5, 5, 10, 6, 4, 2], 1)
    inn = state.innings[0]
    assert inn.wickets == 0 and inn.out == ("H 1",)
    assert state.injuries == (("H", "H 1", 3),)
    assert ("H", "sub (H 1)", 3, "H 1") in state.subs
    assert inn.balls[1].striker == "H 3"


def test_retired_hurt_event_counts_injury_points_in_words() -> None:
    """The injury event says "1 injury point" for one and "3 injury points" for three."""
    for injury_roll, words in ((2, "1 injury point;"), (4, "3 injury points;")):
        state = turn0([5, 5, 10, 6, injury_roll, 2], 1)
        texts = [e.text for e in state.log if e.kind.value == "injury"]
        assert len(texts) == 1 and words in texts[0], texts


def test_all_out_closes_the_innings() -> None:
    """Ten wickets close the innings before drinks; the next turn plays nothing."""
    state = started(seed=SEED_H_BATS)
    dice = Scripted([5, 5, 6, 1] * 10)
    state = play_turn(state, dice=dice).state
    inn = state.innings[0]
    assert (inn.wickets, inn.legal, inn.closed, inn.all_out) == (10, 10, "all out", True)
    res = play_turn(state, dice=Scripted([]))
    assert [e for e in res.events if isinstance(e, Ball)] == []


def test_review_used_up_only_when_unsuccessful() -> None:
    """A successful review is kept, a failed one lost; with none left none is asked."""
    lbw_out_review_overturned = [5, 5, 8, 5, 3, 1]
    lbw_out_review_fails = [5, 5, 8, 5, 3, 6]
    lbw_out = [5, 5, 8, 5, 3]
    script = lbw_out_review_overturned + lbw_out_review_fails * 2 + lbw_out
    state = turn0(script, 4)
    inn = state.innings[0]
    assert [x.wicket for x in inn.balls[:4]] == [None, "lbw", "lbw", "lbw"]
    assert inn.reviews[0] == 0
    assert [r.purpose for r in inn.balls[3].rolls][-1] == "umpire"


def test_review_policy_never() -> None:
    """A side whose policy is never does not review."""
    home = orders("H", batting_reviews=ReviewPolicy(ReviewMode.NEVER))
    state = turn0([5, 5, 8, 5, 3], 1, home=home)
    assert state.innings[0].reviews[0] == 2 and state.innings[0].balls[0].wicket == "lbw"


def test_review_policy_top_order_and_named() -> None:
    """Top-order and named policies review only for the batsmen they cover."""
    home = orders("H", batting_reviews=ReviewPolicy(ReviewMode.TOP_ORDER, top=1))
    # H 1 is given out and reviews (fails); then H 3 is given out and does not review.
    state = turn0([5, 5, 8, 5, 3, 6, 5, 5, 8, 5, 3], 2, home=home)
    assert state.innings[0].reviews[0] == 1
    home = orders("H", batting_reviews=ReviewPolicy(ReviewMode.NAMED, names=("H 3",)))
    state = turn0([5, 5, 8, 5, 3, 5, 5, 8, 5, 3, 6], 2, home=home)
    assert state.innings[0].reviews[0] == 1


def test_styles_from_orders_pick_the_second_die() -> None:
    """A batsman's ordered style is on his balls, and his second die is sized by it."""
    home = orders("H", styles=(("H 1", BattingStyle.WAHOO),))
    b = balls(turn0([], 0, home=home))
    assert b[0].style == "wahoo" and b[0].rolls[1].die == 10


def test_drinks_event_ends_turn_zero() -> None:
    """Turn 0 stops at drinks (after 15 overs in T20) and says the score."""
    state = started(seed=SEED_H_BATS)
    res = play_turn(state, dice=Scripted(dots(90)))
    last = res.events[-1]
    assert isinstance(last, MatchEvent) and last.text == "drinks: H 0/0"
    assert res.state.innings[0].legal == 90


def test_fielder_numbering_skips_keeper() -> None:
    """The D10 numbers the fielding XI in order skipping the keeper; the bowler counts."""
    b = balls(turn0([5, 5, 3, 1, 1, 3, 5, 5, 3, 1, 1, 10, 5, 5, 3, 1, 1, 1], 3))
    assert [x.fielder for x in b[:3]] == ["A 4", "A 11", "A 1"]
    assert b[2].bowler == "A 1"

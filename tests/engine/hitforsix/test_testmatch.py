"""Test Matches (law 5): duplicate overs, wickets, runs by margin and the ten-over champion."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalOrder
from engine.hitforsix.over import Decisions
from engine.hitforsix.rules import Rule
from engine.hitforsix.testmatch import (
    TARGETS,
    MatchState,
    MatchWon,
    OverPlayed,
    OverResult,
    auto_match,
    career,
    new_match,
    over_deal,
    play_round,
    runs_for,
)
from tests.engine.hitforsix.synthetic import synthetic_deck

DECK = synthetic_deck(50, 21)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**64 - 1), st.sampled_from([2, 3, 4]))
def test_every_champion_wins_exactly_ten_overs(seed: int, seats: int) -> None:
    """With n seats the target is 10(n−1) and each won over takes n−1 wickets: ten wins."""
    state = auto_match(DECK, seed, seats)
    champ = state.champion
    assert champ is not None
    assert state.target == 10 * (seats - 1) == TARGETS[seats]
    assert state.standings[champ].overs_won == 10
    assert state.standings[champ].wickets_taken == state.target
    assert all(s.wickets_taken < state.target for s in state.standings if s.seat != champ)


@pytest.mark.parametrize(
    ("tenths", "runs"), [(1000, 6), (801, 6), (800, 4), (701, 4), (700, 2), (601, 2),
                         (600, 1), (501, 1), (500, 0), (0, 0)],
)  # fmt: skip
def test_runs_by_margin(tenths: int, runs: int) -> None:
    """Above 50 a single, 60 two, 70 a four, 80 a six; 50 or below a bye."""
    assert runs_for(tenths) == runs


def test_identical_decisions_are_a_dead_ball() -> None:
    """Seats that tie at the top make a dead ball: nothing moves."""
    state = new_match(DECK, 3, ["a", "b"])
    res = play_round(state, DECK, [Decisions(), Decisions()])
    assert res.events == (OverPlayed(res.state.overs[0]),)
    assert res.state.overs[0].winner is None
    assert all(s.wickets_taken == 0 and s.runs == 0 for s in res.state.standings)


def test_winner_takes_a_wicket_from_each_and_runs() -> None:
    """The over's winner takes one wicket from each defeated seat and the runs its grade earns."""
    state = new_match(DECK, 3, ["a", "b", "c"])
    over = OverResult(1, Rule.MAXIMUMS, (Decisions(),) * 3, (750, 400, 300), 0)
    state = MatchState(state.seed, state.deck, state.players, (over,))
    assert state.standings[0].wickets_taken == 2
    assert state.standings[0].runs == 4
    assert state.standings[0].overs_won == 1


def test_every_seat_gets_the_same_deal() -> None:
    """Each over's deal depends only on the match seed and the over number."""
    assert over_deal(DECK, 9, 1) == over_deal(DECK, 9, 1)
    assert over_deal(DECK, 9, 1).indices != over_deal(DECK, 9, 2).indices


def test_match_json_round_trips() -> None:
    """A match's canonical JSON reads back to an equal state with the same standings."""
    state = auto_match(DECK, 77, 3)
    text = json.dumps(state.to_json(), sort_keys=True)
    again = MatchState.from_json(json.loads(text))
    assert again == state
    assert again.standings == state.standings
    assert json.dumps(again.to_json(), sort_keys=True) == text


def test_match_won_event_and_no_more_overs() -> None:
    """Reaching the target emits MatchWon; a won match takes no more overs."""
    state = auto_match(DECK, 5, 2)
    last = state.overs[-1]
    before = MatchState(state.seed, state.deck, state.players, state.overs[:-1])
    res = play_round(before, DECK, list(last.decisions))
    assert res.events[-1] == MatchWon(last.winner or 0, 10)
    with pytest.raises(IllegalOrder, match="match is won"):
        play_round(state, DECK, list(last.decisions))


def test_seat_counts_and_decisions_are_checked() -> None:
    """Only 2–4 seats; every seat must bat each over."""
    with pytest.raises(IllegalOrder, match="2, 3 or 4 seats"):
        new_match(DECK, 1, ["solo"])
    with pytest.raises(IllegalOrder, match="every one of the 2 seats"):
        play_round(new_match(DECK, 1, ["a", "b"]), DECK, [Decisions()])


def test_career_accumulates_runs() -> None:
    """Careers sum runs, wins, overs and wickets across matches, by player name."""
    m1, m2 = auto_match(DECK, 1, 2), auto_match(DECK, 2, 2)
    lines = career([m1, m2])
    assert lines["Seat 0"].matches == 2
    assert lines["Seat 0"].runs == m1.standings[0].runs + m2.standings[0].runs
    assert sum(c.wins for c in lines.values()) == 2


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**32), st.sampled_from([2, 3, 4]))
def test_same_seed_and_decisions_give_identical_resolution(
    seed: int, auto_seed: int, seats: int
) -> None:
    """Replaying an over with the same seed and decisions gives an identical Resolution."""
    from engine.dice import Dice
    from engine.hitforsix.testmatch import auto_decisions

    state = new_match(DECK, seed, [f"p{i}" for i in range(seats)])
    ds = [auto_decisions(Dice(auto_seed).derive(str(i))) for i in range(seats)]
    a, b = play_round(state, DECK, ds), play_round(state, DECK, ds)
    assert a == b
    assert MatchState.from_json(json.loads(json.dumps(a.state.to_json()))) == a.state


def test_overs_are_decided_on_the_exact_score_not_the_rounded_grade() -> None:
    """Two sides showing the same grade are split by their exact scores, not called dead."""
    from engine.hitforsix.game import grader_for
    from engine.hitforsix.over import reachable_xis, route_to

    the_deal = over_deal(DECK, 5, 1)
    assert the_deal.rule is Rule.THE_AVERAGE  # a ratio: many scores share a tenth
    grader = grader_for(the_deal)
    first: dict[int, tuple[int, tuple[int, ...]]] = {}
    pair = None
    for xi in sorted(reachable_xis()):
        g = grader.grade(xi, the_deal.rule)
        seen = first.setdefault(g.tenths, (g.key, xi))
        if seen[0] != g.key:
            pair = (seen, (g.key, xi))
            break
    assert pair is not None
    (k1, xi1), (k2, xi2) = pair
    res = play_round(new_match(DECK, 5, ["a", "b"]), DECK, [route_to(xi1), route_to(xi2)])
    over = res.state.overs[0]
    assert over.grades[0] == over.grades[1]
    assert over.winner == (0 if k1 > k2 else 1)


def test_a_match_is_derived_from_its_decisions_alone() -> None:
    """replay_match recomputes every grade and winner from the decisions (law 9.02)."""
    from engine.hitforsix.testmatch import replay_match

    state = auto_match(DECK, 8, 3)
    again = replay_match(DECK, 8, state.players, [o.decisions for o in state.overs])
    assert again == state and again.standings == state.standings

"""The ten Rules, the attack and grading (law 4): numpy agrees with the pure-Python reference."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.hitforsix.cards import Card
from engine.hitforsix.deal import deal
from engine.hitforsix.grading import XI_COUNT, Grader, grade_tenths
from engine.hitforsix.over import all_xis
from engine.hitforsix.reference import reference_grade, reference_keys
from engine.hitforsix.rules import (
    HIDDEN_RULES,
    DeckRates,
    Rule,
    attack_order,
    is_proper_bowler,
    score_key,
    score_xi,
)
from tests.engine.hitforsix.synthetic import synthetic_deck

RATES = DeckRates(economy=8.0, average=30.0)


def _card(i: int, **figures: int) -> Card:
    base = {
        "matches": 10, "runs": 100, "dismissals": 10, "balls_faced": 100, "fours": 5, "sixes": 2,
        "balls_bowled": 0, "runs_conceded": 0, "wickets": 0,
    }  # fmt: skip
    base.update(figures)
    return Card(id=f"c{i}", name=f"C {i}", initials="CC", country="Kenya", **base)


@pytest.mark.slow
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**64 - 1), st.integers(1, 50))
def test_numpy_agrees_with_reference(seed: int, deck_seed: int) -> None:
    """Every XI's key under every Rule is the same from numpy and from pure Python."""
    deck = synthetic_deck(60, deck_seed)
    dl = deal(deck, seed)
    rates = DeckRates.of(deck)
    grader = Grader(dl.cards, rates, dl.line)
    rows = np.array([grader.row(xi) for xi in all_xis()])
    for rule in HIDDEN_RULES:
        expected = reference_keys(dl.cards, rates, dl.line, rule)
        assert grader.keys(rule)[rows].tolist() == expected, rule


def test_grade_agrees_with_reference_grade() -> None:
    """Grader.grade and reference_grade give the same beats, ties and grade."""
    deck = synthetic_deck(50, 9)
    dl = deal(deck, 77)
    rates = DeckRates.of(deck)
    grader = Grader(dl.cards, rates, dl.line)
    xi = (0, 2, 3, 5, 7, 8, 9, 10, 11, 13, 16)
    for rule in (Rule.THE_AVERAGE, Rule.THE_ECONOMY, Rule.SIX_AND_OUT):
        assert grader.grade(xi, rule) == reference_grade(dl.cards, rates, dl.line, xi, rule)


def test_rows_round_trip() -> None:
    """Every XI maps to its own row and back."""
    dl = deal(synthetic_deck(40, 2), 5)
    grader = Grader(dl.cards, RATES, dl.line)
    assert sorted(grader.row(xi) for xi in all_xis()) == list(range(XI_COUNT))
    assert all(grader.xi_of_row(grader.row(xi)) == xi for xi in all_xis()[::97])


def test_grade_arithmetic() -> None:
    """Grade = 100 × (beats + ties/2) / 12,375 to one decimal; the perfect side is 100."""
    assert grade_tenths(12375, 0) == 1000
    assert grade_tenths(0, 0) == 0
    assert grade_tenths(0, 12375) == 1000  # nobody beats it: a perfect side, shared
    assert grade_tenths(6000, 1) == round(1000 * 6000.5 / 12375)


@pytest.mark.parametrize(("beats", "ties"), [(12374, 0), (12370, 0), (12360, 10), (12350, 24)])
def test_only_the_perfect_side_grades_100(beats: int, ties: int) -> None:
    """A side something beats shows at most 99.9, though it would round to 100.0."""
    assert grade_tenths(beats, ties) == 999


def test_tied_best_sides_grade_100() -> None:
    """Under The Economy many XIs share the best attack; every one of them grades 100."""
    cards = [_card(i) for i in range(12)] + [
        _card(12 + i, balls_bowled=600, runs_conceded=500 + 10 * i, wickets=30) for i in range(5)
    ]
    grader = Grader(cards, RATES, 30)
    best = (0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16)
    g = grader.grade(best, Rule.THE_ECONOMY)
    assert g.ties > 0 and g.beats + g.ties == 12375
    assert g.grade == 100.0 and g.perfect
    worse = grader.grade(range(11), Rule.THE_ECONOMY)
    assert worse.grade < 100.0 and not worse.perfect and worse.key < g.key


def test_one_perfect_side_scores_100() -> None:
    """The XI with the most runs (unique) grades 100 under Runs on the Board; the least, 0."""
    cards = [_card(i, runs=100 + 7 * i) for i in range(17)]
    grader = Grader(cards, RATES, 0)
    top = tuple(range(6, 17))
    assert grader.grade(top, Rule.RUNS_ON_THE_BOARD).grade == 100.0
    assert grader.grade(tuple(range(11)), Rule.RUNS_ON_THE_BOARD).grade == 0.0


def test_identical_cards_all_tie() -> None:
    """When every XI scores the same, nobody beats anybody: every XI is perfect and grades 100."""
    grader = Grader([_card(i) for i in range(17)], RATES, 30)
    for rule in HIDDEN_RULES:
        g = grader.grade(range(11), rule)
        assert (g.beats, g.ties, g.grade) == (0, 12375, 100.0)


def test_attack_order_tie_break() -> None:
    """The attack is most balls, then most wickets, then lower deal position."""
    cards = [_card(i, balls_bowled=b, wickets=w) for i, (b, w) in enumerate(
        [(60, 1), (120, 2), (120, 5), (0, 0), (60, 1)] + [(0, 0)] * 12
    )]  # fmt: skip
    assert attack_order(cards, range(5)) == [2, 1, 0, 4, 3]


def test_part_timers_charged_going_rate_a_quarter_worse() -> None:
    """An XI of non-bowlers has the going economy and average, each × 1.25."""
    cards = [_card(i) for i in range(17)]
    xi = tuple(range(11))
    assert score_xi(Rule.THE_ECONOMY, cards, xi, RATES, 0) == pytest.approx(10.0)
    assert score_xi(Rule.BOWLING_AVERAGE, cards, xi, RATES, 0) == pytest.approx(37.5)


def test_proper_bowler_threshold() -> None:
    """A proper bowling record is at least 240 balls and 10 wickets."""
    assert is_proper_bowler(_card(0, balls_bowled=240, wickets=10, runs_conceded=200))
    assert not is_proper_bowler(_card(0, balls_bowled=239, wickets=50, runs_conceded=200))
    assert not is_proper_bowler(_card(0, balls_bowled=2400, wickets=9, runs_conceded=200))


def test_attack_economy_and_average_formulae() -> None:
    """Economy is the mean of five; Bowling Average is Σecon / Σ(econ/avg) over 4 overs each."""
    bowlers = [(600, 500, 20), (600, 700, 35), (300, 360, 10), (300, 300, 12)]
    cards = [_card(i, balls_bowled=b, runs_conceded=r, wickets=w)
             for i, (b, r, w) in enumerate(bowlers)]  # fmt: skip
    cards += [_card(i) for i in range(4, 17)]
    xi = tuple(range(11))
    econs = [6 * r / b for b, r, _ in bowlers] + [10.0]
    strikes = [6 * w / b for b, _, w in bowlers] + [8.0 / 30.0]
    assert score_xi(Rule.THE_ECONOMY, cards, xi, RATES, 0) == pytest.approx(sum(econs) / 5)
    expected_avg = sum(econs) / sum(strikes)
    assert score_xi(Rule.BOWLING_AVERAGE, cards, xi, RATES, 0) == pytest.approx(expected_avg)


def test_lower_is_better_for_the_economy() -> None:
    """Under The Economy, the XI holding the five cheapest bowlers grades 100."""
    cards = [_card(i, balls_bowled=600, runs_conceded=400 + 10 * i, wickets=20)
             for i in range(17)]  # fmt: skip
    grader = Grader(cards, RATES, 0)
    # Every XI's attack is its five lowest positions, so the cheapest five must be in it: ties.
    best = grader.grade(tuple(range(11)), Rule.THE_ECONOMY)
    worst = grader.grade(tuple(range(6, 17)), Rule.THE_ECONOMY)
    assert best.score < worst.score
    assert best.grade > worst.grade and worst.grade == 0.0


def test_six_and_out_over_the_line_is_nought() -> None:
    """Combined sixes above the line score nought; at or below they score themselves."""
    cards = [_card(i, sixes=i) for i in range(17)]
    low = tuple(range(11))  # 55 sixes
    assert score_xi(Rule.SIX_AND_OUT, cards, low, RATES, 55) == 55.0
    assert score_xi(Rule.SIX_AND_OUT, cards, low, RATES, 54) == 0.0
    grader = Grader(cards, RATES, 55)
    assert grader.grade(low, Rule.SIX_AND_OUT).score == 55.0


def test_batting_rules() -> None:
    """The Average, Strike Rate, Maximums, Occupy the Crease and Wickets: combined figures."""
    cards = [_card(i, runs=10 * i, dismissals=i % 3, balls_faced=20 * i, wickets=i)
             for i in range(17)]  # fmt: skip
    xi = tuple(range(11))
    runs, outs = sum(10 * i for i in xi), sum(i % 3 for i in xi)
    assert score_xi(Rule.THE_AVERAGE, cards, xi, RATES, 0) == runs / outs
    assert score_xi(Rule.STRIKE_RATE, cards, xi, RATES, 0) == 50.0
    assert score_xi(Rule.MAXIMUMS, cards, xi, RATES, 0) == 22.0
    assert score_xi(Rule.OCCUPY_THE_CREASE, cards, xi, RATES, 0) == 20.0 * 55
    assert score_xi(Rule.WICKETS, cards, xi, RATES, 0) == 55.0


def test_no_dismissals_or_balls() -> None:
    """The Average divides by at least one dismissal; Strike Rate with no balls is 0."""
    cards = [replace(_card(i), dismissals=0, balls_faced=0) for i in range(17)]
    xi = tuple(range(11))
    assert score_xi(Rule.THE_AVERAGE, cards, xi, RATES, 0) == 1100.0
    assert score_xi(Rule.STRIKE_RATE, cards, xi, RATES, 0) == 0.0
    assert Grader(cards, RATES, 0).grade(xi, Rule.STRIKE_RATE).score == 0.0


def test_ties_after_rounding() -> None:
    """Scores equal to 1e-9 tie; a lower-is-better Rule negates the key."""
    assert score_key(Rule.THE_AVERAGE, 1.0) == score_key(Rule.THE_AVERAGE, 1.0 + 1e-12)
    assert score_key(Rule.THE_ECONOMY, 2.0) < score_key(Rule.THE_ECONOMY, 1.0)


def test_toss_is_not_scored_directly() -> None:
    """The Toss must be resolved to its hidden Rule before scoring."""
    with pytest.raises(ValueError, match="hidden Rule"):
        score_xi(Rule.THE_TOSS, [_card(i) for i in range(17)], range(11), RATES, 0)


def test_rule_names() -> None:
    """Rules parse from their hyphenated names and print the laws' titles."""
    assert Rule.parse("Runs on the Board") is Rule.RUNS_ON_THE_BOARD
    assert Rule.RUNS_ON_THE_BOARD.title == "Runs on the Board"
    assert Rule.SIX_AND_OUT.title == "Six and Out"
    with pytest.raises(ValueError, match="no Rule called"):
        Rule.parse("googly")


def test_best_is_a_perfect_side() -> None:
    """Grader.best gives an XI that grades 100 under each Rule."""
    dl = deal(synthetic_deck(50, 3), 8)
    grader = Grader(dl.cards, DeckRates.of(dl.deck), dl.line)
    for rule in HIDDEN_RULES:
        assert grader.grade(grader.best(rule), rule).grade == 100.0

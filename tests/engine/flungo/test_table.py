"""Match summaries, points, net run rate and the tie-breakers of a table."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.flungo import season
from engine.flungo.formats import FORMATS, Format
from engine.flungo.season import (
    CompetitionError,
    MatchSummary,
)
from engine.flungo.season_events import (
    CompetitionFinished,
    RoundCompleted,
)
from tests.engine.flungo.seasonkit import inn, match, play_out, teams

# --- net run rate and the table ---------------------------------------------------------------


def test_nrr_simple_full_innings() -> None:
    """150/5 off 20 overs against 120/8 off 20 is +1.5 and -1.5."""
    assert season.net_run_rate(150, 120, 120, 120) == Fraction(3, 2)
    assert season.net_run_rate(120, 120, 150, 120) == Fraction(-3, 2)


def test_nrr_all_out_counts_full_overs() -> None:
    """A side bowled out in 40 overs of 50 counts as having faced all 50 (both sides' NRR)."""
    comp, _ = season.new_league("L", ["A", "B"], Format.FIFTY, Dice(3))
    summary = match(
        inn("A", 200, 6, 300, allotted=300), inn("B", 150, 10, 240, allotted=300, all_out=True)
    )
    comp, _ = season.record_result(comp, summary)
    rows = {r.team: r for r in season.standings(comp)}
    assert rows["B"].nrr == Fraction(150, 50) - Fraction(200, 50) == -1
    assert rows["A"].nrr == 1
    assert (rows["B"].balls_faced, rows["A"].balls_bowled) == (300, 300)
    assert rows["A"].nrr_text == "+1.000"
    assert rows["B"].nrr_text == "-1.000"


def test_nrr_chase_uses_balls_faced() -> None:
    """A chase won in 18.3 overs uses 18.5 overs: 161/18.5 - 160/20 = +0.703."""
    comp, _ = season.new_league("L", ["A", "B"], Format.T20, Dice(3))
    comp, _ = season.record_result(comp, match(inn("A", 160, 7), inn("B", 161, 4, 111)))
    rows = {r.team: r for r in season.standings(comp)}
    assert rows["B"].nrr == Fraction(161 * 6, 111) - 8
    assert (rows["B"].nrr_text, rows["A"].nrr_text) == ("+0.703", "-0.703")


def test_nrr_is_over_the_whole_competition() -> None:
    """NRR sums runs and overs over all matches (not an average of match NRRs)."""
    comp, _ = season.new_league("L", ["A", "B", "C"], Format.T20, Dice(3))
    comp, _ = season.record_result(comp, match(inn("A", 150), inn("B", 120, 8)))
    comp, _ = season.record_result(
        comp, match(inn("A", 100, 10, 60, all_out=True), inn("C", 101, 2, 72))
    )
    row = next(r for r in season.standings(comp) if r.team == "A")
    # for: 250 off 240 balls (all out counts 120); against: 221 off 192 balls
    assert row.nrr == Fraction(250, 40) - Fraction(221, 32)
    assert row.nrr_text == "-0.656"


def test_nrr_hundred_counts_six_ball_overs() -> None:
    """In The Hundred NRR is still per six balls: 140 off 100 v 120 all out is +1.2."""
    balls = FORMATS[Format.HUNDRED].balls
    comp, _ = season.new_league("H", ["A", "B"], Format.HUNDRED, Dice(3))
    summary = match(
        inn("A", 140, 6, balls, allotted=balls), inn("B", 120, 10, 90, allotted=balls, all_out=True)
    )
    comp, _ = season.record_result(comp, summary)
    assert season.standings(comp)[0].nrr == Fraction(6, 5)
    assert "140/20.0" in season.standings_text(comp)  # shown in sets of five


def test_points_win_two_tie_one() -> None:
    """A win is worth 2 points, a tie 1 each, a defeat none."""
    comp, _ = season.new_league("L", ["A", "B", "C"], Format.T20, Dice(3))
    comp, _ = season.record_result(comp, match(inn("A", 150), inn("B", 150)))
    comp, _ = season.record_result(comp, match(inn("C", 90), inn("A", 91, 1, 60)))
    rows = {r.team: (r.played, r.won, r.lost, r.tied, r.points) for r in season.standings(comp)}
    assert rows == {"A": (2, 1, 0, 1, 3), "B": (1, 0, 0, 1, 1), "C": (1, 0, 1, 0, 0)}


def test_head_to_head_breaks_level_points_and_nrr() -> None:
    """Level on points and NRR, the side that won their meeting goes above, whatever the lots."""
    comp, _ = season.new_league("L", ["A", "B", "C", "D"], Format.T20, Dice(3))
    comp = replace(comp, lots=("B", "D", "C", "A"))
    for summary in (
        match(inn("A", 110), inn("B", 100)),
        match(inn("C", 110), inn("A", 100)),
        match(inn("B", 110), inn("D", 100)),
    ):
        comp, _ = season.record_result(comp, summary)
    rows = season.standings(comp)
    assert [r.team for r in rows] == ["C", "A", "B", "D"]
    assert rows[1].points == rows[2].points and rows[1].nrr == rows[2].nrr == 0


def test_lots_break_a_three_way_cycle() -> None:
    """When points, NRR and head to head are all level, the drawn lots decide."""
    comp, _ = season.new_league("L", ["A", "B", "C"], Format.T20, Dice(3))
    comp = replace(comp, lots=("C", "A", "B"))
    for summary in (
        match(inn("A", 110), inn("B", 100)),
        match(inn("B", 110), inn("C", 100)),
        match(inn("C", 110), inn("A", 100)),
    ):
        comp, events = season.record_result(comp, summary)
    assert [r.team for r in season.standings(comp)] == ["C", "A", "B"]
    assert season.champion(comp) == "C"
    assert events[-1] == CompetitionFinished("C", "A", "B")


@given(st.data(), st.integers(2, 8), st.booleans())
@settings(max_examples=40, deadline=None)
def test_league_table_invariants(data: st.DataObject, n: int, double: bool) -> None:
    """Played = W+L+T; points total 2 a match; runs for and against balance; a champion."""
    comp, _ = season.new_league("L", teams(n), Format.T20, Dice(n), double=double)
    comp, events = play_out(data, comp)
    rows = season.standings(comp)
    assert [r.position for r in rows] == list(range(1, n + 1))
    assert all(r.played == r.won + r.lost + r.tied for r in rows)
    assert sum(r.points for r in rows) == 2 * len(comp.fixtures)
    assert sum(r.runs_for for r in rows) == sum(r.runs_against for r in rows)
    points = [r.points for r in rows]
    assert points == sorted(points, reverse=True)
    assert season.champion(comp) == rows[0].team
    assert isinstance(events[-1], CompetitionFinished)
    assert sum(isinstance(e, RoundCompleted) for e in events) == comp.rounds


def test_summary_validation_and_text() -> None:
    """A summary's winner must follow from the runs; the result reads like cricket."""
    with pytest.raises(CompetitionError, match="A scored more"):
        MatchSummary("A", "B", (inn("A", 150), inn("B", 140)), "B")
    with pytest.raises(CompetitionError, match="tie"):
        MatchSummary("A", "B", (inn("A", 150), inn("B", 150)), "B")
    with pytest.raises(CompetitionError, match="one by A and one by B"):
        MatchSummary("A", "B", (inn("A", 150), inn("A", 150)), None)
    with pytest.raises(CompetitionError):
        inn("A", 10, 11)
    with pytest.raises(CompetitionError):
        inn("A", 10, 3, 121)
    assert match(inn("A", 150), inn("B", 149)).result_text() == "A won by 1 run"
    assert match(inn("A", 150), inn("B", 151, 6, 115)).result_text() == (
        "B won by 4 wickets (5 balls left)"
    )
    assert match(inn("A", 150), inn("B", 151, 9)).result_text() == "B won by 1 wicket"
    assert match(inn("A", 150), inn("B", 150)).result_text() == "Match tied"


def _report(innings: list[dict[str, object]], winner: str | None) -> dict[str, object]:
    """A match report in issue 2's ``pbm sim --json`` shape (only the keys read)."""
    return {
        "format": "t20",
        "teams": [{"name": "A", "players": []}, {"name": "B", "players": []}],
        "innings": innings,
        "result": {"winner": winner, "margin": None, "text": ""},
        "injuries": [{"team": "B", "player": "Bowler 1", "points": 2}],
    }


def test_summary_from_report() -> None:
    """A sim report maps to a summary: all out from 'closed' or ten wickets; Super Overs skipped."""
    report = _report(
        [
            {"batting_team": "B", "runs": 99, "wickets": 8, "legal_balls": 80, "closed": "all out"},
            {"batting_team": "A", "runs": 100, "wickets": 3, "legal_balls": 90, "closed": "won"},
        ],
        "A",
    )
    summary = season.summary_from_report(report, fixture_id="R1M1")
    assert summary == MatchSummary(
        "A", "B", (inn("B", 99, 8, 80, all_out=True), inn("A", 100, 3, 90)), "A", False, "R1M1"
    )
    assert season.injuries_from_report(report) == {"A": {}, "B": {"Bowler 1": 2}}
    tied = _report(
        [
            {"batting_team": "A", "runs": 120, "wickets": 10, "legal_balls": 110},
            {"batting_team": "B", "runs": 120, "wickets": 4, "legal_balls": 120},
            {"batting_team": "B", "runs": 9, "wickets": 0, "legal_balls": 6, "super_over": True},
            {"batting_team": "A", "runs": 7, "wickets": 2, "legal_balls": 6, "super_over": True},
        ],
        "B",
    )
    summary = season.summary_from_report(tied)
    assert summary.innings == (inn("A", 120, 10, 110, all_out=True), inn("B", 120, 4))
    assert summary.decided_by_super_over and summary.winner == "B"

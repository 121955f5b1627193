"""League tables: points, net run rate and the tie-breakers.

* **Points**: 2 for a win, 1 for a tie, 0 for a defeat. Flungo has no no-results (it never
  rains on Flungo, and a manager who sends no orders plays on defaults), so there is no NR column.
* **Net run rate** is the standard one: runs scored per over faced minus runs conceded per over
  bowled, over the whole competition. A side bowled out counts as having faced its full allotted
  balls (and its opponents as having bowled them). Super Over runs are not counted.
  An over is always **6 legal balls**, in The Hundred too (there a set is 5): a competition is
  all in one format, so the unit only scales every side's figure alike and never changes the
  order, and "runs per six balls" reads like any other cricket table. Net run rate is kept as
  an exact fraction; it is shown to three decimals.
* **Order**: points, then net run rate, then head-to-head points in the matches among the sides
  still level, then the drawing of lots made (with dice) when the competition was created.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from typing import Any

from engine.flungo.summary import MatchSummary

__all__ = [
    "BALLS_PER_NRR_OVER",
    "POINTS_FOR_TIE",
    "POINTS_FOR_WIN",
    "TableRow",
    "format_table",
    "league_table",
    "net_run_rate",
    "overs_text",
]

POINTS_FOR_WIN = 2
POINTS_FOR_TIE = 1
BALLS_PER_NRR_OVER = 6


def net_run_rate(runs_for: int, balls_faced: int, runs_against: int, balls_bowled: int) -> Fraction:
    """``runs_for / overs_faced - runs_against / overs_bowled`` with overs = balls / 6.

    A side with no balls faced (or bowled) yet has 0 for that half.

    >>> net_run_rate(150, 120, 120, 120)
    Fraction(3, 2)
    """
    faced = Fraction(runs_for * BALLS_PER_NRR_OVER, balls_faced) if balls_faced else Fraction(0)
    bowled = (
        Fraction(runs_against * BALLS_PER_NRR_OVER, balls_bowled) if balls_bowled else Fraction(0)
    )
    return faced - bowled


def overs_text(balls: int, balls_per_over: int = 6) -> str:
    """Balls as cricket's ``overs.balls``: 125 balls of 6 is ``"20.5"``."""
    return f"{balls // balls_per_over}.{balls % balls_per_over}"


@dataclass(frozen=True, slots=True)
class TableRow:
    """One side's line in a table. ``balls_faced``/``balls_bowled`` are the NRR balls."""

    position: int
    team: str
    played: int
    won: int
    lost: int
    tied: int
    points: int
    runs_for: int
    balls_faced: int
    runs_against: int
    balls_bowled: int

    @property
    def nrr(self) -> Fraction:
        """Net run rate, exact."""
        return net_run_rate(self.runs_for, self.balls_faced, self.runs_against, self.balls_bowled)

    @property
    def nrr_text(self) -> str:
        """Net run rate to three decimals with its sign: ``"+1.250"``, ``"-0.083"``."""
        value = self.nrr
        sign = "-" if value < 0 else "+"
        thousandths = round(abs(value) * 1000)  # Fraction rounding is exact (half to even)
        return f"{sign}{thousandths // 1000}.{thousandths % 1000:03d}"

    def to_json(self) -> dict[str, Any]:
        """The row as JSON, with the net run rate as a string and as a fraction."""
        return {
            "position": self.position,
            "team": self.team,
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "tied": self.tied,
            "points": self.points,
            "runs_for": self.runs_for,
            "balls_faced": self.balls_faced,
            "runs_against": self.runs_against,
            "balls_bowled": self.balls_bowled,
            "nrr": self.nrr_text,
            "nrr_fraction": [self.nrr.numerator, self.nrr.denominator],
        }


@dataclass(slots=True)
class _Tally:
    played: int = 0
    won: int = 0
    lost: int = 0
    tied: int = 0
    runs_for: int = 0
    balls_faced: int = 0
    runs_against: int = 0
    balls_bowled: int = 0

    @property
    def points(self) -> int:
        return POINTS_FOR_WIN * self.won + POINTS_FOR_TIE * self.tied


def _match_points(result: MatchSummary, team: str) -> int:
    """League points ``team`` took from ``result`` (a Super Over never counts in a league)."""
    if result.tied:
        return POINTS_FOR_TIE
    return POINTS_FOR_WIN if result.winner == team else 0


def _tally(teams: Sequence[str], results: Sequence[MatchSummary]) -> dict[str, _Tally]:
    tallies = {t: _Tally() for t in teams}
    for result in results:
        for team, opponent in (result.teams, result.teams[::-1]):
            row = tallies[team]
            mine, theirs = result.innings_of(team), result.innings_of(opponent)
            row.played += 1
            if result.tied:
                row.tied += 1
            elif result.winner == team:
                row.won += 1
            else:
                row.lost += 1
            row.runs_for += mine.runs
            row.balls_faced += mine.nrr_balls
            row.runs_against += theirs.runs
            row.balls_bowled += theirs.nrr_balls
    return tallies


def league_table(
    teams: Sequence[str], results: Sequence[MatchSummary], lots: Sequence[str]
) -> tuple[TableRow, ...]:
    """The table for ``teams`` after ``results``, sorted by the documented tie-breakers.

    ``lots`` is every team in the order of the drawing of lots (first is best).
    """
    tallies = _tally(teams, results)
    lot = {t: i for i, t in enumerate(lots)}

    def nrr(t: str) -> Fraction:
        x = tallies[t]
        return net_run_rate(x.runs_for, x.balls_faced, x.runs_against, x.balls_bowled)

    def level_key(t: str) -> tuple[int, Fraction]:
        return (-tallies[t].points, -nrr(t))

    ordered: list[str] = []
    for _, group_iter in groupby(sorted(teams, key=level_key), key=level_key):
        group = list(group_iter)
        if len(group) > 1:
            members = set(group)
            head_to_head = dict.fromkeys(group, 0)
            for result in results:
                if set(result.teams) <= members:
                    for t in result.teams:
                        head_to_head[t] += _match_points(result, t)
            group.sort(key=lambda t: (-head_to_head[t], lot[t]))
        ordered.extend(group)
    return tuple(
        TableRow(
            position=i,
            team=t,
            played=tallies[t].played,
            won=tallies[t].won,
            lost=tallies[t].lost,
            tied=tallies[t].tied,
            points=tallies[t].points,
            runs_for=tallies[t].runs_for,
            balls_faced=tallies[t].balls_faced,
            runs_against=tallies[t].runs_against,
            balls_bowled=tallies[t].balls_bowled,
        )
        for i, t in enumerate(ordered, start=1)
    )


def format_table(rows: Sequence[TableRow], balls_per_over: int = 6) -> str:
    """A fixed-width table for the zine; overs are shown in the format's own overs (or sets)."""
    width = max([len("Team"), *(len(r.team) for r in rows)])
    head = (
        f"{'Pos':>3}  {'Team':<{width}}  {'P':>2} {'W':>2} {'L':>2} {'T':>2} {'Pts':>3}"
        f"  {'For':>9}  {'Against':>9}  {'NRR':>7}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        runs_for = f"{r.runs_for}/{overs_text(r.balls_faced, balls_per_over)}"
        against = f"{r.runs_against}/{overs_text(r.balls_bowled, balls_per_over)}"
        lines.append(
            f"{r.position:>3}  {r.team:<{width}}  {r.played:>2} {r.won:>2} {r.lost:>2}"
            f" {r.tied:>2} {r.points:>3}  {runs_for:>9}  {against:>9}  {r.nrr_text:>7}"
        )
    return "\n".join(lines)

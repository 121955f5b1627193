"""What a competition needs to know about a played match: :class:`MatchSummary`.

The match engine's full result is much richer; the lead maps it to this small value so that
competitions never depend on the match engine. A summary is checked on construction: the two
innings are one by each side, a winner (if any) is one of the sides and has the higher score,
and equal scores mean a tie (``winner=None``) unless a Super Over decided it.

JSON shape (``MatchSummary.to_json()``)::

    {"home": "...", "away": "...", "fixture_id": "R1M1" | null,
     "innings": [{"batting": "...", "runs": 151, "wickets": 7, "legal_balls": 120,
                  "allotted_balls": 120, "all_out": false}, {...}],
     "winner": "..." | null, "decided_by_super_over": false}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.flungo.formats import FORMATS, Format

__all__ = [
    "WICKETS_IN_INNINGS",
    "CompetitionError",
    "InningsSummary",
    "MatchSummary",
    "injuries_from_report",
    "summary_from_report",
]

WICKETS_IN_INNINGS = 10


class CompetitionError(EngineError, ValueError):
    """A competition was asked to do something impossible (bad summary, unknown fixture, ...)."""


@dataclass(frozen=True, slots=True)
class InningsSummary:
    """One innings as a league table sees it.

    ``all_out`` is explicit because a side can be all out with fewer than ten wickets down when
    batsmen were hurt; an all-out side counts as having faced its full ``allotted_balls`` in the
    net run rate.
    """

    batting: str
    runs: int
    wickets: int
    legal_balls: int
    allotted_balls: int
    all_out: bool = False

    def __post_init__(self) -> None:
        if self.runs < 0:
            raise CompetitionError(f"{self.batting}: runs cannot be negative ({self.runs})")
        if not 0 <= self.wickets <= WICKETS_IN_INNINGS:
            raise CompetitionError(f"{self.batting}: wickets must be 0..10, not {self.wickets}")
        if self.allotted_balls <= 0:
            raise CompetitionError(f"{self.batting}: allotted balls must be positive")
        if not 0 <= self.legal_balls <= self.allotted_balls:
            raise CompetitionError(
                f"{self.batting}: {self.legal_balls} legal balls is outside "
                f"0..{self.allotted_balls}"
            )

    @property
    def nrr_balls(self) -> int:
        """Balls counted for net run rate: the full allotment when all out, else those faced."""
        return self.allotted_balls if self.all_out else self.legal_balls

    def to_json(self) -> dict[str, Any]:
        """The innings as a JSON object."""
        return {
            "batting": self.batting,
            "runs": self.runs,
            "wickets": self.wickets,
            "legal_balls": self.legal_balls,
            "allotted_balls": self.allotted_balls,
            "all_out": self.all_out,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> InningsSummary:
        """Read an innings object."""
        return cls(
            batting=str(data["batting"]),
            runs=int(data["runs"]),
            wickets=int(data["wickets"]),
            legal_balls=int(data["legal_balls"]),
            allotted_balls=int(data["allotted_balls"]),
            all_out=bool(data.get("all_out", False)),
        )


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A played match: the sides, both innings in the order played, and who won.

    ``winner`` is ``None`` for a tie. In a knockout a tie is settled by a Super Over (a Super
    Five in The Hundred) that the match engine plays; the summary then names the winner and sets
    ``decided_by_super_over``. Super Over runs are not part of the innings (nor of net run rate).
    ``fixture_id`` says which fixture this was; without it the competition finds the earliest
    unplayed fixture between the two sides.
    """

    home: str
    away: str
    innings: tuple[InningsSummary, InningsSummary]
    winner: str | None
    decided_by_super_over: bool = False
    fixture_id: str | None = None
    #: How a tie was settled, as the match said it ("Match tied; X won the Super Five", "...
    #: won on the higher place"): only the match knows (a Super Five, a second, the seeding).
    tie_text: str | None = None

    def __post_init__(self) -> None:
        if self.home == self.away:
            raise CompetitionError(f"a side cannot play itself ({self.home})")
        if len(self.innings) != 2:
            raise CompetitionError("a match summary needs exactly two innings")
        if {i.batting for i in self.innings} != {self.home, self.away}:
            raise CompetitionError(
                f"the innings must be one by {self.home} and one by {self.away}, "
                f"not {[i.batting for i in self.innings]}"
            )
        if self.winner is not None and self.winner not in (self.home, self.away):
            raise CompetitionError(f"the winner {self.winner!r} did not play in this match")
        first, second = self.innings
        if first.runs != second.runs:
            higher = first.batting if first.runs > second.runs else second.batting
            if self.winner != higher:
                raise CompetitionError(f"{higher} scored more runs, so {higher} won")
            if self.decided_by_super_over:
                raise CompetitionError("only a tie goes to a Super Over")
        elif self.decided_by_super_over and self.winner is None:
            raise CompetitionError("a Super Over must have a winner")
        elif not self.decided_by_super_over and self.winner is not None:
            raise CompetitionError("equal scores are a tie unless a Super Over decided it")

    @property
    def teams(self) -> tuple[str, str]:
        """``(home, away)``."""
        return (self.home, self.away)

    @property
    def tied(self) -> bool:
        """Both sides scored the same (whether or not a Super Over followed)."""
        return self.innings[0].runs == self.innings[1].runs

    @property
    def loser(self) -> str | None:
        """The side that lost, or ``None`` for a tie."""
        if self.winner is None:
            return None
        return self.away if self.winner == self.home else self.home

    def innings_of(self, team: str) -> InningsSummary:
        """The innings ``team`` batted."""
        for inn in self.innings:
            if inn.batting == team:
                return inn
        raise CompetitionError(f"{team} did not play in this match")

    def result_text(self) -> str:
        """ "X won by 12 runs", "Y won by 4 wickets (5 balls left)", "Match tied", ..."""
        first, second = self.innings
        if self.tied:
            if self.winner is None:
                return "Match tied"
            return self.tie_text or f"Match tied; {self.winner} won the Super Over"
        if self.winner == first.batting:
            margin = first.runs - second.runs
            return f"{self.winner} won by {margin} run{'s' if margin != 1 else ''}"
        wickets = WICKETS_IN_INNINGS - second.wickets
        left = second.allotted_balls - second.legal_balls
        text = f"{self.winner} won by {wickets} wicket{'s' if wickets != 1 else ''}"
        if left:
            text += f" ({left} ball{'s' if left != 1 else ''} left)"
        return text

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON object (the shape in the module docstring)."""
        return {
            "home": self.home,
            "away": self.away,
            "fixture_id": self.fixture_id,
            "innings": [i.to_json() for i in self.innings],
            "winner": self.winner,
            "decided_by_super_over": self.decided_by_super_over,
            **({"tie_text": self.tie_text} if self.tie_text else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchSummary:
        """Read a summary object; raises ``CompetitionError``/``KeyError`` when malformed."""
        innings = tuple(InningsSummary.from_json(i) for i in data["innings"])
        if len(innings) != 2:
            raise CompetitionError("a match summary needs exactly two innings")
        fixture_id = data.get("fixture_id")
        winner = data.get("winner")
        return cls(
            home=str(data["home"]),
            away=str(data["away"]),
            innings=(innings[0], innings[1]),
            winner=None if winner is None else str(winner),
            decided_by_super_over=bool(data.get("decided_by_super_over", False)),
            fixture_id=None if fixture_id is None else str(fixture_id),
            tie_text=str(data["tie_text"]) if data.get("tie_text") else None,
        )


def summary_from_report(report: Mapping[str, Any], fixture_id: str | None = None) -> MatchSummary:
    """Map a match report in issue 2's ``pbm sim --json`` shape to a :class:`MatchSummary`.

    Reads ``format``, ``teams[0/1].name`` (home, away), the two main ``innings`` (entries with a
    true ``super_over`` key are skipped), their ``batting_team``, ``runs``, ``wickets`` and
    ``legal_balls``, and ``result.winner``. An innings is all out when its ``closed`` key says
    ``"all out"`` or, without that key, when ten wickets fell. A winner after equal scores means
    a Super Over decided it.
    """
    balls = FORMATS[Format(report["format"])].balls
    home, away = (str(t["name"]) for t in report["teams"][:2])
    main = [i for i in report["innings"] if not i.get("super_over", False)]
    if len(main) != 2:
        raise CompetitionError(f"a finished match has two innings, this report has {len(main)}")
    innings = tuple(
        InningsSummary(
            batting=str(i["batting_team"]),
            runs=int(i["runs"]),
            wickets=int(i["wickets"]),
            legal_balls=int(i["legal_balls"]),
            allotted_balls=balls,
            all_out=(i["closed"] == "all out")
            if "closed" in i
            else int(i["wickets"]) >= WICKETS_IN_INNINGS,
        )
        for i in main
    )
    result = report.get("result") or {}
    winner = result.get("winner")
    tied = innings[0].runs == innings[1].runs
    return MatchSummary(
        home=home,
        away=away,
        innings=(innings[0], innings[1]),
        winner=None if winner is None else str(winner),
        decided_by_super_over=tied and winner is not None,
        fixture_id=fixture_id,
    )


def injuries_from_report(report: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """``{team: {player: injury points}}`` from a report's ``injuries`` list (issue 2's report
    has ``[{"team", "player", "points"}]``), ready for ``helpers.after_match``."""
    out: dict[str, dict[str, int]] = {str(t["name"]): {} for t in report["teams"][:2]}
    for entry in report.get("injuries", ()):
        out.setdefault(str(entry["team"]), {})[str(entry["player"])] = int(entry["points"])
    return out

"""Career lines counted from matches by the counting rules of ``docs/rules/hitforsix-decks.md``.

The rules, as Cricsheet's data is usually counted (``../shared/cricsheet/README.md``):

* runs are ``runs.batter``; balls faced exclude wides; a four or six is ``runs.batter`` 4 or 6
  without ``runs.non_boundary`` (all run, or an overthrow, is not a boundary);
* balls bowled exclude wides and no-balls; runs conceded are batter runs + wides + no-balls
  (byes, leg-byes and penalty runs are not the bowler's);
* every ``wickets[]`` entry is a dismissal of its ``player_out`` except retired hurt and retired
  not out; the bowler is credited only with bowled, caught, caught and bowled, lbw, stumped and
  hit wicket (so never run out, retired, obstructing, handled the ball, hit the ball twice or
  timed out);
* super overs are not counted (the readers drop them); a match is an appearance in the XI.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pbm.games.hitforsix.decks.cricsheet import Match

__all__ = ["BOWLER_WICKETS", "NOT_DISMISSED", "Career", "Tally"]

NOT_DISMISSED = frozenset({"retired hurt", "retired not out"})
BOWLER_WICKETS = frozenset(
    {"bowled", "caught", "caught and bowled", "lbw", "stumped", "hit wicket"}
)

# When a match happened, for "latest" tie-breaks: date, then match id (numeric order).
When = tuple[str, int, str]


def _when(match: Match) -> When:
    return (match.date, len(match.id), match.id)


@dataclass(slots=True)
class Career:
    """One player's figures in one format, plus what picks his name and country."""

    matches: int = 0
    runs: int = 0
    dismissals: int = 0
    balls_faced: int = 0
    fours: int = 0
    sixes: int = 0
    balls_bowled: int = 0
    runs_conceded: int = 0
    wickets: int = 0
    teams: Counter[str] = field(default_factory=Counter)
    team_last: dict[str, When] = field(default_factory=dict)
    names: Counter[str] = field(default_factory=Counter)
    name_last: dict[str, When] = field(default_factory=dict)
    first: When = ("9999", 0, "")  # his first match in the format

    def country(self) -> str:
        """The team he played for most; a tie goes to the team of his latest match."""
        if not self.teams:
            return ""
        return max(self.teams, key=lambda t: (self.teams[t], self.team_last[t]))

    def name(self) -> str:
        """The name the data gives him most often; a tie goes to the name used latest."""
        if not self.names:
            return ""
        return max(self.names, key=lambda n: (self.names[n], self.name_last[n]))


class Tally:
    """Careers by (match type, gender, registry id), accumulated one match at a time."""

    def __init__(self) -> None:
        self.careers: dict[tuple[str, str, str], Career] = {}
        self.matches: Counter[tuple[str, str]] = Counter()
        self.dates: dict[tuple[str, str], tuple[str, str]] = {}

    def _career(self, fmt: tuple[str, str], pid: str) -> Career:
        key = (*fmt, pid)
        career = self.careers.get(key)
        if career is None:
            career = self.careers[key] = Career()
        return career

    def add(self, match: Match) -> None:
        """Count one match into the careers of everyone in it."""
        fmt = (match.match_type, match.gender)
        when = _when(match)
        self.matches[fmt] += 1
        first, last = self.dates.get(fmt, (match.date, match.date))
        self.dates[fmt] = (min(first, match.date), max(last, match.date))
        for team, ids in match.players:
            for pid in ids:
                c = self._career(fmt, pid)
                c.matches += 1
                c.teams[team] += 1
                c.team_last[team] = max(c.team_last.get(team, when), when)
                c.first = min(c.first, when)
        for pid, name in match.names:
            c = self._career(fmt, pid)
            c.names[name] += 1
            c.name_last[name] = max(c.name_last.get(name, when), when)
        for ball in match.balls:
            bat = self._career(fmt, ball.batter)
            bat.runs += ball.batter_runs
            if not ball.wides:
                bat.balls_faced += 1
            if not ball.non_boundary:
                if ball.batter_runs == 4:
                    bat.fours += 1
                elif ball.batter_runs == 6:
                    bat.sixes += 1
            bowl = self._career(fmt, ball.bowler)
            if not ball.wides and not ball.noballs:
                bowl.balls_bowled += 1
            bowl.runs_conceded += ball.batter_runs + ball.wides + ball.noballs
            for kind, out in ball.wickets:
                if kind not in NOT_DISMISSED:
                    self._career(fmt, out).dismissals += 1
                if kind in BOWLER_WICKETS:
                    bowl.wickets += 1

"""Season figures and career records, from finished matches' ball logs.

A cricketer is known by ``(team, name)``: the seed lets one celebrity play for several teams,
and two teams' "Elvis Presley" are two cricketers with two lines everywhere. Counting is a
plain pass over the scorecards (:func:`engine.flungo.scorecard.cards`); the derived rates
(averages, strike rates, economy) are computed for every cricketer at once with numpy.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.flungo.scorecard import InningsCard, cards
from engine.flungo.state import MatchState

__all__ = [
    "PlayerKey",
    "PlayerRecord",
    "Rates",
    "Tally",
    "is_substitute",
    "match_cards",
    "rates",
    "tally_matches",
]

PlayerKey = tuple[str, str]  # (team, name)

_CARDS: dict[int, tuple[MatchState, list[InningsCard]]] = {}


def match_cards(state: MatchState) -> list[InningsCard]:
    """:func:`engine.flungo.scorecard.cards`, remembered per state object: an archive build
    counts each finished match in every later issue's figures, and a card costs a pass over
    the balls. (Keyed by identity, holding the state so the key cannot be reused.)"""
    hit = _CARDS.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    if len(_CARDS) > 4096:
        _CARDS.clear()
    made = cards(state)
    _CARDS[id(state)] = (state, made)
    return made


def is_substitute(name: str) -> bool:
    """Substitute fielders ("substitute 1", "sub (X)") are not squad members."""
    return name.startswith(("substitute ", "sub ("))


@dataclass(slots=True)
class PlayerRecord:
    """One cricketer's counting figures over some matches (a season, or a career)."""

    team: str
    name: str
    matches: int = 0
    innings: int = 0
    not_outs: int = 0
    runs: int = 0
    balls: int = 0
    fours: int = 0
    sixes: int = 0
    high: int = 0
    high_not_out: bool = False
    fifties: int = 0
    hundreds: int = 0
    bowl_balls: int = 0
    maidens: int = 0
    conceded: int = 0
    wickets: int = 0
    best_w: int = 0
    best_r: int = 0
    catches: int = 0
    stumpings: int = 0
    balls_per_over: int = 6
    seasons: list[str] = field(default_factory=list)

    @property
    def key(self) -> PlayerKey:
        """``(team, name)``."""
        return (self.team, self.name)

    @property
    def high_text(self) -> str:
        """Highest score, ``87*`` when not out."""
        return f"{self.high}{'*' if self.high_not_out else ''}" if self.innings else "-"

    @property
    def best_text(self) -> str:
        """Best bowling as ``4/21``."""
        return f"{self.best_w}/{self.best_r}" if self.bowl_balls else "-"

    @property
    def overs_text(self) -> str:
        """Overs bowled, ``12.3``."""
        o, b = divmod(self.bowl_balls, self.balls_per_over)
        return f"{o}.{b}" if b else str(o)

    def add(self, other: PlayerRecord) -> None:
        """Add another record of the same cricketer (a season to a career)."""
        if other.bowl_balls and _better_bowling(
            other.best_w, other.best_r, self.best_w, self.best_r, self.bowl_balls
        ):
            self.best_w, self.best_r = other.best_w, other.best_r
        for name in (
            "matches",
            "innings",
            "not_outs",
            "runs",
            "balls",
            "fours",
            "sixes",
            "fifties",
            "hundreds",
            "bowl_balls",
            "maidens",
            "conceded",
            "wickets",
            "catches",
            "stumpings",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        if (other.high, other.high_not_out) > (self.high, self.high_not_out):
            self.high, self.high_not_out = other.high, other.high_not_out
        self.seasons.extend(s for s in other.seasons if s not in self.seasons)


def _better_bowling(w: int, r: int, bw: int, br: int, had: int) -> bool:
    return not had or w > bw or (w == bw and r < br)


@dataclass(frozen=True, slots=True)
class Rates:
    """Derived figures, aligned with the records they came from (NaN where undefined)."""

    batting_average: np.ndarray
    strike_rate: np.ndarray
    bowling_average: np.ndarray
    economy: np.ndarray
    bowling_strike_rate: np.ndarray


def rates(records: Sequence[PlayerRecord]) -> Rates:
    """Averages, strike rates and economy for every record at once."""
    a = np.array(
        [
            (r.runs, r.innings - r.not_outs, r.balls, r.conceded, r.wickets, r.bowl_balls)
            for r in records
        ],
        dtype=float,
    ).reshape(-1, 6)
    runs, outs, balls, conceded, wickets, bowl_balls = a.T
    bpo = np.array([r.balls_per_over for r in records], dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return Rates(
            batting_average=np.where(outs > 0, runs / outs, np.nan),
            strike_rate=np.where(balls > 0, 100 * runs / balls, np.nan),
            bowling_average=np.where(wickets > 0, conceded / wickets, np.nan),
            economy=np.where(bowl_balls > 0, conceded * bpo / bowl_balls, np.nan),
            bowling_strike_rate=np.where(wickets > 0, bowl_balls / wickets, np.nan),
        )


@dataclass(slots=True)
class Tally:
    """Records by cricketer, plus the season's single-match bests."""

    records: dict[PlayerKey, PlayerRecord] = field(default_factory=dict)

    def get(self, team: str, name: str, bpo: int = 6) -> PlayerRecord:
        """The record of ``(team, name)``, made empty on first use."""
        rec = self.records.get((team, name))
        if rec is None:
            rec = self.records[(team, name)] = PlayerRecord(team, name, balls_per_over=bpo)
        return rec

    def sorted(self) -> list[PlayerRecord]:
        """Every record, by team then name."""
        return [self.records[k] for k in sorted(self.records)]


def tally_matches(matches: Iterable[MatchState], season: str = "") -> Tally:
    """Count every finished match in ``matches`` (each counted once by the caller)."""
    tally = Tally()
    for state in matches:
        bpo = state.setup.spec.balls_per_over
        for side, sel in enumerate(state.selections):
            team = state.team(side).name
            for n in sel.xi:
                rec = tally.get(team, n, bpo)
                rec.matches += 1
                if season and season not in rec.seasons:
                    rec.seasons.append(season)
        for card in match_cards(state):
            if card.super_over:
                continue
            for line in card.batting:
                if line.how_out == "did not bat":
                    continue
                rec = tally.get(card.batting_team, line.name, bpo)
                rec.innings += 1
                rec.not_outs += 0 if line.out else 1
                rec.runs += line.runs
                rec.balls += line.balls
                rec.fours += line.fours
                rec.sixes += line.sixes
                if (line.runs, not line.out) > (rec.high, rec.high_not_out):
                    rec.high, rec.high_not_out = line.runs, not line.out
                rec.fifties += 50 <= line.runs < 100
                rec.hundreds += line.runs >= 100
            for bl in card.bowling:
                rec = tally.get(card.bowling_team, bl.name, bpo)
                if _better_bowling(bl.wickets, bl.runs, rec.best_w, rec.best_r, rec.bowl_balls):
                    rec.best_w, rec.best_r = bl.wickets, bl.runs
                rec.bowl_balls += bl.balls
                rec.maidens += bl.maidens
                rec.conceded += bl.runs
                rec.wickets += bl.wickets
        for inn in state.innings:
            if inn.super_over:
                continue
            fielding = state.team(1 - inn.batting_side).name
            for b in inn.balls:
                if b.fielder is None or is_substitute(b.fielder):
                    continue
                if b.wicket == "caught":
                    tally.get(fielding, b.fielder, bpo).catches += 1
                elif b.wicket == "stumped":
                    tally.get(fielding, b.fielder, bpo).stumpings += 1
    return tally

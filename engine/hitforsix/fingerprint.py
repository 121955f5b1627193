"""The twelve stats of a card's fingerprint: what the figure draws and resemblance compares.

Each stat is a number from the career; where a denominator is zero the stat is ``None`` (no
record), and the figure draws that ray at zero. For bowling stats lower is better, so the
figure scales them inverted (see ``higher_is_better``). Scaling within a deck is by rank
(percentile), done where the deck is known.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.hitforsix.cards import Card

__all__ = ["STATS", "FingerprintStat", "fingerprint"]


@dataclass(frozen=True, slots=True)
class FingerprintStat:
    """One ray: its key, its label on the card, and which direction is better."""

    key: str
    label: str
    higher_is_better: bool


STATS: tuple[FingerprintStat, ...] = (
    FingerprintStat("batting_average", "Bat avg", True),
    FingerprintStat("strike_rate", "Strike rate", True),
    FingerprintStat("runs_per_match", "Runs/match", True),
    FingerprintStat("balls_per_match", "Balls faced/match", True),
    FingerprintStat("fours_per_100", "4s/100 balls", True),
    FingerprintStat("sixes_per_100", "6s/100 balls", True),
    FingerprintStat("boundary_share", "Boundary %", True),
    FingerprintStat("wickets_per_match", "Wkts/match", True),
    FingerprintStat("economy", "Economy", False),
    FingerprintStat("bowling_average", "Bowl avg", False),
    FingerprintStat("bowling_strike_rate", "Bowl SR", False),
    FingerprintStat("overs_per_match", "Overs/match", True),
)


def _ratio(num: float, den: float, scale: float = 1.0) -> float | None:
    return None if den == 0 else scale * num / den


def fingerprint(card: Card) -> tuple[float | None, ...]:
    """The twelve stats of ``card`` in the order of :data:`STATS`."""
    m = card.matches
    return (
        _ratio(card.runs, card.dismissals),
        _ratio(card.runs, card.balls_faced, 100.0),
        _ratio(card.runs, m),
        _ratio(card.balls_faced, m),
        _ratio(card.fours, card.balls_faced, 100.0),
        _ratio(card.sixes, card.balls_faced, 100.0),
        _ratio(4 * card.fours + 6 * card.sixes, card.runs, 100.0),
        _ratio(card.wickets, m),
        _ratio(card.runs_conceded, card.balls_bowled, 6.0),
        _ratio(card.runs_conceded, card.wickets),
        _ratio(card.balls_bowled, card.wickets),
        _ratio(card.balls_bowled, m, 1 / 6),
    )

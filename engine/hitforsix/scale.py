"""Scaling the twelve fingerprint stats within a deck, by rank: each ray is a percentile.

A ray's length is the share of the deck's qualified cards that the card beats on that stat
(ties count half), so 0.5 is the deck's middle whatever the stat's units. Where lower is
better (economy, bowling average, bowling strike rate) beating means being lower.

A rate needs a sample before it means anything, so a card qualifies for a stat only with
enough of the record behind it; otherwise the ray is 0 ("no record") and the card is not in
that stat's ranking:

* batting rates (average, strike rate, 4s and 6s per 100 balls, boundary share) need
  :data:`MIN_BALLS_FACED` balls faced (and the average at least one dismissal);
* bowling rates (economy, bowling average and strike rate) need :data:`MIN_BALLS_BOWLED`
  balls bowled (and the average and strike rate at least one wicket);
* per-match stats always qualify.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.hitforsix.cards import Card
from engine.hitforsix.fingerprint import STATS, fingerprint

__all__ = ["MIN_BALLS_BOWLED", "MIN_BALLS_FACED", "DeckScale", "qualified_fingerprint", "sparkline"]

MIN_BALLS_FACED = 60
MIN_BALLS_BOWLED = 120
_BATTING_RATES = frozenset(
    {"batting_average", "strike_rate", "fours_per_100", "sixes_per_100", "boundary_share"}
)
_BOWLING_RATES = frozenset({"economy", "bowling_average", "bowling_strike_rate"})
_BARS = "▁▂▃▄▅▆▇█"


def qualified_fingerprint(card: Card) -> tuple[float | None, ...]:
    """The card's twelve stats, ``None`` where there is no record or too small a sample."""
    short_batting = card.balls_faced < MIN_BALLS_FACED
    short_bowling = card.balls_bowled < MIN_BALLS_BOWLED
    return tuple(
        None
        if (stat.key in _BATTING_RATES and short_batting)
        or (stat.key in _BOWLING_RATES and short_bowling)
        else value
        for stat, value in zip(STATS, fingerprint(card), strict=True)
    )


@dataclass(frozen=True, slots=True)
class DeckScale:
    """Each stat's qualified values in the deck, sorted, to rank any career against."""

    values: tuple[tuple[float, ...], ...]

    @classmethod
    def of(cls, cards: Iterable[Card]) -> DeckScale:
        """The scale of a deck (or any set of cards)."""
        columns: list[list[float]] = [[] for _ in STATS]
        for card in cards:
            for column, value in zip(columns, qualified_fingerprint(card), strict=True):
                if value is not None:
                    column.append(value)
        return cls(tuple(tuple(sorted(c)) for c in columns))

    def rays(self, card: Card) -> tuple[float, ...]:
        """The card's twelve ray lengths in [0, 1], in the order of :data:`STATS`."""
        return tuple(self._rank(i, value) for i, value in enumerate(qualified_fingerprint(card)))

    def _rank(self, i: int, value: float | None) -> float:
        column = self.values[i]
        if value is None or not column:
            return 0.0
        below = bisect.bisect_left(column, value)
        above = len(column) - bisect.bisect_right(column, value)
        equal = len(column) - below - above
        beaten = below if STATS[i].higher_is_better else above
        return (beaten + 0.5 * equal) / len(column)


def sparkline(rays: Sequence[float]) -> str:
    """Ray lengths as block characters, for text views (``▁`` is 0, ``█`` is 1)."""
    top = len(_BARS) - 1
    return "".join(_BARS[min(top, max(0, round(r * top)))] for r in rays)

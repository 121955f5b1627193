"""The resemblance (law 4.04): the XI combined into one scorecard, and who it most resembles.

* **Combining**: every count is summed over the eleven, *matches included*, so that the
  per-match stats of the fingerprint are the side's career-weighted mean — the figures of one
  man who played all their games — and rates (average, strike rate, economy) are the combined
  rates. The combined card is named "The XI", with the initials "XI".
* **Distance**: over the twelve fingerprint stats, each standardised by the deck (its mean and
  population standard deviation over the cards where the stat exists; a stat with no spread is
  skipped). A stat present on both cards adds the squared difference of the z-scores; present
  on exactly one adds :data:`MISSING_PENALTY` (two standard deviations, squared); absent on both
  adds nothing. The distance is the square root of the total; the nearest card wins, ties going
  to the earlier card of the deck.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.hitforsix.cards import CARD_FIELDS, Card, Deck
from engine.hitforsix.fingerprint import STATS, fingerprint

__all__ = ["MISSING_PENALTY", "Resemblance", "combine", "deck_moments", "resemblance"]

MISSING_PENALTY = 4.0


def combine(cards: Sequence[Card]) -> Card:
    """One scorecard from many careers: every count summed (matches too)."""
    sums = {f: sum(getattr(c, f) for c in cards) for f in CARD_FIELDS[4:]}
    return Card(id="xi", name="The XI", initials="XI", country="", **sums)


@dataclass(frozen=True, slots=True)
class Resemblance:
    """The combined scorecard, its fingerprint, the card it most resembles and how closely."""

    combined: Card
    stats: tuple[float | None, ...]
    match: Card
    distance: float

    def to_json(self) -> dict[str, object]:
        """The ``resemblance`` object of ``pbm h6 play --json``."""
        return {
            "combined": {f: getattr(self.combined, f) for f in CARD_FIELDS[4:]},
            "fingerprint": {
                s.key: (None if v is None else round(v, 3))
                for s, v in zip(STATS, self.stats, strict=True)
            },
            "match": {"id": self.match.id, "name": self.match.name, "country": self.match.country},
            "distance": round(self.distance, 4),
        }


def _table(deck: Deck) -> npt.NDArray[np.float64]:
    return np.array(
        [[math.nan if v is None else v for v in fingerprint(c)] for c in deck.cards],
        dtype=np.float64,
    )


def deck_moments(deck: Deck) -> tuple[tuple[float, float] | None, ...]:
    """Each stat's mean and population standard deviation over the deck's cards that have it
    (None where no card has it). Another implementation (the one-file ground) is given these
    so that it need not reproduce numpy's summation order."""
    table = _table(deck)
    out: list[tuple[float, float] | None] = []
    for k in range(len(STATS)):
        column = table[:, k]
        have = ~np.isnan(column)
        if not have.any():
            out.append(None)
            continue
        out.append((float(column[have].mean()), float(column[have].std())))
    return tuple(out)


def resemblance(cards: Sequence[Card], deck: Deck) -> Resemblance:
    """Combine ``cards`` and name the card of ``deck`` nearest to the combination."""
    combined = combine(cards)
    target = fingerprint(combined)
    table = _table(deck)
    present = ~np.isnan(table)
    total = np.zeros(len(deck.cards))
    for k, (value, moments) in enumerate(zip(target, deck_moments(deck), strict=True)):
        if moments is None:
            continue
        mean, sd = moments
        if sd == 0.0:
            continue
        column = table[:, k]
        have = present[:, k]
        if value is None:
            total += np.where(have, MISSING_PENALTY, 0.0)
        else:
            z = (column - mean) / sd
            diff = np.where(have, z - (value - mean) / sd, 0.0)
            total += np.where(have, diff * diff, MISSING_PENALTY)
    best = int(np.argmin(total))  # argmin takes the first of equals: the earlier card
    return Resemblance(combined, target, deck.cards[best], math.sqrt(float(total[best])))

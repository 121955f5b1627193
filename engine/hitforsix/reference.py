"""A pure-Python grader: the slow, obvious reading of law 4.03, for tests and the bench.

It scores each of the 12,376 XIs one at a time with :func:`engine.hitforsix.rules.score_xi`.
:class:`engine.hitforsix.grading.Grader` must agree with it exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.hitforsix.cards import Card
from engine.hitforsix.grading import Grade
from engine.hitforsix.over import all_xis
from engine.hitforsix.rules import DeckRates, Rule, score_key, score_xi

__all__ = ["reference_grade", "reference_keys"]


def reference_keys(cards: Sequence[Card], rates: DeckRates, line: int, rule: Rule) -> list[int]:
    """The ranking key of every XI, in :func:`all_xis` order (deal positions)."""
    return [score_key(rule, score_xi(rule, cards, xi, rates, line)) for xi in all_xis()]


def reference_grade(
    cards: Sequence[Card], rates: DeckRates, line: int, xi: Iterable[int], rule: Rule
) -> Grade:
    """Grade ``xi`` by scoring every XI in pure Python."""
    side = tuple(sorted(xi))
    score = score_xi(rule, cards, side, rates, line)
    mine = score_key(rule, score)
    keys = reference_keys(cards, rates, line, rule)
    beats = sum(1 for k in keys if k < mine)
    ties = sum(1 for k in keys if k == mine) - 1
    return Grade(rule, score, beats, ties)

"""Grading (law 4.03): every Rule for all 12,376 XIs of a deal at once, with numpy.

The trick that keeps it fast: sort the 17 cards once into bowling order (most balls, then most
wickets, then deal position). In that *rank space* every XI is a sorted 11-tuple from the
lexicographic list of combinations, so its attack is simply its first five members, and the
same index array serves every deal. Counting stats are sums, done as one integer matrix
product of the (12,376 × 17) 0/1 membership matrix with the stats (numpy's own int64 loop:
exact, and free of BLAS threads, which cost more than they save on a matrix this small). The
attack's floats are summed column by column in bowling order, exactly as the reference scorer
in :mod:`engine.hitforsix.rules` does, so both give bit-identical scores.

The grade is ``100 × (beats + ½ ties) / 12,375`` to one decimal, rounded half up, computed in
integers: ``tenths = (2000 × (2·beats + ties) + 24,750) // 49,500`` — with two corrections so
that "a grade of 100 is the one perfect side" (law 4.03) holds both ways:

* an XI that no XI beats (``beats + ties = 12,375``) grades **100.0**, however many share its
  score: sides the Rule cannot tell apart (the same attack under The Economy) are one side to it;
* any other XI grades at most **99.9**, however close it rounds.

Which XI is better is never read from the rounded grade: :attr:`Grade.key` is the exact score
key, and Test Match overs compare keys (law 5.03–5.04).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.hitforsix.cards import Card
from engine.hitforsix.deal import DEAL_SIZE, FACE_UP
from engine.hitforsix.over import all_xis
from engine.hitforsix.rules import (
    ATTACK_SIZE,
    HIDDEN_RULES,
    LOWER_IS_BETTER,
    DeckRates,
    Rule,
    attack_order,
    bowler_economy,
    bowler_strike,
    score_key,
)

__all__ = ["XI_COUNT", "Grade", "Grader", "grade_tenths"]

XI_COUNT = 12376
_OTHERS = XI_COUNT - 1

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def _build_tables() -> tuple[IntArray, IntArray, IntArray]:
    """The XIs as an index array, a 0/1 matrix, and a map from bitmask to row (read only)."""
    combos = np.array(all_xis(), dtype=np.int64)
    member = np.zeros((XI_COUNT, DEAL_SIZE), dtype=np.int64)
    np.put_along_axis(member, combos, 1, axis=1)
    masks = (np.int64(1) << combos).sum(axis=1)
    row_of_mask = np.full(1 << DEAL_SIZE, -1, dtype=np.int64)
    row_of_mask[masks] = np.arange(XI_COUNT, dtype=np.int64)
    for table in (combos, member, row_of_mask):
        table.flags.writeable = False
    return combos, member, row_of_mask


_TABLES = _build_tables()


def _tables() -> tuple[IntArray, IntArray, IntArray]:
    """The tables built at import (read only: numpy refuses a write)."""
    return _TABLES


_PERFECT = 1000


def grade_tenths(beats: int, ties: int) -> int:
    """The grade in tenths: 100 × (beats + ties/2) / 12,375, rounded half up, in integers.

    1000 belongs to the perfect side alone: an XI nobody beats gets it, every other XI at most
    999 (see the module docstring).
    """
    if beats + ties >= _OTHERS:
        return _PERFECT
    return min(_PERFECT - 1, (2000 * (2 * beats + ties) + _OTHERS * 2) // (_OTHERS * 4))


@dataclass(frozen=True, slots=True)
class Grade:
    """An XI's standing: its score, how many XIs it beats and ties, and the grade."""

    rule: Rule
    score: float
    beats: int
    ties: int

    @property
    def tenths(self) -> int:
        """The grade in tenths of a point (1000 is the one perfect side)."""
        return grade_tenths(self.beats, self.ties)

    @property
    def perfect(self) -> bool:
        """Whether no XI of the deal beats this one."""
        return self.beats + self.ties >= _OTHERS

    @property
    def key(self) -> int:
        """The exact ranking key of the score (higher is better), as grading compares it."""
        return score_key(self.rule, self.score)

    @property
    def grade(self) -> float:
        """The grade to one decimal, e.g. 87.3."""
        return self.tenths / 10


class Grader:
    """Scores every XI of one deal under every Rule; built once per deal (≈ a millisecond)."""

    def __init__(self, cards: Sequence[Card], rates: DeckRates, line: int) -> None:
        if len(cards) != DEAL_SIZE:
            raise ValueError(f"a deal has {DEAL_SIZE} cards, not {len(cards)}")
        self.cards = tuple(cards)
        self.rates = rates
        self.line = line
        order = attack_order(self.cards, range(DEAL_SIZE))
        self.order = np.array(order, dtype=np.int64)  # rank -> deal position
        self.rank_of = np.empty(DEAL_SIZE, dtype=np.int64)  # deal position -> rank
        self.rank_of[self.order] = np.arange(DEAL_SIZE)
        ranked = [self.cards[p] for p in order]
        counts = np.array(
            [[c.runs, c.dismissals, c.balls_faced, c.sixes, c.wickets] for c in ranked],
            dtype=np.int64,
        )
        combos, member, _ = _tables()
        self._sums: FloatArray = (member @ counts).astype(np.float64)  # (12376, 5), exact
        attack = combos[:, :ATTACK_SIZE]
        econ = np.array([bowler_economy(c, rates) for c in ranked])[attack]
        strike = np.array([bowler_strike(c, rates) for c in ranked])[attack]
        self._econ_total: FloatArray = (
            econ[:, 0] + econ[:, 1] + econ[:, 2] + econ[:, 3] + econ[:, 4]
        )
        self._strike_total: FloatArray = (
            strike[:, 0] + strike[:, 1] + strike[:, 2] + strike[:, 3] + strike[:, 4]
        )
        self._keys: dict[Rule, IntArray] = {}

    def scores(self, rule: Rule) -> FloatArray:
        """The score of every XI (rows in rank-space lexicographic order) under ``rule``."""
        runs, outs, balls, sixes, wickets = (self._sums[:, i] for i in range(5))
        if rule is Rule.THE_AVERAGE:
            return runs / np.maximum(outs, 1.0)
        if rule is Rule.RUNS_ON_THE_BOARD:
            return runs
        if rule is Rule.STRIKE_RATE:
            safe = np.where(balls > 0, balls, 1.0)
            return np.where(balls > 0, (100.0 * runs) / safe, 0.0)
        if rule is Rule.MAXIMUMS:
            return sixes
        if rule is Rule.OCCUPY_THE_CREASE:
            return balls
        if rule is Rule.WICKETS:
            return wickets
        if rule is Rule.SIX_AND_OUT:
            return np.where(sixes <= self.line, sixes, 0.0)
        if rule is Rule.THE_ECONOMY:
            return self._econ_total / ATTACK_SIZE
        if rule is Rule.BOWLING_AVERAGE:
            return self._econ_total / self._strike_total
        raise ValueError("The Toss judges by its hidden Rule; resolve it with Deal.real_rule")

    def keys(self, rule: Rule) -> IntArray:
        """Every XI's ranking key: the score rounded to 1e-9, negated where lower is better."""
        if rule not in self._keys:
            key = np.floor(self.scores(rule) * 1e9 + 0.5).astype(np.int64)
            self._keys[rule] = -key if rule in LOWER_IS_BETTER else key
        return self._keys[rule]

    def all_keys(self) -> dict[Rule, IntArray]:
        """Keys under all nine scoring Rules (The Toss uses one of them)."""
        return {rule: self.keys(rule) for rule in HIDDEN_RULES}

    def row(self, xi: Iterable[int]) -> int:
        """The row of the XI given as deal positions."""
        side = sorted(set(xi))
        if len(side) != FACE_UP or not all(0 <= p < DEAL_SIZE for p in side):
            raise ValueError("an XI is 11 distinct deal positions 0–16")
        mask = int(sum(1 << int(self.rank_of[p]) for p in side))
        return int(_tables()[2][mask])

    def xi_of_row(self, row: int) -> tuple[int, ...]:
        """The deal positions of the XI in ``row``."""
        return tuple(sorted(int(self.order[r]) for r in _tables()[0][row]))

    def best(self, rule: Rule) -> tuple[int, ...]:
        """A perfect side under ``rule`` (the first in row order among tied bests)."""
        return self.xi_of_row(int(np.argmax(self.keys(rule))))

    def grade(self, xi: Iterable[int], rule: Rule) -> Grade:
        """Grade the XI under ``rule`` against all 12,376 XIs of the deal, itself excluded."""
        row = self.row(xi)
        keys = self.keys(rule)
        mine = keys[row]
        beats = int(np.count_nonzero(keys < mine))
        ties = int(np.count_nonzero(keys == mine)) - 1
        return Grade(rule, float(self.scores(rule)[row]), beats, ties)

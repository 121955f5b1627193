"""The ten Rules of law 4.01, the attack of law 4.02, and a pure-Python scorer.

The scorer here is the reference: :mod:`engine.hitforsix.grading` computes the same numbers
for all 12,376 XIs at once with numpy, and the tests check that they agree bit for bit. Both
evaluate every float in the same order (documented per Rule), so equal XIs score equal floats.

Decisions (each beside its law in ``docs/rules/hitforsix.md``):

* **The attack**: the five men of the XI with the most balls bowled; ties by more wickets,
  then by lower deal position.
* **Proper bowling record**: at least :data:`PROPER_BALLS` balls bowled and at least
  :data:`PROPER_WICKETS` wickets. Any other man in the attack is a part-timer, charged the
  deck's going rate a quarter worse: economy ``1.25 * 6 * Σruns_conceded / Σballs_bowled`` and
  average ``1.25 * Σruns_conceded / Σwickets`` over the whole deck.
* Each of the five bowls 4 of the 20 overs. **The Economy** is the mean of the five economies.
  **Bowling Average** is the attack's runs over its expected wickets: each man concedes
  ``4 * econ`` and takes ``4 * econ / avg``, so the attack's average is
  ``Σ econ / Σ (econ / avg)`` (a proper man's ``econ / avg`` is ``6 * wickets / balls``).
* **The Average** divides by at least one dismissal; **Strike Rate** is 0 with no balls faced.
* **Six and Out** scores the combined sixes when they are at most the line, else 0.
* **Ties**: two scores tie when ``floor(score * 1e9 + 0.5)`` is equal (the *key*); lower-is-
  better Rules negate the key, so a higher key always beats a lower one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from engine.hitforsix.cards import Card, Deck

__all__ = [
    "ATTACK_SIZE",
    "HIDDEN_RULES",
    "LOWER_IS_BETTER",
    "OVERS_EACH",
    "PART_TIMER_PENALTY",
    "PROPER_BALLS",
    "PROPER_WICKETS",
    "RULES",
    "DeckRates",
    "Rule",
    "attack_order",
    "bowler_economy",
    "bowler_strike",
    "is_proper_bowler",
    "score_key",
    "score_xi",
]

ATTACK_SIZE = 5
OVERS_EACH = 4
PROPER_BALLS = 240
PROPER_WICKETS = 10
PART_TIMER_PENALTY = 1.25


class Rule(Enum):
    """The ten Rules, valued by their command-line names, in law 4.01's order."""

    THE_AVERAGE = "the-average"
    RUNS_ON_THE_BOARD = "runs-on-the-board"
    STRIKE_RATE = "strike-rate"
    MAXIMUMS = "maximums"
    OCCUPY_THE_CREASE = "occupy-the-crease"
    WICKETS = "wickets"
    THE_ECONOMY = "the-economy"
    BOWLING_AVERAGE = "bowling-average"
    SIX_AND_OUT = "six-and-out"
    THE_TOSS = "the-toss"

    @property
    def title(self) -> str:
        """The Rule's name as the laws print it ("Runs on the Board")."""
        small = {"the", "on", "and", "of"}
        words = self.value.split("-")
        return " ".join(
            w.capitalize() if i == 0 or w not in small else w for i, w in enumerate(words)
        )

    @classmethod
    def parse(cls, text: str) -> Rule:
        """A Rule from its hyphenated name (case and spaces forgiven)."""
        slug = "-".join(text.strip().lower().replace("_", " ").split())
        try:
            return cls(slug)
        except ValueError:
            names = ", ".join(r.value for r in cls)
            raise ValueError(f"no Rule called {text!r}; the Rules are {names}") from None


RULES: tuple[Rule, ...] = tuple(Rule)
HIDDEN_RULES: tuple[Rule, ...] = tuple(r for r in Rule if r is not Rule.THE_TOSS)
LOWER_IS_BETTER = frozenset({Rule.THE_ECONOMY, Rule.BOWLING_AVERAGE})


@dataclass(frozen=True, slots=True)
class DeckRates:
    """The deck's going rate: its overall economy and bowling average."""

    economy: float
    average: float

    @classmethod
    def of(cls, deck: Deck) -> DeckRates:
        """Overall economy (runs per six balls) and average (runs per wicket) of the deck."""
        rc = sum(c.runs_conceded for c in deck.cards)
        bb = sum(c.balls_bowled for c in deck.cards)
        wk = sum(c.wickets for c in deck.cards)
        # An empty attack record would make the going rate meaningless; fall back to one run a
        # ball and one wicket an over so that synthetic decks still grade.
        return cls(economy=6 * rc / bb if bb else 6.0, average=rc / wk if wk else 6.0)

    @property
    def part_timer_economy(self) -> float:
        """A part-timer's economy: the going rate a quarter worse."""
        return PART_TIMER_PENALTY * self.economy

    @property
    def part_timer_average(self) -> float:
        """A part-timer's average: the going rate a quarter worse."""
        return PART_TIMER_PENALTY * self.average


def is_proper_bowler(card: Card) -> bool:
    """Whether ``card`` has a proper bowling record (balls and wickets, documented above)."""
    return card.balls_bowled >= PROPER_BALLS and card.wickets >= PROPER_WICKETS


def attack_order(cards: Sequence[Card], positions: Sequence[int]) -> list[int]:
    """``positions`` sorted into bowling order: most balls, then most wickets, then position."""
    return sorted(positions, key=lambda p: (-cards[p].balls_bowled, -cards[p].wickets, p))


def bowler_economy(card: Card, rates: DeckRates) -> float:
    """Economy charged to a man in the attack."""
    if is_proper_bowler(card):
        return (6 * card.runs_conceded) / card.balls_bowled
    return rates.part_timer_economy


def bowler_strike(card: Card, rates: DeckRates) -> float:
    """Wickets per over charged to a man in the attack (``econ / avg``)."""
    if is_proper_bowler(card):
        return (6 * card.wickets) / card.balls_bowled
    return rates.part_timer_economy / rates.part_timer_average


def score_xi(
    rule: Rule, cards: Sequence[Card], xi: Sequence[int], rates: DeckRates, line: int
) -> float:
    """The XI's score under ``rule`` (The Toss must be resolved to its hidden Rule first)."""
    side = [cards[p] for p in xi]
    if rule is Rule.THE_AVERAGE:
        return sum(c.runs for c in side) / max(1, sum(c.dismissals for c in side))
    if rule is Rule.RUNS_ON_THE_BOARD:
        return float(sum(c.runs for c in side))
    if rule is Rule.STRIKE_RATE:
        balls = sum(c.balls_faced for c in side)
        return (100 * sum(c.runs for c in side)) / balls if balls else 0.0
    if rule is Rule.MAXIMUMS:
        return float(sum(c.sixes for c in side))
    if rule is Rule.OCCUPY_THE_CREASE:
        return float(sum(c.balls_faced for c in side))
    if rule is Rule.WICKETS:
        return float(sum(c.wickets for c in side))
    if rule is Rule.SIX_AND_OUT:
        sixes = sum(c.sixes for c in side)
        return float(sixes) if sixes <= line else 0.0
    if rule is Rule.THE_TOSS:
        raise ValueError("The Toss judges by its hidden Rule; resolve it with Deal.real_rule")
    attack = [cards[p] for p in attack_order(cards, xi)[:ATTACK_SIZE]]
    econ = [bowler_economy(c, rates) for c in attack]
    total = econ[0] + econ[1] + econ[2] + econ[3] + econ[4]
    if rule is Rule.THE_ECONOMY:
        return total / ATTACK_SIZE
    strike = [bowler_strike(c, rates) for c in attack]
    return total / (strike[0] + strike[1] + strike[2] + strike[3] + strike[4])


def score_key(rule: Rule, score: float) -> int:
    """The integer a score is ranked by: rounded to 1e-9, negated where lower is better."""
    key = math.floor(score * 1e9 + 0.5)
    return -key if rule in LOWER_IS_BETTER else key

"""The deal: seventeen cards from a seed, the same on every device (law 3.01, law 7.01).

Algorithm (reproduced by ``docs/rules/hitforsix.md`` with test vectors):

1. The seed is an unsigned 64-bit integer. A text seed that is a decimal number below 2**64 is
   that number; any other text goes through :func:`engine.dice.seed_from_text`.
2. ``d = Dice(seed)``; ``idx = [0, 1, ..., n-1]`` for a deck of ``n >= 17`` cards.
3. Partial Fisher–Yates: for ``i`` in ``0 .. 16``: ``j = i + d.below(n - i)``; swap
   ``idx[i]`` and ``idx[j]``. The deal is ``idx[0:17]``: positions 0–10 are dealt face up,
   positions 11–16 are the six replacements in the order they are drawn.
4. The deal's Rule is ``RULES[d.below(10)]`` (the next draw); the Rule The Toss conceals is
   ``HIDDEN[d.below(9)]`` (the draw after that, always made), where ``HIDDEN`` is the nine
   other Rules in law order.

The Daily XI (law 7.01) is the deal of ``seed_from_text(f"daily:{deck}:{YYYY-MM-DD}")`` for
each deck and UTC day. The deck's build is not part of the seed: a code carries the build, so a
rebuilt deck rejects old codes rather than silently dealing another hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.dice import MASK64, Dice, seed_from_text
from engine.hitforsix.cards import Card, Deck
from engine.hitforsix.rules import HIDDEN_RULES, RULES, Rule

__all__ = [
    "DEAL_SIZE",
    "FACE_UP",
    "Deal",
    "daily_seed",
    "deal",
    "deal_indices",
    "parse_seed",
    "six_and_out_line",
]

DEAL_SIZE = 17
FACE_UP = 11
_DATE = re.compile(r"\A(\d{4})-(\d{2})-(\d{2})\Z")


def parse_seed(text: str | int) -> int:
    """A seed from a player's text: a decimal number below 2**64 as is, else its text hash."""
    if isinstance(text, int):
        return text & MASK64
    stripped = text.strip()
    if stripped.isdecimal() and stripped.isascii() and int(stripped) <= MASK64:
        return int(stripped)
    return seed_from_text(text)


def daily_seed(deck_name: str, day: str) -> int:
    """The seed of the Daily XI for ``deck_name`` on the UTC day ``YYYY-MM-DD`` (passed in)."""
    m = _DATE.match(day)
    if m is None or not (1 <= int(m.group(2)) <= 12 and 1 <= int(m.group(3)) <= 31):
        raise ValueError(f"a day is written YYYY-MM-DD, got {day!r}")
    return seed_from_text(f"daily:{deck_name}:{day}")


def deal_indices(seed: int, deck_size: int) -> tuple[tuple[int, ...], Rule, Rule]:
    """The 17 deck indices in deal order, the deal's Rule and the Rule The Toss would hide."""
    if deck_size < DEAL_SIZE:
        raise ValueError(f"a deck needs at least {DEAL_SIZE} cards to deal, this has {deck_size}")
    d = Dice(seed)
    idx = list(range(deck_size))
    for i in range(DEAL_SIZE):
        j = i + d.below(deck_size - i)
        idx[i], idx[j] = idx[j], idx[i]
    rule = RULES[d.below(len(RULES))]
    hidden = HIDDEN_RULES[d.below(len(HIDDEN_RULES))]
    return tuple(idx[:DEAL_SIZE]), rule, hidden


def six_and_out_line(cards: tuple[Card, ...]) -> int:
    """The line for Six and Out: the mean combined sixes of an XI of the deal, rounded down.

    Every one of the 17 cards is in 11 of every 17 XIs on average, so the mean over all 12,376
    XIs is ``11 * (sixes of the 17) / 17`` exactly; integer arithmetic keeps it the same
    everywhere.
    """
    return 11 * sum(c.sixes for c in cards) // DEAL_SIZE


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal of a deck: the 17 cards in deal order and what is announced with them."""

    deck: Deck
    seed: int
    indices: tuple[int, ...]
    rule: Rule
    hidden_rule: Rule

    def __repr__(self) -> str:
        return f"deal(<Deck {self.deck.name} {self.deck.build}>, {self.seed})"

    @property
    def cards(self) -> tuple[Card, ...]:
        """The 17 cards in deal order (0–10 face up, 11–16 the replacements)."""
        return tuple(self.deck.cards[i] for i in self.indices)

    @property
    def line(self) -> int:
        """The Six and Out line, announced with the deal."""
        return six_and_out_line(self.cards)

    def real_rule(self, rule: Rule) -> Rule:
        """The Rule that actually judges: The Toss reveals the hidden one; others are themselves."""
        return self.hidden_rule if rule is Rule.THE_TOSS else rule

    def to_json(self, rule: Rule | None = None) -> dict[str, Any]:
        """The object of ``pbm h6 deal --json``."""
        return {
            "deck": self.deck.name,
            "seed": self.seed,
            "rule": (rule or self.rule).value,
            "line": self.line,
            "cards": [c.to_json() for c in self.cards],
        }


def deal(deck: Deck, seed: int) -> Deal:
    """Deal 17 cards of ``deck`` from ``seed`` (see the module docstring for the algorithm)."""
    seed &= MASK64
    indices, rule, hidden = deal_indices(seed, len(deck.cards))
    return Deal(deck, seed, indices, rule, hidden)

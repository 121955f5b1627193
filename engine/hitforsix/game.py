"""A solo hand (laws 3 and 4): a deal, a Rule, the over of changes, the grade and resemblance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.hitforsix.deal import Deal
from engine.hitforsix.grading import Grade, Grader
from engine.hitforsix.over import Decisions, play_over
from engine.hitforsix.resemblance import Resemblance, resemblance
from engine.hitforsix.rules import DeckRates, Rule

__all__ = ["SoloGame", "grader_for", "play_solo"]


def grader_for(deal: Deal) -> Grader:
    """The grader of a deal, at the deck's going rate and the deal's line."""
    return Grader(deal.cards, DeckRates.of(deal.deck), deal.line)


@dataclass(frozen=True, slots=True)
class SoloGame:
    """A finished solo hand. ``rule`` is the Rule played; ``judged_by`` what The Toss revealed."""

    deal: Deal
    rule: Rule
    decisions: Decisions
    xi: tuple[int, ...]
    grade: Grade
    resemblance: Resemblance

    @property
    def judged_by(self) -> Rule:
        """The Rule that judged the XI (The Toss's hidden Rule, revealed after naming)."""
        return self.grade.rule

    @property
    def score(self) -> float:
        """The XI's score under the judging Rule."""
        return self.grade.score

    def to_json(self, code: str) -> dict[str, Any]:
        """The object of ``pbm h6 play --json`` (the caller supplies the challenge code)."""
        return {
            "xi": list(self.xi),
            "rule": self.rule.value,
            "judged_by": self.judged_by.value,
            "score": round(self.score, 4),
            "grade": self.grade.grade,
            "beats": self.grade.beats,
            "ties": self.grade.ties,
            "decisions": self.decisions.to_text(),
            "resemblance": self.resemblance.to_json(),
            "code": code,
        }


def play_solo(
    deal: Deal, rule: Rule, decisions: Decisions, grader: Grader | None = None
) -> SoloGame:
    """Play ``decisions`` on ``deal`` under ``rule``; illegal drops raise IllegalOrder."""
    xi = play_over(decisions).xi
    grade = (grader or grader_for(deal)).grade(xi, deal.real_rule(rule))
    cards = deal.cards
    return SoloGame(
        deal=deal,
        rule=rule,
        decisions=decisions,
        xi=xi,
        grade=grade,
        resemblance=resemblance([cards[p] for p in xi], deal.deck),
    )

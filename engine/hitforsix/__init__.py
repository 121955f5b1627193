"""Hit for Six: the deal, the over of changes, the Rules, grading, codes and Test Matches."""

from engine.hitforsix.cards import Card, Deck

__all__ = ["Card", "Deck"]

"""Hit for Six cards and decks: the model shared by the deck builder, the engine and the CLI.

A card is one player's career line in one format, from Cricsheet ball-by-ball data. Decks are
built by ``pbm decks build`` and shipped inside the package; the engine only ever receives
:class:`Deck` values (it never reads files).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["CARD_FIELDS", "Card", "Deck"]

CARD_FIELDS = (
    "id",
    "name",
    "initials",
    "country",
    "matches",
    "runs",
    "dismissals",
    "balls_faced",
    "fours",
    "sixes",
    "balls_bowled",
    "runs_conceded",
    "wickets",
)


@dataclass(frozen=True, slots=True)
class Card:
    """One career line. ``id`` is the Cricsheet registry id; ``name`` as the scorebook gives it."""

    id: str
    name: str
    initials: str
    country: str
    matches: int
    runs: int
    dismissals: int
    balls_faced: int
    fours: int
    sixes: int
    balls_bowled: int
    runs_conceded: int
    wickets: int

    def to_json(self) -> dict[str, Any]:
        """The card as the JSON object of ``pbm h6 deal --json``."""
        return {f: getattr(self, f) for f in CARD_FIELDS}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Card:
        """Read a card object."""
        return cls(
            id=str(data["id"]),
            name=str(data["name"]),
            initials=str(data["initials"]),
            country=str(data["country"]),
            **{f: int(data[f]) for f in CARD_FIELDS[4:]},
        )


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck: its short name (``t20i``), its ``build`` (a content hash), and its cards.

    Cards are in a canonical order (by registry id), which deals index into.
    """

    name: str
    build: str
    cards: tuple[Card, ...]

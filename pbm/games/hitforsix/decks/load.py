"""The six Hit for Six decks: what each holds, and loading the shipped files.

The deck files live in the package (``pbm/games/hitforsix/decks/data/<name>.json.gz``) and are read
with
``importlib.resources``, so the game needs nothing but the installed package.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

from engine.hitforsix.cards import Deck
from pbm.games.hitforsix.decks.deckfile import DeckFile, DeckFileError, decode

__all__ = [
    "DECK_NAMES",
    "DECK_SPECS",
    "FULL_MEMBERS",
    "DeckSpec",
    "UnknownDeck",
    "deck_file",
    "load_deck",
    "spec",
]

FULL_MEMBERS = frozenset(
    {
        "Afghanistan",
        "Australia",
        "Bangladesh",
        "England",
        "India",
        "Ireland",
        "New Zealand",
        "Pakistan",
        "South Africa",
        "Sri Lanka",
        "West Indies",
        "Zimbabwe",
    }
)


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """Which careers make a deck.

    ``members`` is ``"full"`` (country is a Full Member), ``"associate"`` (it is not) or
    ``"all"``. ``min_matches`` keeps out careers too short for the ratio Rules: see
    ``docs/rules/hitforsix-decks.md`` for each figure's reason.
    """

    name: str
    title: str
    match_type: str
    gender: str
    members: str
    min_matches: int

    def admits(self, country: str, matches: int) -> bool:
        """Whether a career with this country and match count gets a card."""
        if matches < self.min_matches:
            return False
        if self.members == "full":
            return country in FULL_MEMBERS
        if self.members == "associate":
            return country not in FULL_MEMBERS
        return True


DECK_SPECS: tuple[DeckSpec, ...] = (
    DeckSpec("t20i", "T20 Internationals", "T20", "male", "full", 10),
    DeckSpec("odi", "One-Day Internationals", "ODI", "male", "full", 10),
    DeckSpec("test", "Test Matches", "Test", "male", "all", 5),
    DeckSpec("associates", "The Associates", "T20", "male", "associate", 10),
    DeckSpec("t20i-women", "Women's T20 Internationals", "T20", "female", "full", 10),
    DeckSpec("odi-women", "Women's One-Day Internationals", "ODI", "female", "full", 10),
)
DECK_NAMES: tuple[str, ...] = tuple(s.name for s in DECK_SPECS)
_SPECS = {s.name: s for s in DECK_SPECS}


class UnknownDeck(DeckFileError):
    """No deck of that name."""


def spec(name: str) -> DeckSpec:
    """The spec of deck ``name``."""
    try:
        return _SPECS[name]
    except KeyError:
        raise UnknownDeck(f"no deck {name!r}; the decks are {', '.join(DECK_NAMES)}") from None


@functools.cache
def deck_file(name: str) -> tuple[DeckFile, str]:
    """The shipped file of deck ``name`` and its build id (read once)."""
    spec(name)
    resource = resources.files("pbm.games.hitforsix.decks.data").joinpath(f"{name}.json.gz")
    try:
        data = resource.read_bytes()
    except FileNotFoundError:
        raise DeckFileError(f"deck {name!r} is not built; run `pbm decks build`") from None
    return decode(data)


@functools.cache
def load_deck(name: str) -> Deck:
    """Deck ``name`` (one of :data:`DECK_NAMES`), cards in registry-id order."""
    file, build = deck_file(name)
    return Deck(name=name, build=build, cards=file.cards)

"""The resemblance (law 4.04): the combined scorecard and the nearest card of the deck."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.hitforsix.cards import Deck
from engine.hitforsix.fingerprint import fingerprint
from engine.hitforsix.resemblance import MISSING_PENALTY, combine, resemblance
from tests.engine.hitforsix.synthetic import synthetic_deck


def test_combine_sums_every_count_matches_too() -> None:
    """The combined scorecard sums every count over the eleven, matches included."""
    deck = synthetic_deck(20, 4)
    xi = deck.cards[:11]
    combined = combine(xi)
    assert combined.runs == sum(c.runs for c in xi)
    assert combined.matches == sum(c.matches for c in xi)
    assert combined.wickets == sum(c.wickets for c in xi)
    assert combined.name == "The XI"


def test_a_card_resembles_itself() -> None:
    """A single career 'combined' is nearest to itself, at distance 0."""
    deck = synthetic_deck(40, 4)
    r = resemblance([deck.cards[7]], deck)
    assert r.match == deck.cards[7]
    assert r.distance == 0.0


def test_nearest_by_standardised_distance() -> None:
    """The match is the card whose deck-standardised fingerprint is nearest the XI's."""
    deck = synthetic_deck(40, 6)
    xi = deck.cards[:11]
    r = resemblance(xi, deck)
    assert r.stats == fingerprint(combine(xi))
    # Put a card with exactly the combined line in the deck: it must be the match.
    twin = replace(combine(xi), id="twin", name="Twin", initials="TW", country="Nepal")
    deck2 = Deck(deck.name, deck.build, (*deck.cards, twin))
    assert resemblance(xi, deck2).match.id == "twin"


def test_missing_stat_is_penalised() -> None:
    """A stat present on one side only adds the documented penalty; on neither, nothing."""
    deck = synthetic_deck(30, 8)
    bowler_free = [replace(c, balls_bowled=0, runs_conceded=0, wickets=0) for c in deck.cards]
    # A non-bowling XI should match a non-bowler: bowlers pay a penalty on each bowling stat.
    mixed = Deck(deck.name, deck.build, (*deck.cards[:15], *bowler_free[15:]))
    r = resemblance(bowler_free[15:26], mixed)
    assert r.match.balls_bowled == 0
    assert MISSING_PENALTY == 4.0


def test_resemblance_json() -> None:
    """The JSON shows the combined line, its fingerprint and the match."""
    deck = synthetic_deck(30, 8)
    data = resemblance(deck.cards[:11], deck).to_json()
    assert set(data) == {"combined", "fingerprint", "match", "distance"}
    assert data["match"]["name"] in {c.name for c in deck.cards}  # type: ignore[index]
    assert len(data["fingerprint"]) == 12  # type: ignore[arg-type]
    assert data["distance"] == pytest.approx(data["distance"])

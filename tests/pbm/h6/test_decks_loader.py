"""Loading the shipped decks."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from engine.hitforsix.cards import Deck
from pbm.games.hitforsix.decks.deckfile import CREDIT, DeckFileError, decode, encode
from pbm.games.hitforsix.decks.load import (
    DECK_NAMES,
    FULL_MEMBERS,
    UnknownDeck,
    deck_file,
    load_deck,
)


@pytest.mark.parametrize("name", DECK_NAMES)
def test_every_deck_loads_with_enough_cards_in_id_order(name: str) -> None:
    """Each shipped deck loads, holds at least 17 cards (one deal) and lists them by registry id."""
    deck = load_deck(name)
    assert isinstance(deck, Deck)
    assert deck.name == name
    assert len(deck.cards) >= 17
    ids = [c.id for c in deck.cards]
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("name", DECK_NAMES)
def test_build_id_names_the_content(name: str) -> None:
    """The build id is eight hex digits and re-encoding the loaded deck gives the same bytes."""
    file, build = deck_file(name)
    assert len(build) == 8
    int(build, 16)
    assert file.credit == CREDIT
    again, build_again = decode(encode(file))
    assert build_again == build == file.build
    assert again == file


def test_load_deck_is_cached() -> None:
    """Loading a deck twice gives the very same object."""
    assert load_deck("test") is load_deck("test")


def test_unknown_deck_is_refused_with_the_list() -> None:
    """An unknown deck name is refused, naming the real decks."""
    with pytest.raises(UnknownDeck, match="t20i"):
        load_deck("county")


def test_membership_split_between_t20i_and_associates() -> None:
    """Men's T20I cards are Full Members' players; the Associates deck holds everyone else."""
    assert all(c.country in FULL_MEMBERS for c in load_deck("t20i").cards)
    assert not any(c.country in FULL_MEMBERS for c in load_deck("associates").cards)
    assert not {c.id for c in load_deck("t20i").cards} & {
        c.id for c in load_deck("associates").cards
    }


def test_no_afghanistan_men() -> None:
    """No men's deck has an Afghanistan card: Cricsheet withholds those matches."""
    for name in ("t20i", "odi", "test", "associates"):
        assert not [c for c in load_deck(name).cards if c.country == "Afghanistan"]


def test_spot_checks_from_the_readme() -> None:
    """V Kohli's T20I line and JM Anderson's Test line match the README's spot checks."""
    kohli = next(c for c in load_deck("t20i").cards if c.id == "ba607b88")
    assert (kohli.name, kohli.initials, kohli.country) == ("V Kohli", "VK", "India")
    assert (kohli.matches, kohli.runs) == (118, 3963)
    anderson = next(c for c in load_deck("test").cards if c.id == "d12143bf")
    assert (anderson.name, anderson.matches, anderson.wickets) == ("JM Anderson", 182, 682)


def test_tampered_deck_file_is_refused() -> None:
    """A deck file whose content no longer matches its build id is refused."""
    file, _ = deck_file("odi-women")
    raw = gzip.decompress(encode(file)).replace(b'"runs":[', b'"runs":[1', 1)
    with pytest.raises(DeckFileError, match="does not match build"):
        decode(gzip.compress(raw))


def test_docs_table_names_each_shipped_build() -> None:
    """docs/rules/hitforsix-decks.md lists each deck's card count and current build id."""
    doc = (Path(__file__).resolve().parents[3] / "docs/rules/hitforsix-decks.md").read_text()
    for name in DECK_NAMES:
        deck = load_deck(name)
        row = next(line for line in doc.splitlines() if line.startswith(f"| `{name}` |"))
        assert f"{len(deck.cards):,}" in row
        assert f"`{deck.build}`" in row

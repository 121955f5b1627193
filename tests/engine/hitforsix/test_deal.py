"""The deal is documented, reproducible and the same everywhere (law 3.01, law 7.01)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dice import Dice, seed_from_text
from engine.hitforsix.deal import DEAL_SIZE, daily_seed, deal, deal_indices, parse_seed
from engine.hitforsix.rules import HIDDEN_RULES, Rule
from tests.engine.hitforsix.synthetic import synthetic_deck

# The vectors of docs/rules/hitforsix.md ("The deal"): seed 2026, a deck of 40 cards.
VECTOR_BELOW = [34, 18, 25, 14, 28, 25, 32, 26, 10, 7, 10, 26, 8, 7, 16, 3, 5, 3, 5]
VECTOR_DEAL = (34, 19, 27, 17, 32, 30, 38, 33, 18, 16, 20, 37, 10, 12, 5, 8, 21)


def test_raw_dice_vector() -> None:
    """Seed 2026 gives the documented below() draws for a deck of 40 (17 swaps, Rule, Toss)."""
    d = Dice(2026)
    draws = [d.below(40 - i) for i in range(DEAL_SIZE)] + [d.below(10), d.below(9)]
    assert draws == VECTOR_BELOW


def test_deal_vector() -> None:
    """Seed 2026 deals the documented 17 indices of 40 cards, Maximums (Toss: Wickets)."""
    assert deal_indices(2026, 40) == (VECTOR_DEAL, Rule.MAXIMUMS, Rule.WICKETS)


def test_daily_seed_vector() -> None:
    """The Daily XI's seed is the hash of "daily:{deck}:{day}", documented with its deal."""
    seed = daily_seed("t20i", "2026-11-29")
    assert seed == seed_from_text("daily:t20i:2026-11-29") == 8592157371269499378
    assert deal_indices(seed, 40)[0][:3] == (4, 34, 14)


def test_daily_seed_differs_by_deck_and_day() -> None:
    """Each deck and each day has its own Daily XI."""
    seeds = {daily_seed(d, day) for d in ("t20i", "odi") for day in ("2026-01-01", "2026-01-02")}
    assert len(seeds) == 4


@pytest.mark.parametrize("bad", ["2026-13-01", "29/11/2026", "2026-1-1", ""])
def test_daily_seed_rejects_bad_dates(bad: str) -> None:
    """A day must be written YYYY-MM-DD."""
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        daily_seed("t20i", bad)


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=17, max_value=500))
def test_deal_is_17_distinct_cards(seed: int, n: int) -> None:
    """Any seed deals 17 distinct indices of the deck, and the same seed the same deal."""
    idx, rule, hidden = deal_indices(seed, n)
    assert len(set(idx)) == DEAL_SIZE and all(0 <= i < n for i in idx)
    assert deal_indices(seed, n) == (idx, rule, hidden)
    assert hidden in HIDDEN_RULES


def test_small_deck_is_refused() -> None:
    """A deck of fewer than 17 cards cannot be dealt."""
    with pytest.raises(ValueError, match="at least 17"):
        deal_indices(1, 16)


def test_parse_seed() -> None:
    """A decimal seed is itself; other text is hashed."""
    assert parse_seed("42") == 42
    assert parse_seed(" 42 ") == 42
    assert parse_seed("hello") == seed_from_text("hello")
    assert parse_seed(str(2**64)) == seed_from_text(str(2**64))


def test_deal_json_shape_and_line() -> None:
    """The deal's JSON has deck, seed, rule, line and 17 cards; the line is 11/17 of the sixes."""
    deck = synthetic_deck(40, 5)
    dl = deal(deck, 2026)
    data = dl.to_json()
    assert set(data) == {"deck", "seed", "rule", "line", "cards"}
    assert len(data["cards"]) == DEAL_SIZE
    assert data["rule"] == "maximums"
    assert data["line"] == 11 * sum(c["sixes"] for c in data["cards"]) // 17
    assert [c["id"] for c in data["cards"]] == [deck.cards[i].id for i in VECTOR_DEAL]


def test_toss_reveals_hidden_rule() -> None:
    """The Toss is judged by the deal's hidden Rule; other Rules judge as themselves."""
    dl = deal(synthetic_deck(40, 5), 2026)
    assert dl.real_rule(Rule.THE_TOSS) is Rule.WICKETS
    assert dl.real_rule(Rule.MAXIMUMS) is Rule.MAXIMUMS

"""Initials derived from the name as the scorebook gives it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbm.games.hitforsix.decks.names import initials


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("V Kohli", "VK"),
        ("JM Anderson", "JMA"),
        ("AB de Villiers", "ABdV"),
        ("MW Graham-Smith", "MWGS"),
        ("Shakib Al Hasan", "SAH"),
        ("Mohammad Rizwan", "MR"),
        ("Mohammad Nawaz (3)", "MN"),
        ("JRMVB Sanjaya", "JS"),
        ("KMDN Kulasekara", "KK"),
        ("Inzamam-ul-Haq", "IuH"),
        ("Shahid", "S"),
    ],
)
def test_initials_rule(name: str, expected: str) -> None:
    """The documented rule, on the forms Cricsheet uses."""
    assert initials(name) == expected


@given(st.text(min_size=0, max_size=40))
def test_initials_are_short_and_never_empty(name: str) -> None:
    """Any name gives one to four characters for the figure's centre."""
    assert 1 <= len(initials(name)) <= 4

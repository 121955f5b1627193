"""Law 2.02: every card is drawn in the colours of its country, readable under white initials."""

from __future__ import annotations

import pytest

from engine.hitforsix.colours import TEAM_COLOURS
from pbm.games.hitforsix.decks.load import DECK_NAMES, load_deck


def _luminance(colour: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("name", DECK_NAMES)
def test_every_country_in_every_deck_has_its_colours(name: str) -> None:
    """No card of a shipped deck falls back to the neutral pair (380 Associates cards once did)."""
    missing = sorted({c.country for c in load_deck(name).cards} - set(TEAM_COLOURS))
    assert missing == []


def test_white_initials_are_readable_on_every_primary() -> None:
    """Each primary has at least 3:1 contrast with white (WCAG's figure for large text)."""
    poor = {
        team: round(1.05 / (_luminance(primary) + 0.05), 2)
        for team, (primary, _) in TEAM_COLOURS.items()
        if 1.05 / (_luminance(primary) + 0.05) < 3.0
    }
    assert poor == {}

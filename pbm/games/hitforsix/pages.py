"""The Averages' archive pages (Today, one deck at a time, and the season): static HTML, no
third parties, every grade derived by replay (``templates/hitforsix/*.html``)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from pbm.games.hitforsix.averages import day_statements, season_table
from pbm.games.hitforsix.decks.load import DECK_NAMES
from pbm.outbound.render.env import environment

__all__ = ["season_page", "today_page"]

# The season page says how many decks give a chance a day (law 8.01 was written for four).
_COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def today_page(session: Session, day: str, deck: str | None = None) -> str:
    """The Today page of ``day``: every deck, or one deck at a time."""
    return environment().get_template("hitforsix/today.html").render(
        day=day, deck=deck, decks=DECK_NAMES, season=day[:7],
        entries=day_statements(session, day, deck),
    )  # fmt: skip


def season_page(session: Session, season: str) -> str:
    """The season's table (``YYYY-MM``): each name's best day."""
    return (
        environment()
        .get_template("hitforsix/season.html")
        .render(
            season=season,
            entries=season_table(session, season),
            decks=_COUNT_WORDS.get(len(DECK_NAMES), str(len(DECK_NAMES))),
        )
    )

"""The archive's file names: every link the zine prints is one of these paths, relative to
the archive's root (a flat folder, :mod:`pbm.games.flungo.zine.archive`), so one model serves
the archive page, the mail and the PDF."""

from __future__ import annotations

import hashlib
import re

__all__ = [
    "PAGE_DIGEST_HEX",
    "issue_href",
    "legacy_player_href",
    "legacy_team_href",
    "page_slug",
    "player_href",
    "slug",
    "team_href",
]


def slug(*parts: str) -> str:
    """A file-name-safe, unique slug: readable letters plus a short hash of the exact text."""
    text = "\x1f".join(parts)
    readable = re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")[:40] or "x"
    return f"{readable}-{hashlib.sha256(text.encode()).hexdigest()[:6]}"


#: Hex digits of SHA-256 in a team's or cricketer's page name: 128 bits, so no two names
#: share a page by chance or by search (six digits, 24 bits, let a birthday search over
#: case variants find two teams sharing a page; issue 23). The archive build still refuses a
#: collision outright (:mod:`pbm.games.flungo.zine.archive`), so one team's page never shows
#: another.
PAGE_DIGEST_HEX = 32


def page_slug(*parts: str) -> str:
    """A team's or cricketer's page name: readable letters plus :data:`PAGE_DIGEST_HEX` hex
    digits of SHA-256 over the exact text (so names differing only by case differ here)."""
    text = "\x1f".join(parts)
    readable = re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")[:40] or "x"
    return f"{readable}-{hashlib.sha256(text.encode()).hexdigest()[:PAGE_DIGEST_HEX]}"


def team_href(team: str) -> str:
    """The team's page in the archive."""
    return f"team-{page_slug(team)}.html"


def player_href(team: str, name: str) -> str:
    """A cricketer's career page: one per (team, name), so two teams' Elvis are two pages."""
    return f"player-{page_slug(team, name)}.html"


def legacy_team_href(team: str) -> str:
    """The team's page name before issue 23 (six hex digits): kept as a redirect."""
    return f"team-{slug(team)}.html"


def legacy_player_href(team: str, name: str) -> str:
    """A cricketer's page name before issue 23: kept as a redirect."""
    return f"player-{slug(team, name)}.html"


def issue_href(code: str, number: int, ext: str = "html") -> str:
    """An issue's page (or PDF) in the archive."""
    return f"issue-{slug(code)}-{number:03d}.{ext}"

"""The values an issue is made of (:class:`Issue` and its parts): plain frozen data, so every
format (HTML, plain text, PDF through JSON) renders the same one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Chart",
    "DiceLine",
    "FixtureLine",
    "InningsView",
    "Issue",
    "MatchView",
    "Section",
    "StatTable",
    "TeamSheet",
    "XIView",
]


@dataclass(frozen=True, slots=True)
class Chart:
    """A picture: its kind (``worm``, ``manhattan``, ...) and the SVG."""

    kind: str
    svg: str


@dataclass(frozen=True, slots=True)
class StatTable:
    """A table of figures: a title, column headers, rows of cells, and per row an optional
    link (``href``) for the first cell. ``numeric`` marks right-aligned columns."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    links: tuple[str, ...] = ()
    numeric: tuple[bool, ...] = ()
    widths: tuple[int, ...] = ()  # plain-text column widths (first column absorbs the rest)


@dataclass(frozen=True, slots=True)
class Section:
    """An extra section (the extension point: Hit for Six's Test standings, The Averages)."""

    title: str
    paragraphs: tuple[str, ...] = ()
    tables: tuple[StatTable, ...] = ()


@dataclass(frozen=True, slots=True)
class FixtureLine:
    """A fixture for the reader: who, where, pitch and weather, when, and the result."""

    id: str
    label: str
    home: str
    away: str
    pitch_name: str
    pitch: str
    weather: str
    turns: str
    result: str
    home_href: str = ""
    away_href: str = ""


@dataclass(frozen=True, slots=True)
class InningsView:
    """An innings' scorecard, ready to print."""

    title: str
    batting: StatTable
    dnb: str
    extras: str
    total: str
    fall_of_wickets: str
    bowling: StatTable


@dataclass(frozen=True, slots=True)
class XIView:
    """A side's XI in batting order, captain (c) and keeper (†) marked."""

    team: str
    href: str
    players: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MatchView:
    """One match in this issue."""

    fixture_id: str
    label: str
    home: str
    away: str
    pitch: str
    status: str  # "toss", "in play", "finished"
    headline: str
    toss: str
    xis: tuple[XIView, ...]
    innings: tuple[InningsView, ...]
    result: str
    story: tuple[str, ...]
    charts: tuple[Chart, ...]
    happenings: tuple[str, ...]
    defaults: tuple[str, ...]
    seed_sha256: str
    seed: int | None


@dataclass(frozen=True, slots=True)
class DiceLine:
    """A match's seed: its commitment, the seed once revealed, and how to replay it."""

    fixture_id: str
    label: str
    sha256: str
    seed: int | None
    replay: str = ""
    orders: tuple[tuple[str, str], ...] = ()  # (team, canonical orders text) once revealed
    files: tuple[tuple[str, str], ...] = ()  # (archive path, content): squads and orders


@dataclass(frozen=True, slots=True)
class TeamSheet:
    """A team as published before a ball is bowled: its squad with stats and styles."""

    name: str
    href: str
    squad: StatTable


@dataclass(frozen=True, slots=True)
class Issue:
    """One issue of the zine (see the module docstring)."""

    masthead: str
    code: str
    competition: str
    kind: str
    format: str
    number: int
    date: str
    stage: str
    editorial: str
    href: str
    pdf_href: str
    teams: tuple[TeamSheet, ...]
    fixtures: tuple[FixtureLine, ...]
    matches: tuple[MatchView, ...]
    table: StatTable | None
    table_chart: Chart | None
    bracket_chart: Chart | None
    draw: tuple[FixtureLine, ...]
    next_fixtures: tuple[FixtureLine, ...]
    next_deadline: str
    byes: tuple[str, ...]
    news: tuple[str, ...]
    figures: tuple[StatTable, ...]
    careers: tuple[StatTable, ...]
    dice_next: tuple[DiceLine, ...]
    dice_done: tuple[DiceLine, ...]
    defaults: tuple[str, ...]
    rulings: tuple[str, ...]
    sections: tuple[Section, ...] = field(default=())
    #: When the stage was played, for machines (the feed, the PDF's date): ISO 8601 UTC or "".
    updated: str = ""

    @property
    def title(self) -> str:
        """``The Cosmic Celebrity Cricket Gazette — Flungo League, issue 3`` (issue 0 is
        ``…, the teams``)."""
        if self.number == 0:
            return f"{self.masthead} — {self.competition}, the teams"
        return f"{self.masthead} — {self.competition}, issue {self.number}"

    def to_json(self) -> dict[str, Any]:
        """The whole model as JSON data (what the Typst template reads)."""
        data: dict[str, Any] = _plain(self)
        data["title"] = self.title
        return data


def _plain(value: Any) -> Any:
    """Dataclasses to dicts and tuples to lists, recursively (``asdict`` without its copies)."""
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return {f: _plain(getattr(value, f)) for f in value.__dataclass_fields__}

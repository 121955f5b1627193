"""Checked as a reader sees it: Chromium renders every page kind at phone and desktop widths
(screenshots kept for review), nothing overflows, every SVG has a title and a description;
and an accessibility pass on every page kind (headings in order, alt text, contrast)."""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from itertools import pairwise
from pathlib import Path

import pytest

from pbm.games.flungo.zine.archive import ArchiveResult
from pbm.games.flungo.zine.model import player_href, team_href
from pbm.games.flungo.zine.palette import GRAPHIC_PAIRS, PALETTE, TEXT_PAIRS, contrast
from pbm.games.flungo.zine.render import stylesheet
from pbm.games.flungo.zine.source import TurnReport
from tests.zine.browser import CHROMIUM, check_page

Built = tuple[Path, ArchiveResult]
WIDTHS = (390, 1280)

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"), reason="chromium is not installed"
)


def page_kinds(archive: Built, league: list[TurnReport]) -> dict[str, Path]:
    """One page of each kind: index, a match-day issue, a team page, a career page, tables."""
    out, result = archive
    issue = next(i for i in result.issues if i.code == "LG1" and i.number == 5)
    team = league[0].squads[0]
    return {
        "index": out / "index.html",
        "issue": out / issue.href,
        "first-issue": out / result.issues[0].href,
        "team": out / team_href(team.name),
        "career": out / player_href(team.name, team.players[0].name),
        "tables": out / "tables.html",
        "cup": out / next(i for i in result.issues if i.code == "CUP").href,
    }


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: $ZINE_SHOTS if set (to keep them), else a temporary folder."""
    keep = os.environ.get("ZINE_SHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        return Path(keep)
    return tmp_path_factory.mktemp("shots")


@needs_chromium
@pytest.mark.parametrize("width", WIDTHS)
def test_pages_fit_and_pictures_are_described(
    width: int, archive: Built, league: list[TurnReport], shots: Path
) -> None:
    """At phone (390 px) and desktop (1280 px) widths no page is wider than the window
    (wide tables scroll inside their own box), every SVG has a non-empty <title> and <desc>
    it is labelled by, headings never skip a level and every image has alt text."""
    kinds = page_kinds(archive, league)
    for kind in ("index", "issue", "team", "career"):
        shot = shots / f"{kind}-{width}.png"
        found = check_page(kinds[kind], width, shots, shot)
        assert found["width"] == width
        assert found["scrollWidth"] <= width, (kind, found["overflow"][:5])
        assert not found["overflow"], (kind, found["overflow"][:5])
        for svg in found["svg"]:
            assert svg["title"].strip() and svg["desc"].strip(), (kind, svg)
            assert len(svg["labelled"].split()) == 2
        if kind == "issue":
            assert len(found["svg"]) >= 4
        levels = found["headings"]
        assert levels[0] == 1 and levels.count(1) == 1
        assert all(b - a <= 1 for a, b in pairwise(levels)), levels
        assert all(alt for alt in found["img"])
        assert shot.stat().st_size > 10_000


class _Outline(HTMLParser):
    """Headings, images and SVG title/desc of a page, for the accessibility pass."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[int] = []
        self.imgs: list[dict[str, str | None]] = []
        self.svgs = 0
        self.titled = 0
        self.lang = ""
        self._stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang") or ""
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        if tag == "img":
            self.imgs.append(a)
        if tag == "svg":
            self.svgs += 1
            self._stack.append("svg")
        if tag == "title" and self._stack[-1:] == ["svg"]:
            self.titled += 1


def test_accessibility_of_every_page_kind(archive: Built, league: list[TurnReport]) -> None:
    """Every page kind: a language, one h1, headings in order, alt text on every image,
    a title on every SVG."""
    for kind, page in page_kinds(archive, league).items():
        outline = _Outline()
        outline.feed(page.read_text(encoding="utf-8"))
        assert outline.lang == "en", kind
        levels = outline.headings
        assert levels and levels[0] == 1 and levels.count(1) == 1, (kind, levels)
        assert all(b - a <= 1 for a, b in pairwise(levels)), (kind, levels)
        assert all(img.get("alt") for img in outline.imgs), kind
        assert outline.titled == outline.svgs, kind


def test_palette_contrast() -> None:
    """Every text colour on every background it is used on reaches 4.5:1; chart marks and
    borders reach 3:1 against the paper (computed from the palette the CSS is made from)."""
    for fg, bg in TEXT_PAIRS:
        assert contrast(PALETTE[fg], PALETTE[bg]) >= 4.5, (fg, bg)
    for fg, bg in GRAPHIC_PAIRS:
        assert contrast(PALETTE[fg], PALETTE[bg]) >= 3.0, (fg, bg)


def test_stylesheet_uses_only_the_palette() -> None:
    """The CSS names no colour of its own: every colour is a palette variable, so the
    contrast test covers what readers see."""
    css = stylesheet()
    rules = css.split("}", 1)[1]
    assert not re.search(r"#[0-9a-fA-F]{3,6}\b|rgb\(|hsl\(", rules)
    used = set(re.findall(r"var\(--([a-z]+)\)", rules))
    assert used <= set(PALETTE)
    pairs = {p for pair in TEXT_PAIRS for p in pair}
    for colour in ("ink", "muted", "accent", "link", "paper", "head"):
        assert colour in pairs

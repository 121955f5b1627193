"""One model, three formats: HTML, text at the one width of every mail and a Typst PDF, with
player text escaped."""

from __future__ import annotations

import re
import shutil
import subprocess
from io import BytesIO
from pathlib import Path

import pytest
from pypdf import PdfReader

from pbm.games.flungo.zine.model import build_issue
from pbm.games.flungo.zine.render import WIDTH, issue_html, issue_pdf, issue_text, text_table
from pbm.games.flungo.zine.source import TurnReport
from tests.zine.conftest import HOSTILE_EDITORIAL, HOSTILE_PLAYER, HOSTILE_TEAM

PDFTOTEXT = shutil.which("pdftotext")


def test_text_fits_the_one_width(league: list[TurnReport], cup: list[TurnReport]) -> None:
    """No line of any issue's text part is longer than the width every mail keeps (77)."""
    for reports, code in ((league, "LG1"), (cup, "CUP")):
        for k, rep in enumerate(reports):
            text = issue_text(build_issue(rep, reports[:k], code=code))
            assert max(len(line) for line in text.splitlines()) <= WIDTH


def test_text_table_cuts_long_names() -> None:
    """A name too long for its column is cut (marked ~), never pushing past the width."""
    from pbm.games.flungo.zine.model import StatTable

    t = StatTable("t", ("Player", "Runs"), (("x" * 120, "5"),), (), (False, True), (20, 4))
    out = text_table(t)
    assert all(len(line) <= WIDTH for line in out.splitlines())
    assert "~" in out and out.rstrip().endswith("5")


def test_all_formats_carry_the_same_content(league: list[TurnReport]) -> None:
    """The HTML, the text and the PDF of one issue show the same headlines and stories."""
    rep = league[4]
    issue = build_issue(rep, league[:4], code="LG1")
    html, text = issue_html(issue), issue_text(issue)
    pdf_text = " ".join(p.extract_text() or "" for p in PdfReader(BytesIO(issue_pdf(issue))).pages)
    flat = " ".join(text.split())
    for m in issue.matches:
        assert m.headline in html and m.headline in flat
        assert m.headline.split(" (")[0] in " ".join(pdf_text.split())
        for para in m.story:
            assert para[:40] in flat


def test_html_has_inline_svg_with_title_and_desc(league: list[TurnReport]) -> None:
    """A finished match has its worm, Manhattan and partnerships; a league its NRR picture;
    every SVG has a <title> and a <desc>."""
    issue = build_issue(league[4], league[:4], code="LG1")
    html = issue_html(issue)
    kinds = {c.kind for m in issue.matches for c in m.charts}
    assert kinds == {"worm", "manhattan", "partnerships"}
    svgs = re.findall(r"<svg\b.*?</svg>", html, re.S)
    assert len(svgs) >= 4
    for svg in svgs:
        assert re.search(r"<title id=[^>]*>[^<]+</title><desc id=[^>]*>[^<]+</desc>", svg)


@pytest.fixture(scope="module")
def hostile_issue(hostile: list[TurnReport]):  # type: ignore[no-untyped-def]
    """The first issue of the hostile league (teams, squads and editorial all shown)."""
    return build_issue(hostile[0], [], code="BAD")


def test_html_escapes_player_text(hostile_issue) -> None:  # type: ignore[no-untyped-def]
    """A team called <script>alert(1)</script> shows as text: no script element, no
    injected attribute, in the archive page or the mail's HTML."""
    for html in (issue_html(hostile_issue), issue_html(hostile_issue, None)):
        assert "<script" not in html.lower()
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<img" not in html and "onerror=alert(2)&gt;" in html


def test_pdf_shows_player_text_literally(hostile_issue) -> None:  # type: ignore[no-untyped-def]
    """Typst gets the data as JSON: markup in names and the editorial is printed as text
    (the page is not shrunk, no panic), and the <script> team name reads as written."""
    pdf = issue_pdf(hostile_issue)
    reader = PdfReader(BytesIO(pdf))
    assert float(reader.pages[0].mediabox.width) > 500  # '#set page(width: 1cm)' did nothing
    text = " ".join((p.extract_text() or "") for p in reader.pages)
    flat = " ".join(text.split())
    assert HOSTILE_TEAM in flat
    assert '#panic("typst injection")' in flat
    assert HOSTILE_PLAYER.split(" &")[0] in flat
    assert HOSTILE_EDITORIAL.split(" <")[0] in flat


def test_text_part_keeps_names_as_written(hostile_issue) -> None:  # type: ignore[no-untyped-def]
    """The text part is plain text: the names are there exactly as the players wrote them."""
    text = issue_text(hostile_issue)
    assert HOSTILE_TEAM in text and "*bold*" in text


@pytest.mark.skipif(PDFTOTEXT is None, reason="poppler-utils not installed")
def test_pdf_pages_and_pictures(tmp_path: Path, league: list[TurnReport]) -> None:
    """pdftoppm turns the PDF into as many PNG pages as it has; the pictures are on them
    (the worm's and Manhattan's team colours are drawn), and their titles are in the text."""
    import numpy as np

    from pbm.games.flungo.zine.palette import PALETTE

    issue = build_issue(league[4], league[:4], code="LG1")
    pdf = tmp_path / "issue.pdf"
    pdf.write_bytes(issue_pdf(issue))
    pages = len(PdfReader(pdf).pages)
    assert 2 <= pages <= 12
    subprocess.run(["pdftoppm", "-png", "-r", "40", str(pdf), str(tmp_path / "p")], check=True)
    assert len(list(tmp_path.glob("p-*.png"))) == pages
    subprocess.run(["pdftoppm", "-r", "40", str(pdf), str(tmp_path / "q")], check=True)
    found = {"home": 0, "away": 0}
    for ppm in sorted(tmp_path.glob("q-*.ppm")):
        raw = ppm.read_bytes()
        parts = raw.split(b"\n", 3)  # P6, "w h", maxval, data
        w, h = (int(x) for x in parts[1].split())
        img = np.frombuffer(parts[3][: w * h * 3], dtype=np.uint8).reshape(h, w, 3).astype(int)
        for key in found:
            rgb = np.array([int(PALETTE[key][i : i + 2], 16) for i in (1, 3, 5)])
            found[key] += int((np.abs(img - rgb).sum(axis=2) < 40).sum())
    assert all(n > 20 for n in found.values()), found
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    assert "Pictures" in text.stdout


def test_pdf_is_deterministic(league: list[TurnReport]) -> None:
    """The same issue gives the same PDF bytes (no clock in it)."""
    issue = build_issue(league[2], league[:2], code="LG1")
    assert issue_pdf(issue) == issue_pdf(issue)


def test_extra_sections_render_in_every_format(league: list[TurnReport]) -> None:
    """The extension point (Hit for Six's Test standings and The Averages, later): a Section
    given to build_issue is printed by the HTML, the text and the PDF."""
    from pbm.games.flungo.zine.model import Section, StatTable

    table = StatTable("The Averages", ("Player", "Avg"), (("W. G. Grace", "48.5"),))
    section = Section("Test standings", ("England lead the series 2-1.",), (table,))
    issue = build_issue(league[1], league[:1], code="LG1", sections=[section])
    html, text = issue_html(issue), issue_text(issue)
    pdf = " ".join(p.extract_text() or "" for p in PdfReader(BytesIO(issue_pdf(issue))).pages)
    for out in (html, text, " ".join(pdf.split())):
        assert "England lead the series 2-1." in out and "W. G. Grace" in out
    assert "<h2>Test standings</h2>" in html and "TEST STANDINGS" in text


def test_every_zine_template_ships_in_the_wheel() -> None:
    """Each file under templates/zine matches a package-data pattern, so an installed pbm
    has the stylesheet, the Typst template and the feed template too."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[2]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["*"]
    for f in (root / "templates" / "zine").iterdir():
        assert any(fnmatch.fnmatch(f.name, p) for p in patterns), f.name
    assert (root / "pbm" / "games" / "flungo" / "zine" / "__init__.py").is_file()

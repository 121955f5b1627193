"""The archive: a static, self-contained site rebuilt deterministically from the reports."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import feedparser
from click.testing import CliRunner

from pbm.cli import main
from pbm.db import migrate
from pbm.db.models import Competition
from pbm.db.session import make_db_engine, make_session_factory, transaction
from pbm.games.flungo.zine.archive import ArchiveResult, build_archive
from pbm.games.flungo.zine.model import player_href, team_href
from pbm.games.flungo.zine.source import TurnReport, load_reports, store_report
from tests.zine.conftest import HOSTILE_TEAM

Built = tuple[Path, ArchiveResult]
NAMESPACES = {"http://www.w3.org/2000/svg", "http://www.w3.org/2005/Atom"}


def _text_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.suffix in {".html", ".xml", ".txt", ".json", ".css"}]


def test_every_page_kind_is_there(archive: Built, league: list[TurnReport]) -> None:
    """Index, issues with their PDFs beside them, team pages, career pages, tables, feed."""
    out, result = archive
    for name in ("index.html", "teams.html", "tables.html", "atom.xml"):
        assert (out / name).is_file()
    for issue in result.issues:
        assert (out / issue.href).is_file() and (out / issue.pdf_href).is_file()
        assert (out / issue.pdf_href).read_bytes().startswith(b"%PDF")
    for team in league[0].squads:
        assert (out / team_href(team.name)).is_file()
        for p in team.players:
            assert (out / player_href(team.name, p.name)).is_file()


def test_no_external_url_anywhere(archive: Built) -> None:
    """No page, feed or file refers to anything outside the archive: no fonts, scripts,
    stylesheets, images or trackers from anywhere (XML namespace names are not fetched)."""
    out, _ = archive
    for path in _text_files(out):
        text = path.read_text(encoding="utf-8")
        for url in re.findall(r"(?:https?:)?//[^\s\"'<>)]+", text):
            assert url in NAMESPACES, f"{path.name}: {url}"
        for ns in re.findall(r"https?://[^\s\"'<>]+", text):
            assert re.search(rf'xmlns(?::\w+)?="{re.escape(ns)}"', text), f"{path.name}: {ns}"
        assert "@import" not in text and "url(" not in text
        if path.suffix == ".html":
            assert "<script" not in text.lower() and '<link rel="stylesheet"' not in text


def test_links_are_relative_and_resolve(archive: Built) -> None:
    """Every href and src is a relative path to a file in the archive (so the archive works
    from the file system and from any web server)."""
    out, _ = archive
    checked = 0
    for page in out.glob("*.html"):
        for target in re.findall(r'(?:href|src)="([^"]*)"', page.read_text(encoding="utf-8")):
            path = target.split("#", 1)[0]
            if not path:
                continue
            assert not re.match(r"^[a-z]+:|^/", path), f"{page.name}: {target}"
            assert (page.parent / path).is_file(), f"{page.name}: {target} is missing"
            checked += 1
    assert checked > 100


def test_rebuild_is_byte_identical(tmp_path: Path, league: list[TurnReport]) -> None:
    """Building twice from the same reports gives the same files, byte for byte."""
    a = build_archive([("LG1", league[:6])], tmp_path / "a")
    b = build_archive([("LG1", league[:6])], tmp_path / "b")
    assert a.files == b.files
    for rel in a.files:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


def test_careers_keep_namesakes_apart(archive: Built, league: list[TurnReport]) -> None:
    """Each team's Elvis Presley has his own career page, pointing at the others."""
    out, _ = archive
    teams = [t.name for t in league[0].squads]
    pages = {t: (out / player_href(t, "Elvis Presley")).read_text(encoding="utf-8") for t in teams}
    assert len(set(pages.values())) == len(teams)
    for t, html in pages.items():
        assert "Not to be confused with" in html
        for other in teams:
            if other != t:
                assert player_href(other, "Elvis Presley") in html


def test_career_page_sums_seasons(archive: Built, league: list[TurnReport]) -> None:
    """A career page has a row per season and a career row (both demo leagues share squads)."""
    out, _ = archive
    t = league[0].squads[0]
    html = (out / player_href(t.name, t.players[0].name)).read_text(encoding="utf-8")
    assert "LG1 League" in html and "LG2 League" in html and ">Career<" in html


def test_atom_feed_reads_back(archive: Built) -> None:
    """feedparser reads the feed without complaint: one entry per issue, with its link and
    PDF enclosure, and the hostile team's name as text, never markup."""
    out, result = archive
    feed = feedparser.parse((out / "atom.xml").read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    assert len(feed.entries) == len(result.issues)
    hrefs = {e.link for e in feed.entries}
    assert {i.href for i in result.issues} == hrefs
    assert all(any(x.get("type") == "application/pdf" for x in e.links) for e in feed.entries)
    assert len({e.id for e in feed.entries}) == len(feed.entries)
    bad = [e for e in feed.entries if HOSTILE_TEAM in e.summary]
    assert bad, "the hostile team's matches are in the summaries, as text"


def test_hostile_names_escaped_on_every_page(archive: Built) -> None:
    """The <script> team is text on its team page, its players' pages, tables and index."""
    out, _ = archive
    team_page = (out / team_href(HOSTILE_TEAM)).read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in team_page
    for page in out.glob("*.html"):
        assert "<script" not in page.read_text(encoding="utf-8").lower()


def _db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path}/zine.sqlite3"
    engine = make_db_engine(url)
    migrate.upgrade(engine)
    from datetime import UTC, datetime

    with transaction(make_session_factory(engine)) as s:
        s.add(
            Competition(
                code="LG1",
                name="LG1 League",
                format="t20",
                teams=4,
                naming_deadline=datetime(2027, 1, 1, tzinfo=UTC),
                seed="x",
                created_at=datetime(2026, 12, 1, tzinfo=UTC),
            )
        )
    engine.dispose()
    return url


def test_cli_build_from_the_database(tmp_path: Path, league: list[TurnReport]) -> None:
    """pbm zine build CODE --out DIR rebuilds the archive from the stored reports, the same
    bytes every time."""
    url = _db(tmp_path)
    engine = make_db_engine(url)
    reports = league[:6]
    with transaction(make_session_factory(engine)) as s:
        for rep in reports:
            store_report(s, "LG1", rep)
    with transaction(make_session_factory(engine)) as s:
        assert load_reports(s, "LG1") == reports
    engine.dispose()
    runner = CliRunner()
    for out in ("a", "b"):
        res = runner.invoke(
            main, ["zine", "build", "LG1", "--out", str(tmp_path / out), "--url", url]
        )
        assert res.exit_code == 0, res.output
        assert "6 issues" in res.output
    files = sorted(
        p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file()
    )
    assert files
    for rel in files:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()
    res = runner.invoke(main, ["zine", "build", "NOPE", "--out", str(tmp_path / "c"), "--url", url])
    assert res.exit_code != 0 and "NOPE" in res.output


def test_cli_serve_serves_the_archive(archive: Built) -> None:
    """pbm zine serve serves the folder over HTTP on the port asked for."""
    out, _ = archive
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "pbm", "zine", "serve", "--dir", str(out), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=2) as r:
                    body = r.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, "pbm zine serve did not start"
                time.sleep(0.2)
        assert "The Cosmic Celebrity Cricket Gazette" in body
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_cli_serve_refuses_a_public_bind_without_public(tmp_path: Path) -> None:
    """pbm zine serve --bind 0.0.0.0 (or "", or a non-loopback name) is refused with
    EX_USAGE and the reason, listening nowhere; --help says loopback only unless --public;
    with --public a wildcard bind is served."""
    runner = CliRunner()
    for bind in ("0.0.0.0", "::", "", "example.invalid"):
        res = runner.invoke(main, ["zine", "serve", "--dir", str(tmp_path), "--bind", bind])
        assert res.exit_code == os.EX_USAGE, (bind, res.output)
        assert "not a loopback address" in res.output and "--public" in res.output
    helped = " ".join(runner.invoke(main, ["zine", "serve", "--help"]).output.split())
    assert "loopback" in helped and "--public" in helped
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    (tmp_path / "index.html").write_text("public archive")
    proc = subprocess.Popen(
        [sys.executable, "-m", "pbm", "zine", "serve", "--dir", str(tmp_path), "--port",
         str(port), "--bind", "0.0.0.0", "--public"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html", timeout=2) as r:
                    assert r.read() == b"public archive"
                break
            except OSError:
                assert time.monotonic() < deadline, "pbm zine serve --public did not start"
                time.sleep(0.2)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_replay_files_play_with_pbm_verify(archive: Built) -> None:
    """The replay command printed for every finished match runs from the archive folder with
    its file: pbm verify plays the match again ball for ball and says it is identical."""
    import shlex

    out, result = archive
    lines = [d for i in result.issues for d in i.dice_done]
    assert lines
    for line in lines:
        args = shlex.split(line.replay)
        assert args[:3] == ["pbm", "verify", "--file"]
        res = CliRunner().invoke(main, ["verify", "--file", str(out / args[3])])
        assert res.exit_code == 0, res.output
        assert "commitment matches" in res.output and "identical" in res.output
        assert str(line.seed) in res.output

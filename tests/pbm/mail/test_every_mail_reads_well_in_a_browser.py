"""Every mail's HTML as a reader's client shows it, in headless Chromium: at a phone's 390 px
and a desktop's 1,280 px, light and dark, no sideways scrolling, no text under 14 px, every
text at WCAG AA contrast, nothing the text part says missing; and the text part's tables,
which a proportional font scatters, are tables in the HTML."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from pbm.cli.mail_preview import preview_contexts, write_previews
from pbm.games.flungo.zine.demo import demo_season
from pbm.games.flungo.zine.model import build_issue
from pbm.games.flungo.zine.render import issue_html
from pbm.mail.flowed import unflow
from pbm.outbound.render import email_kinds, has_html
from tests.pbm.mail.browser import measure, proportional

KINDS = [k for k in email_kinds() if has_html(k)]
_CELL_GAP = re.compile(r"\s{2,}")


@pytest.fixture(scope="module")
def previews(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every kind's preview, written once for the module."""
    out = tmp_path_factory.mktemp("mail-previews")
    write_previews(out)
    yield out


def _message(previews: Path, kind: str) -> EmailMessage:
    msg = message_from_bytes((previews / f"{kind}.eml").read_bytes(), policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def _text(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return unflow(part.get_content())


def _leaves(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _leaves(v)
    elif isinstance(value, str):
        yield value


def _said(text: str, ctx: dict[str, Any]) -> set[str]:
    """The values of the context the text part shows (single lines, as written)."""
    flat = " ".join(text.split())
    return {v for v in _leaves(ctx) if "\n" not in v and len(v) >= 4 and v in flat}


def _text_tables(text: str) -> list[list[list[str]]]:
    """Runs of two or more lines set in three or more columns (cells parted by 2+ spaces)."""
    tables: list[list[list[str]]] = []
    run: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        cells = _CELL_GAP.split(line.strip())
        if len(cells) >= 3:
            gaps = _CELL_GAP.findall(line.strip())
            run.append([c + (gaps[i] if i < len(gaps) else "") for i, c in enumerate(cells)])
            continue
        if len(run) >= 2:
            tables.append(run)
        run = []
    return tables


@pytest.mark.parametrize("kind", KINDS)
def test_the_html_fits_reads_and_misses_nothing_at_both_widths(previews: Path, kind: str) -> None:
    """At 390 and 1,280 px, and in the dark scheme at 390, the HTML part scrolls only down,
    sets no text under 14 px nor under WCAG AA contrast, and shows every value of the mail's
    context that its text part shows, and its sign-off."""
    msg = _message(previews, kind)
    assert msg.get_content_type() == "multipart/alternative"
    said = _said(_text(msg), preview_contexts()[kind])
    page = previews / f"{kind}.html"
    assert len(page.read_bytes()) <= 100_000
    for width, dark in ((390, False), (1280, False), (390, True)):
        seen = measure(page, width, dark=dark)
        where = f"{kind} at {width} px{' (dark)' if dark else ''}"
        assert seen["scroll"] <= seen["width"] == width, where
        assert seen["small"] == [], where
        assert seen["faint"] == [], where
        shown = " ".join(seen["text"].split())
        missing = sorted(v for v in said if " ".join(v.split()) not in shown)
        assert missing == [], where
        assert "send HELP for the commands" in shown, where


@pytest.mark.parametrize("kind", ["join", "turn-report", "answer"])
def test_the_text_parts_tables_are_tables_only_in_the_html(previews: Path, kind: str) -> None:
    """In a proportional font (as Gmail shows plain text) the text part's tables lose their
    columns; each of their rows is a row of cells in the HTML part."""
    msg = _message(previews, kind)
    tables = _text_tables(_text(msg))
    assert tables, f"{kind} has no table in its text part"
    scattered = proportional(tables)
    assert any(t["spread"] > 4 or t["wrapped"] for t in scattered), scattered
    cells = measure(previews / f"{kind}.html", 390)["cells"]
    for table in tables:
        for row in table[1:]:  # the text's header row names its columns its own way
            longest = max((c.strip() for c in row), key=len)
            assert any(longest in cell for cell in cells), (kind, longest)


def test_the_zine_mailed_inline_fits_a_phone_even_where_styles_are_dropped(
    tmp_path: Path,
) -> None:
    """The issue's HTML as mailed is within 100 KB and scrolls only down at 390 px, with its
    <style> and without it (where a client drops it, the few styles that keep a wide table
    or a long hash inside the screen are on the elements)."""
    reports = demo_season(4, stages=5)
    issue = build_issue(reports[-1], reports[:-1], code="LG1")
    mailed = issue_html(issue, "https://zine.example.test/lg1/")
    assert len(mailed.encode("utf-8")) <= 100_000
    dropped = re.sub(r"<style>.*?</style>", "", mailed, flags=re.S)
    for name, page in (("mailed", mailed), ("dropped", dropped)):
        path = tmp_path / f"{name}.html"
        path.write_text(page, encoding="utf-8")
        seen = measure(path, 390)
        assert seen["scroll"] <= seen["width"] == 390, name

"""Render an :class:`~pbm.games.flungo.zine.model.Issue` (and the archive's other pages) from ONE
model:
Jinja to HTML (the archive page and the mail's HTML part) and to plain text (the one width
of every mail, :data:`~pbm.outbound.render.wrap.WIDTH`), both through the one environment,
Typst to PDF with the same pictures.

Player text is escaped everywhere: Jinja autoescapes HTML and XML; the text part has no
markup; the PDF gets the whole model as JSON through ``sys_inputs`` and never interpolates
data into Typst source.
"""

from __future__ import annotations

import hashlib
import json
import threading
from functools import cache
from pathlib import Path
from typing import Any

import typst

from pbm.games.flungo.zine.model import FixtureLine, Issue, StatTable
from pbm.games.flungo.zine.palette import PALETTE, css_variables
from pbm.games.flungo.zine.story import possessive
from pbm.outbound.render.env import environment, templates_dir
from pbm.outbound.render.wrap import WIDTH, wrap

__all__ = [
    "WIDTH",
    "html_page",
    "issue_html",
    "issue_pdf",
    "issue_text",
    "stylesheet",
]


def zine_templates() -> Path:
    """The zine's templates folder."""
    return templates_dir() / "zine"


def _cut(s: str, n: int) -> str:
    return s if len(s) <= n else s[: max(n - 1, 0)] + "~"


def text_table(t: StatTable, indent: int = 2) -> str:
    """A table in fixed columns that always fits in :data:`WIDTH` columns (long names are cut
    with ~)."""
    n = len(t.headers)
    widths = list(t.widths) if len(t.widths) == n else [max(len(h), 6) for h in t.headers]
    for k in range(n):
        longest = max([len(t.headers[k])] + [len(r[k]) for r in t.rows])
        widths[k] = max(len(t.headers[k]), min(widths[k], longest)) if k else widths[k]
    room = WIDTH - indent - sum(widths[1:]) - (n - 1)
    longest0 = max([len(t.headers[0])] + [len(r[0]) for r in t.rows])
    widths[0] = max(8, min(room, longest0))
    numeric = t.numeric if len(t.numeric) == n else (False,) * n

    def line(cells: tuple[str, ...]) -> str:
        out = []
        for k, c in enumerate(cells):
            c = _cut(str(c), widths[k])
            out.append(c.rjust(widths[k]) if numeric[k] else c.ljust(widths[k]))
        return (" " * indent + " ".join(out)).rstrip()

    rows = [line(t.headers)] + [line(r) for r in t.rows]
    return "\n".join(rows)


def _fixture_text(f: FixtureLine) -> str:
    text = (
        f"{f.label}: {f.home} v {f.away} at {f.pitch_name} (pitch {f.pitch}; weather "
        f"{f.weather}; {f.turns})" + (f" - {f.result}" if f.result else "")
    )
    return wrap(text, 4, first="  * ")


#: What the zine's templates call beyond the one environment's filters (the zine's own
#: model types, which the environment does not know).
_HELPERS: dict[str, Any] = {
    "table": lambda t: text_table(t),
    "fixture_text": _fixture_text,
    "possessive": possessive,
}


def _render(template: str, **context: Any) -> str:
    return environment().get_template(f"zine/{template}").render(**_HELPERS, **context)


@cache
def stylesheet() -> str:
    """The CSS every page carries inline (no stylesheet is ever fetched)."""
    return css_variables() + "\n" + (zine_templates() / "style.css").read_text(encoding="utf-8")


def _linker(base: str | None) -> Any:
    def link(href: str) -> str:
        if base is None or not href:
            return ""
        return base + href

    return link


def html_page(template: str, *, link_base: str | None = "", **context: Any) -> str:
    """Render an archive page; ``link_base`` prefixes every link (``""`` relative, ``None`` for
    no links at all, or the archive's URL in a mail)."""
    base = {
        "css": stylesheet(),
        "link": _linker(link_base),
        "masthead": context.pop("masthead", "The Cosmic Celebrity Cricket Gazette"),
        "nav": context.pop("nav", ()),
        "feed": context.pop("feed", ""),
        "page_title": context.pop("page_title", ""),
    }
    return _render(template, **base, **context)


def _nav(link_base: str | None) -> tuple[tuple[str, str], ...]:
    if link_base is None:
        return ()
    return (
        (f"{link_base}index.html", "All issues"),
        (f"{link_base}tables.html", "Tables"),
        (f"{link_base}teams.html", "Teams"),
        (f"{link_base}atom.xml", "Feed"),
    )


def issue_html(issue: Issue, link_base: str | None = "") -> str:
    """The issue as an HTML page: for the archive (relative links), or for a mail
    (``link_base`` the archive's URL, or ``None`` for a mail without links)."""
    return html_page(
        "issue.html",
        link_base=link_base,
        issue=issue,
        online=f"{link_base}{issue.href}" if link_base else "",
        masthead=issue.masthead,
        page_title=issue.title,
        nav=_nav(link_base),
        feed=f"{link_base}atom.xml" if link_base is not None else "",
    )


def issue_text(issue: Issue) -> str:
    """The issue as plain text, no line longer than :data:`WIDTH` columns where words allow."""
    return _render("issue.txt", issue=issue)


_LOCAL = threading.local()


def _compiler() -> Any:
    """One Typst compiler per thread (it keeps its fonts and parsed template between runs)."""
    compiler = getattr(_LOCAL, "compiler", None)
    if compiler is None:
        compiler = _LOCAL.compiler = typst.Compiler(str(zine_templates() / "issue.typ"))
    return compiler


def pdf_inputs(issue: Issue) -> dict[str, str]:
    """What the Typst template reads: the model as JSON, and the palette."""
    inputs = {"issue": json.dumps(issue.to_json(), ensure_ascii=False, sort_keys=True)}
    inputs.update({k: PALETTE[k] for k in ("ink", "accent", "muted", "head", "rule")})
    return inputs


def pdf_key(issue: Issue, inputs: dict[str, str] | None = None) -> str:
    """A digest of everything the PDF is made from (inputs, template, timestamp): equal keys
    give equal PDFs, so an archive rebuild may keep a PDF whose key has not changed."""
    h = hashlib.sha256()
    h.update((zine_templates() / "issue.typ").read_bytes())
    h.update(json.dumps(inputs or pdf_inputs(issue), sort_keys=True).encode())
    h.update(str(_timestamp(issue)).encode())
    h.update(str(getattr(typst, "__version__", "")).encode())
    return h.hexdigest()


def issue_pdf(issue: Issue, inputs: dict[str, str] | None = None) -> bytes:
    """The issue as a PDF, through Typst; the model goes in as JSON (``sys_inputs``), never
    into the Typst source. ``inputs`` are :func:`pdf_inputs` when already made."""
    pdf: bytes = _compiler().compile(
        format="pdf", sys_inputs=inputs or pdf_inputs(issue), timestamp=_timestamp(issue)
    )
    return pdf


def _timestamp(issue: Issue) -> int:
    """The PDF's creation time: when the stage was played (never the clock), for identical
    rebuilds; 1 January 2000 for an issue with no date."""
    from datetime import datetime

    if not issue.updated:
        return 946684800  # 2000-01-01T00:00:00Z
    return int(datetime.fromisoformat(issue.updated.replace("Z", "+00:00")).timestamp())

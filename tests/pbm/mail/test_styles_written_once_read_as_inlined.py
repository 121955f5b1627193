"""A mail's HTML twin rendered from templates with their styles written in once reads, to a
browser's parser, exactly as the page css-inline writes at each render: every element, each
attribute (its style too, declaration for declaration: the styles written in have no blanks
around their colons and semicolons) and every character of text, for any data a player can
send."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.cli.mail_preview import preview_config, preview_contexts
from pbm.outbound.render import email_kinds, environment, has_html, templates_dir
from pbm.outbound.render.html import inline_styles
from pbm.outbound.render.renderer import Renderer, renderer
from pbm.outbound.render.styled import Sheet, Unstylable, compact, prestyle
from pbm.outbound.render.tables import name_lines, squad_lines

Event = tuple[Any, ...]


class _Events(HTMLParser):
    """A page as a browser's tree builder sees its tokens: ``<tbody>``, which the tree builder
    puts into every table that lacks one (css-inline writes it out, the templates do not), is
    left out; adjacent text is one text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[Event] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "tbody":
            read = [(k, _declarations(v) if k == "style" else v or "") for k, v in attrs]
            self.events.append(("start", tag, sorted(read)))

    def handle_endtag(self, tag: str) -> None:
        if tag != "tbody":
            self.events.append(("end", tag))

    def handle_data(self, data: str) -> None:
        if self.events and self.events[-1][0] == "text":
            self.events[-1] = ("text", self.events[-1][1] + data)
        else:
            self.events.append(("text", data))

    def handle_decl(self, decl: str) -> None:
        self.events.append(("decl", decl.lower()))


def _declarations(style: str | None) -> str:
    """A style as a CSS parser reads it: its declarations in order, each name and value
    without the blanks around them (the layout's sheet has no ";" inside a value)."""
    pairs = (d.partition(":") for d in (style or "").split(";") if d.strip())
    return ";".join(f"{name.strip()}:{value.strip()}" for name, _, value in pairs)


def _read(page: str) -> list[Event]:
    # A browser reads a CR, or CR LF, as LF before it parses (HTML, "preprocessing the input
    # stream"); css-inline's page was parsed and written again, so it has none left.
    events = _Events()
    events.feed(page.replace("\r\n", "\n").replace("\r", "\n"))
    events.close()
    return events.events


def _both(kind: str, ctx: dict[str, Any]) -> tuple[str, str]:
    page = environment().get_template(f"email/{kind}/body.html").render(ctx)
    return inline_styles(page), renderer().html(kind, ctx)


@cache
def _previews() -> dict[str, dict[str, Any]]:
    return preview_contexts()


def _ctx(kind: str) -> dict[str, Any]:
    return {"server": preview_config().server, **_previews()[kind], "mail_subject": "S"}


@pytest.mark.parametrize("kind", [k for k in email_kinds() if has_html(k)])
def test_every_kinds_page_reads_as_the_inliners(kind: str) -> None:
    """Each kind's preview page, from the templates with styles written in (or inlined, for a
    kind whose templates refuse), reads element for element as css-inline's page."""
    inlined, written = _both(kind, _ctx(kind))
    assert _read(written) == _read(inlined)


def test_the_welcome_and_the_orders_answer_run_no_inliner() -> None:
    """The welcome, the orders answer and TABLE's answer have their styles written into their
    templates once; the only refusal is a Hit for Six macro whose table cell would change its
    style inside another table's cell."""
    r = renderer()
    for kind in email_kinds():
        if has_html(kind):
            r.writes_styles(kind)
    assert r.writes_styles("join") and r.writes_styles("naming") and r.writes_styles("answer")
    assert set(r.refused) == {"email/_h6_cards.html"}


# What a player may put in a name, a team, a line: markup, quotes, template syntax, marks
# that turn text right to left, no-break and zero-width spaces, entities, a CR, long words.
_HOSTILE = st.sampled_from(
    [
        "<b>bold</b>", "</td></tr></table>", "<script>x</script>", '"', "'", "&", "&amp;",
        "&#39;", "{{ secret }}", "{% if %}", "{#", "\u202e", "\u200f", "\u200b", "\u00a0",
        "\r\n", "\r", "\n\n", "  ", "O'Brien", "x" * 120, "<!--", "-->", "]]>", "\ufeff",
        "<p class=\"next\">", "style=\"color: red\"", "@media", "Ünïcödé", "👍🏽",
    ]
)  # fmt: skip
# No other control character: player text reaches a template through ``oneline`` or the
# mail parser, which make them spaces (a NUL a browser drops, css-inline writes as U+FFFD).
_CHARS = st.characters(exclude_categories=("Cs", "Cc")) | st.sampled_from("\t\n\r")
_TEXT = st.lists(_HOSTILE | st.text(_CHARS, max_size=6), min_size=1, max_size=6).map("".join)


def _hostile(value: Any, draw: Callable[[Any], Any]) -> Any:
    if isinstance(value, str):
        return draw(_TEXT) if draw(st.booleans()) else value
    if isinstance(value, dict):
        return {k: _hostile(v, draw) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_hostile(v, draw) for v in value)
    return value


@pytest.mark.parametrize("kind", ["join", "naming", "answer"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_player_text_reads_as_the_inliners(kind: str, data: st.DataObject) -> None:
    """With any of the context's strings replaced by hostile text (markup, quotes, ``{{``,
    RTL marks, CRs, long words), the page with styles written in reads as css-inline's."""
    ctx = _hostile(_ctx(kind), data.draw)
    ctx["server"] = preview_config().server
    inlined, written = _both(kind, ctx)
    assert _read(written) == _read(inlined)


def _sheet() -> Sheet:
    base = (templates_dir() / "email" / "_base.html").read_text(encoding="utf-8")
    found = re.search(r"<style>(.*?)</style>", re.sub(r"\{#.*?#\}", "", base, flags=re.S), re.S)
    assert found is not None
    return Sheet(found.group(1))


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ('<p class="{{ c }}">x</p>', "written by an expression"),
        ('<td{% if n %} class="n"{% endif %}>x</td>', "statement among its attributes"),
        ('{% if a %}<tr class="mine">{% else %}<tr>{% endif %}<td>x</td></tr>', "other elements"),
        ('<table role="presentation"><tr><td>x</td></tr></table>', "depends on where"),
    ],
)
def test_a_style_that_would_depend_on_the_data_refuses_the_template(source: str, why: str) -> None:
    """A class chosen at render, an element whose tags an ``if`` changes, or a cell that a
    data table around it would restyle: the template is refused, never styled wrong."""
    with pytest.raises(Unstylable, match=why):
        prestyle(source, _sheet())


def test_a_kind_whose_template_refuses_is_inlined_at_each_render(tmp_path: Path) -> None:
    """A renderer of another folder, where one kind writes its class by an expression: that
    kind is inlined at each render and reads as before; the others are written once."""
    shutil.copytree(templates_dir() / "email", tmp_path / "email")
    (tmp_path / "email" / "odd").mkdir()
    (tmp_path / "email" / "odd" / "body.html").write_text(
        '{% extends "email/_base.html" %}{% block content %}'
        '<p class="{{ c }}">{{ t }}</p>{% endblock %}',
        encoding="utf-8",
    )
    r = Renderer(tmp_path)
    ctx = {"server": preview_config().server, "mail_subject": "S", "c": "next", "t": "<x>"}
    assert not r.writes_styles("odd") and r.writes_styles("refused")
    page = r.html("odd", ctx)
    assert '<p class="next" style="margin: 0 0 12px 0;color: #3d2f00;padding: 10px 12px;' in page
    plain = inline_styles(r.plain.get_template("email/odd/body.html").render(ctx))
    assert _read(page) == _read(plain)


# The welcome's squad lines as the template wrote them, a filter a column; and a naming
# answer's, its name column as wide as the longest name (40 at most).
_ROW = (
    "{% autoescape false %}"
    '{{ "%4d"|format(p.slot) }}  {{ "%-22s"|format(p.name|oneline) }}  '
    '{{ "%-20s"|format(p.role) }}  {{ "%3d"|format(p.batting) }}  '
    '{{ "%4d"|format(p.bowling) }}  {{ "%5d"|format(p.fielding) }}  {{ p.style }}'
    "{% endautoescape %}"
)
_NAMES = (
    "{% autoescape false %}"
    '{% set name_width = [squad|map(attribute="name")|map("oneline")|map("length")|max'
    "|default(0), 40]|min %}"
    "{% for p in squad %}"
    '{{ "%4d"|format(p.slot) }}  {{ "%-*s"|format(name_width, p.name|oneline) }}  {{ p.role }}\n'
    "{% endfor %}"
    "{% endautoescape %}"
)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_squads_text_lines_are_the_templates_columns(data: st.DataObject) -> None:
    """The squad's text lines in a welcome and in a naming answer, one format a line, are
    the lines the templates' filters wrote, for any names (hostile, long past a column,
    wide), figures and number of rows."""
    squad = _previews()["join"]["squad"]
    rows = [
        {
            **row,
            "slot": data.draw(st.integers(0, 99999)),
            "name": data.draw(_TEXT),
            "batting": data.draw(st.integers(0, 999)),
            "fielding": data.draw(st.integers(-9, 99999)),
        }
        for row in squad[: data.draw(st.integers(1, len(squad)))]
    ]
    row = environment().from_string(_ROW)
    assert squad_lines(rows) == "\n".join(row.render(p=r) for r in rows)
    names = environment().from_string(_NAMES)
    assert name_lines(rows) + "\n" == names.render(squad=rows)
    assert name_lines([]) == names.render(squad=[]) == ""


def test_the_styles_written_in_are_compact_and_the_twin_smaller() -> None:
    """The welcome's styles have no blank around a colon or a semicolon and no last
    semicolon, and its page is smaller than css-inline's by about as many bytes as those
    blanks; a style whose value holds a quoted colon or semicolon is kept as it is."""
    inlined, written = _both("join", _ctx("join"))
    styles = re.findall(r' style="([^"]*)"', written)
    assert styles and not any(": " in s or "; " in s or s.endswith(";") for s in styles)
    blanks = sum(s.count(": ") + 1 for s in re.findall(r' style="([^"]*)"', inlined))
    assert len(inlined) - len(written) >= blanks * 0.9
    assert compact("margin: 0;padding: 0 1px;") == "margin:0;padding:0 1px"
    for kept in ("a: url(x;y);", "font-family: 'a: b';", 'content: "x;";'):
        assert compact(kept) == kept

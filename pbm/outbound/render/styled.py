"""The mail HTML's styles written into its templates once, when a template is compiled, so a
render runs no CSS inliner.

The layout's ``<style>`` (``templates/email/_base.html``) is the one stylesheet. At compile
time every start tag written literally in an ``email/*.html`` template gets the ``style``
attribute css-inline gives that element: css-inline itself is asked, once for each kind of
element (its tag, its classes, its own style, the classes of the elements around it), with a
small page holding the element where it stands, so the declarations and their order are the
library's. The ``<style>`` keeps only what css-inline keeps (the ``@media`` rules), first in
the head where css-inline puts it.

What makes this safe for any data: a style depends only on the markup the templates write,
never on a value (a class written by an expression, or an element whose tags change inside
an ``{% if %}``, refuses the template: :class:`Unstylable`); an element of a macro, a block
or an include, whose surroundings are another template's, must get the same style in the
layout's page and inside a data table's cell (the stylesheet's descendant selectors look
only at a data table and its total and own rows, checked when the sheet is read; a piece put
inside a total or own row is not foreseen: every kind's preview is compared in the tests).
A kind any of whose templates refuses is rendered and inlined at each render as before
(:mod:`pbm.outbound.render.renderer`).

The bytes are not css-inline's (it writes the page again from its own parse: ``<tbody>``
where a browser puts one, attributes reordered, ``&#39;`` written ``'``); the page read by a
browser's parser is the same element for element, attribute for attribute and character for
character (``tests/pbm/mail/test_styles_written_once_read_as_inlined.py``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html.parser import HTMLParser

import css_inline

__all__ = ["Sheet", "Unstylable", "compact", "prestyle"]

# The selectors' ancestors this module knows how to check (see Sheet.__init__).
_KNOWN_ANCESTORS = frozenset({"table.data", "tr.total", "tr.mine"})
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)
_TOKEN = re.compile(
    r"(?P<comment>\{#.*?#\})"
    r"|(?P<stmt>\{%-?\s*(?P<word>\w+)(?P<rest>.*?)-?%\})"
    r"|(?P<expr>\{\{.*?\}\})"
    r"|(?P<html_comment><!--.*?-->)"
    r"|(?P<decl><![^>]*>)"
    r"|(?P<style><style>(?P<css>.*?)</style>\s*)"
    r"|(?P<end></(?P<end_name>[a-zA-Z][\w-]*)\s*>)"
    r"|(?P<start><(?P<name>[a-zA-Z][\w-]*)(?P<attrs>(?:[^>{]|\{\{.*?\}\}|\{%.*?%\}|\{(?![{%#]))*)>)",
    re.S,
)
_LEAD = re.compile(r"\A(?:\s+|\{#.*?#\})*", re.S)
_OUTSIDE_SPACE = re.compile(
    r"(<!DOCTYPE[^>]*>|<html[^>]*>|</body>|</html>)\s+(?=<html|<head|</html>|\Z)", re.I
)
_CLASS = re.compile(r'\sclass="([^"]*)"')
_STYLE = re.compile(r'\sstyle="([^"]*)"')
_JINJA = ("{{", "{%", "{#")
# The layout's chain above a mail's content, and a data table's cell (where a macro's pieces
# are also put): an element whose surroundings are another template's must be styled alike
# in both.
_LAYOUT = (
    ("html", ""),
    ("body", ""),
    ("table", "frame"),
    ("tr", ""),
    ("td", "frame"),
    ("table", "page"),
    ("tr", ""),
    ("td", "page"),
)
_IN_DATA_CELL = (*_LAYOUT, ("table", "data"), ("tr", ""), ("td", ""))
_PROBE = "data-pbm-probe"


class Unstylable(Exception):
    """A template whose styles cannot be written once for every render (the reason given)."""


Element = tuple[str, str]  # tag, its class attribute ("" for none)


class _Attrs(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if _PROBE in values:
            self.found = values


class Sheet:
    """The layout's stylesheet, and the style css-inline gives each kind of element (asked
    once, kept for the sheet's lifetime: the renderer's)."""

    def __init__(self, css: str) -> None:
        if any(mark in css for mark in _JINJA):
            raise Unstylable("the stylesheet is written by the template")
        self.css = css
        self._inliner = css_inline.CSSInliner(
            keep_at_rules=True, load_remote_stylesheets=False, keep_link_tags=False
        )
        self._memo: dict[tuple[tuple[Element, ...], str, str, str], str | None] = {}
        for selectors in re.findall(r"([^{}@]+)\{[^{}]*\}", _outside_at_rules(css)):
            for selector in selectors.split(","):
                for ancestor in selector.split()[:-1]:
                    if ancestor not in _KNOWN_ANCESTORS:
                        raise Unstylable(f"a selector's ancestor {ancestor!r} is not checked")
        kept = self._inliner.inline(f"<html><head><style>{css}</style></head><body></body></html>")
        match = re.search(r"<style>(.*?)</style>", kept, re.S)
        self.kept = match.group(1) if match else ""

    def style(self, chain: Sequence[Element], tag: str, cls: str, own: str) -> str | None:
        """The style attribute css-inline writes on ``<tag class=cls style=own>`` inside
        ``chain`` (outermost first), its declarations written without blanks around their
        colons and semicolons (:func:`compact`); None for none."""
        key = (tuple(chain), tag, cls, own)
        if key not in self._memo:
            found = self._probe(chain, tag, cls, own)
            self._memo[key] = None if found is None else compact(found)
        return self._memo[key]

    def _probe(self, chain: Sequence[Element], tag: str, cls: str, own: str) -> str | None:
        opened = "".join(_open(t, c) for t, c in chain)
        target = _open(tag, cls, own, probe=True)
        page = self._inliner.inline(f"<style>{self.css}</style>{opened}{target}")
        reader = _Attrs()
        reader.feed(page)
        if reader.found is None:
            raise Unstylable(f"<{tag}> is not where a browser would keep it")
        return reader.found.get("style")


#: A style's declarations as css-inline writes them: ``name: value;`` each.
_DECLARATION = re.compile(r"\s*([-a-zA-Z]+)\s*:\s*([^;]*?)\s*(?:;|\Z)")
#: What may hold a colon or a semicolon that parts no declaration.
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|\([^)]*\)|\\")


def compact(style: str) -> str:
    """``style`` with no blank around a declaration's colon or after its semicolon and no
    last semicolon: the same declarations, 3-4% of an HTML twin's bytes (CSS needs no blank
    there and its last semicolon is optional; MJML, which writes mail for Outlook and Gmail,
    writes its inline styles without the blanks too). A style with a quote, a parenthesis or
    an escape holding a colon or a semicolon is left as it is."""
    if any(";" in q or ":" in q or q == "\\" for q in _QUOTED.findall(style)):
        return style
    pos, out = 0, []
    while pos < len(style):
        found = _DECLARATION.match(style, pos)
        if found is None or found.end() == pos:
            return style
        out.append(f"{found.group(1)}:{found.group(2)}")
        pos = found.end()
    return ";".join(out)


def _outside_at_rules(css: str) -> str:
    return re.sub(r"@[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", css)


def _open(tag: str, cls: str, own: str = "", probe: bool = False) -> str:
    attrs = f' class="{cls}"' if cls else ""
    attrs += f' style="{own}"' if own else ""
    attrs += f' {_PROBE}="1"' if probe else ""
    return f"<{tag}{attrs}>"


def _attr(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;")


@dataclass
class _Frame:
    """An ``{% if %}``, ``{% for %}`` or a block whose content's surroundings are unknown."""

    word: str
    saved: list[Element]
    rooted: bool
    ends: list[list[Element]]


def prestyle(source: str, sheet: Sheet) -> str:
    """``source`` (a mail template's HTML) with the sheet's styles written on every element
    it writes, and its ``<style>`` reduced to what stays one; raises :class:`Unstylable`."""
    rooted = _LEAD.sub("", source).upper().startswith("<!DOCTYPE")
    stack: list[Element] = []
    frames: list[_Frame] = []
    out: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(source):
        out.append(source[pos : m.start()])
        pos = m.end()
        token = m.group(0)
        if m.group("stmt"):
            word = m.group("word")
            if word in ("if", "for", "macro", "block", "call", "filter"):
                frames.append(_Frame(word, list(stack), rooted, []))
                if word in ("macro", "block", "call", "filter"):
                    stack, rooted = [], False
            elif word in ("elif", "else") and frames and frames[-1].word == "if":
                frames[-1].ends.append(stack)
                stack = list(frames[-1].saved)
            elif word == "else" and frames and frames[-1].word == "for":
                _balanced(stack, frames[-1].saved, "a loop")
            elif word.startswith("end") and word[3:] in (
                "if",
                "for",
                "macro",
                "block",
                "call",
                "filter",
            ):
                frame = frames.pop()
                if frame.word == "if":
                    for end in frame.ends:
                        _balanced(stack, end, "the branches of an if")
                elif frame.word == "for":
                    _balanced(stack, frame.saved, "a loop")
                else:
                    stack = frame.saved
                rooted = frame.rooted
            out.append(token)
        elif m.group("style") is not None:
            out.append("")  # written again first in the head, as css-inline writes it
        elif m.group("end"):
            name = m.group("end_name").lower()
            if not stack or stack[-1][0] != name:
                raise Unstylable(f"</{name}> does not close the element open here")
            stack.pop()
            out.append(token)
        elif m.group("start"):
            out.append(_styled_tag(m, stack, rooted, sheet))
            name = m.group("name").lower()
            if name not in _VOID:
                stack.append((name, _class_of(m.group("attrs"))))
        else:
            out.append(token)
    out.append(source[pos:])
    if frames:
        raise Unstylable("a block is left open")
    styled = "".join(out)
    # Whitespace a browser's parser drops (before the head, after the body), as css-inline does.
    return _OUTSIDE_SPACE.sub(r"\1", styled) if rooted else styled


def _balanced(now: list[Element], then: list[Element], what: str) -> None:
    if now != then:
        raise Unstylable(f"{what} leaves other elements open ({now[-3:]} against {then[-3:]})")


def _class_of(attrs: str) -> str:
    found = _CLASS.search(attrs)
    return found.group(1) if found else ""


def _styled_tag(m: re.Match[str], stack: list[Element], rooted: bool, sheet: Sheet) -> str:
    name, attrs = m.group("name").lower(), m.group("attrs")
    if "{%" in attrs or "{#" in attrs:
        raise Unstylable(f"<{name}> has a statement among its attributes")
    cls = _class_of(attrs)
    own_match = _STYLE.search(attrs)
    own = html.unescape(own_match.group(1)) if own_match else ""
    if "{{" in cls or "{{" in own:
        raise Unstylable(f"<{name}>'s class or style is written by an expression")
    if name == "head" and rooted:
        return f"<head><style>{sheet.kept}</style>" if sheet.kept else "<head>"
    if name in ("html", "head", "meta", "title", "style", "link"):
        return m.group(0)
    if rooted:
        style = sheet.style(stack, name, cls, own)
    else:
        style = sheet.style((*_LAYOUT, *stack), name, cls, own)
        if sheet.style((*_IN_DATA_CELL, *stack), name, cls, own) != style:
            raise Unstylable(f"<{name} class={cls!r}>'s style depends on where it is used")
    if own_match:
        attrs = attrs[: own_match.start()] + attrs[own_match.end() :]
    if style is None:
        return f"<{name}{attrs}>"
    if any(mark in style for mark in _JINJA):
        raise Unstylable("a style reads as a template's markup")
    return f'<{name}{attrs} style="{_attr(style)}">'

"""The renderer: the templates of one folder, compiled for mail, and what is worked out once
for them (the HTML twins' styles), kept as long as the renderer lives.

One renderer a templates folder (:func:`renderer`): templates change only with a release, and
a release starts a new process; a test or a tool that points at another folder gets another
renderer, nothing of the first carried over.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, meta
from jinja2.ext import Extension

from pbm.mail.flowed import flow
from pbm.outbound.render.env import environment, make_environment, templates_dir
from pbm.outbound.render.html import collapse_blank_lines, inline_styles
from pbm.outbound.render.styled import Sheet, Unstylable, prestyle

__all__ = ["KEPT_PARAGRAPHS", "LAYOUT", "Renderer", "renderer"]

#: The most flowed paragraphs a renderer keeps (a few hundred kinds of paragraph recur).
KEPT_PARAGRAPHS = 4096

#: The layout whose ``<style>`` is every mail's one stylesheet.
LAYOUT = "email/_base.html"

_JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.S)
_STYLE = re.compile(r"<style>(.*?)</style>", re.S)


def _is_mail_html(name: str | None) -> bool:
    return name is not None and name.startswith("email/") and name.endswith(".html")


class _WriteStyles(Extension):
    """Writes the sheet's styles into each mail HTML template as it is compiled; a template
    that cannot have them written once is compiled as it is (its kinds are inlined at each
    render: :meth:`Renderer.writes_styles`)."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        sheet = getattr(self.environment, "pbm_sheet", None)
        if sheet is None or not _is_mail_html(name):
            return source
        try:
            return prestyle(source, sheet)
        except Unstylable:
            return source


class Renderer:
    """The mail templates under ``root``, their HTML twins with their styles written once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.plain: Environment = (
            environment() if root == templates_dir() else make_environment(root)
        )
        self.prestyled: Environment = make_environment(root, extensions=[_WriteStyles])
        source = self._source(LAYOUT)
        found = _STYLE.search(_JINJA_COMMENT.sub("", source))
        self.sheet: Sheet | None = None
        self.refused: dict[str, str] = {}
        try:
            self.sheet = Sheet(found.group(1) if found else "")
        except Unstylable as refused:
            self.refused[LAYOUT] = str(refused)
        self.prestyled.extend(pbm_sheet=self.sheet)
        self._styled_kinds: dict[str, bool] = {}
        self._flowed: dict[str, str] = {}

    def _source(self, name: str) -> str:
        loader = self.plain.loader
        assert loader is not None
        return loader.get_source(self.plain, name)[0]

    def writes_styles(self, kind: str) -> bool:
        """Whether ``kind``'s HTML twin is rendered from templates with its styles written in
        (every template it extends, imports and includes could have them), not inlined."""
        if kind not in self._styled_kinds:
            self._styled_kinds[kind] = self.sheet is not None and self._can_style(
                f"email/{kind}/body.html", set()
            )
        return self._styled_kinds[kind]

    def _can_style(self, name: str, seen: set[str]) -> bool:
        if name in seen:
            return True
        seen.add(name)
        source = self._source(name)
        if _is_mail_html(name):
            assert self.sheet is not None
            try:
                prestyle(source, self.sheet)
            except Unstylable as refused:
                self.refused[name] = str(refused)
                return False
        for used in meta.find_referenced_templates(self.plain.parse(source)):
            if used is None or not self._can_style(used, seen):
                return False
        return True

    def html(self, kind: str, ctx: dict[str, Any]) -> str:
        """``kind``'s HTML twin rendered with ``ctx``, every style on its element."""
        name = f"email/{kind}/body.html"
        if self.writes_styles(kind):
            page = self.prestyled.get_template(name).render(ctx)
            if "\r" in page:  # a browser reads a CR as a line end (css-inline's parse did)
                page = page.replace("\r\n", "\n").replace("\r", "\n")
            return collapse_blank_lines(page)
        return inline_styles(self.plain.get_template(name).render(ctx))

    def flowed(self, body: str, soft: str) -> str:
        """``flow(body, soft)``, each paragraph (a run of lines between blank ones) flowed
        once while this renderer lives: a blank line closes every block :func:`flow` stuffs
        and ends every soft run, so the paragraphs flow alone to the same lines
        (``tests/pbm/mail/test_flowed.py``). Most of a reply's paragraphs recur in every
        mail of its kind (a stage's, a competition's); the kept ones are dropped together
        past :data:`KEPT_PARAGRAPHS`."""
        kept = self._flowed
        out = []
        for paragraph in body.split("\n\n"):
            done = kept.get(paragraph)
            if done is None:
                if len(kept) >= KEPT_PARAGRAPHS:
                    kept.clear()
                done = kept[paragraph] = flow(paragraph, soft)
            out.append(done)
        return "\n\n".join(out)

    def compile(self) -> int:
        """Compile every mail template now, in both forms; returns how many names."""
        names = self.plain.list_templates(filter_func=lambda name: name.startswith("email/"))
        for name in names:
            self.plain.get_template(name)
            if _is_mail_html(name):
                self.prestyled.get_template(name)
        for kind in {name.split("/")[1] for name in names if name.endswith("/body.html")}:
            self.writes_styles(kind)
        return len(names)


@cache
def renderer() -> Renderer:
    """The renderer of the templates folder in use (:func:`templates_dir`), made once: the
    folder is found with two stats, not to be paid on every reply."""
    return Renderer(templates_dir())

"""Mail HTML as clients want it: every style inline, nothing fetched, no script, small.

The templates write their CSS once, in ``templates/email/_base.html``'s ``<style>``; the
css-inline library copies it onto each element (Gmail and Outlook ignore much of a
``<style>``) and keeps only the ``@media`` rules in one, for the clients that read them (a
dark palette, a phone's width). It does so once per template, when the renderer compiles it
(:mod:`pbm.outbound.render.styled`); :func:`inline_styles` is the way of a kind whose
templates could not be styled once.
"""

from __future__ import annotations

import re
from functools import cache

import css_inline

__all__ = ["MAX_HTML_BYTES", "collapse_blank_lines", "inline_styles", "within_limit"]

#: The most HTML a mail may carry before its pictures: Gmail clips a message at 102 KB.
MAX_HTML_BYTES = 100_000

# Not a no-break space: css-inline writes one as "&nbsp;", so it never parted lines there.
_BLANK_LINES = re.compile(r"\n[^\S\xa0]*\n+")


@cache
def _inliner() -> css_inline.CSSInliner:
    return css_inline.CSSInliner(
        keep_at_rules=True, load_remote_stylesheets=False, keep_link_tags=False
    )


def inline_styles(html: str) -> str:
    """``html`` with its ``<style>`` rules written onto its elements (``@media`` rules kept)."""
    return collapse_blank_lines(_inliner().inline(html))


def collapse_blank_lines(html: str) -> str:
    """``html`` without its blank lines (what the templates' blocks and loops leave)."""
    return _BLANK_LINES.sub("\n", html)


def within_limit(html: str) -> bool:
    """Whether ``html`` is within :data:`MAX_HTML_BYTES` (a mail over it goes as text alone:
    a clipped page would hide its end, where the sign-off and the next step are)."""
    return len(html.encode("utf-8")) <= MAX_HTML_BYTES

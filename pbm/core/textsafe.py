"""Player text shown on a screen (the GM's digest, ``pbm gm flags``, ``pbm mail list``) must
not be able to steer that screen.

:func:`neutralise` makes every character that changes how *other* text is displayed visible
as ``<U+XXXX>``: the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069),
the marks U+200E, U+200F and U+061C, the C0 controls but tab and newline, DEL, the C1 controls
(U+0080-U+009F, which some terminals obey as escape sequences), the line and paragraph
separators, and lone surrogates. Everything else is left as the player wrote it.
"""

from __future__ import annotations

import re

__all__ = ["neutralise", "neutralise_line"]

_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff]"
)


def _visible(match: re.Match[str]) -> str:
    return f"<U+{ord(match.group(0)):04X}>"


def neutralise(text: str) -> str:
    """``text`` with display-steering characters shown as ``<U+XXXX>`` (newlines kept)."""
    return _UNSAFE.sub(_visible, text)


def neutralise_line(text: str) -> str:
    """:func:`neutralise`, and newlines shown too: for one table cell or one line."""
    return neutralise(text).replace("\n", "<U+000A>")

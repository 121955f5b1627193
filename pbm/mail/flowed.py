"""RFC 3676 ``format=flowed`` decoding.

Written here rather than taken from PyPI: the one package (``formatflowed``, 2016) works on
byte strings for Python 2 and 3, and decoding is a short, fully specified algorithm.
"""

from __future__ import annotations

__all__ = ["unflow"]

_SIG_SEPARATOR = "-- "


def _split_quote(line: str) -> tuple[int, str]:
    depth = len(line) - len(line.lstrip(">"))
    content = line[depth:]
    # Space-stuffing (RFC 3676 §4.4): one leading space was added by the sender; remove it.
    if content.startswith(" "):
        content = content[1:]
    return depth, content


def unflow(text: str, *, delsp: bool = False) -> str:
    """Join soft-broken lines of a ``format=flowed`` body; ``text`` uses ``\\n`` line ends.

    A line ending in a space is flowed into the next line of the same quote depth. With
    ``delsp`` (``DelSp=yes``) that trailing space was added by the sender and is dropped.
    Quote depth is kept as ``>`` prefixes followed by one space, as readers expect.
    """
    out: list[str] = []
    pending: str | None = None
    pending_depth = 0
    for raw in text.split("\n"):
        depth, content = _split_quote(raw)
        if pending is not None and depth != pending_depth:
            # A quote depth change ends a paragraph even if the sender left a soft break.
            out.append(_render(pending_depth, pending))
            pending = None
        flowed = content.endswith(" ") and content != _SIG_SEPARATOR
        if flowed and delsp:
            content = content[:-1]
        pending = content if pending is None else pending + content
        pending_depth = depth
        if not flowed:
            out.append(_render(depth, pending))
            pending = None
    if pending is not None:
        out.append(_render(pending_depth, pending))
    return "\n".join(out)


def _render(depth: int, content: str) -> str:
    if depth == 0:
        return content
    return ">" * depth + (" " + content if content else "")

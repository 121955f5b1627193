"""RFC 3676 ``format=flowed``: decoding what players send, encoding what pbm sends.

Written here rather than taken from PyPI: the one package (``formatflowed``, 2016) works on
byte strings for Python 2 and 3, and both directions are short, fully specified algorithms.
"""

from __future__ import annotations

__all__ = ["as_fixed", "flow", "unflow"]

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


def flow(text: str, soft: str) -> str:
    """``text`` (``\\n`` line ends) as a ``format=flowed`` body (DelSp=no): each line that ends
    with the marker ``soft`` ends with a space instead, so a reader may join it to the next;
    any other line loses its trailing spaces, so none is joined by mistake (a signature's
    ``-- `` excepted).

    A line that starts with a space, ``>`` or ``From `` gets one more space in front
    (space-stuffing, which a flowing reader takes away again), and so does every other line
    of its block of fixed lines (consecutive, none of them a paragraph's): a reader that
    does not flow shows the stuffing, and a table's heading or an error's caret must move
    with the lines they stand over (RFC 3676 lets any line be stuffed)."""
    lines: list[str] = []
    soft_after: list[bool] = []  # whether each line ends in a soft break
    for line in text.split("\n"):
        # a soft "--" would go out as "-- ", the signature's separator, and a reader would
        # take all below it for a signature: that break stays hard
        soft_after.append(line.endswith(soft) and line.replace(soft, "").rstrip(" ") != "--")
        line = line.replace(soft, "")  # a marker anywhere else means nothing
        if soft_after[-1]:
            line = line.rstrip(" ") + " "
        elif line != _SIG_SEPARATOR:
            line = line.rstrip(" ")
        lines.append(line)
    out: list[str] = []
    block: list[str] = []  # consecutive fixed lines, stuffed together

    def close() -> None:
        stuff = any(_needs_stuffing(b) for b in block)
        out.extend(" " + b if stuff else b for b in block)
        block.clear()

    for i, line in enumerate(lines):
        # a paragraph's line: soft, or the last of its paragraph (the line after a soft one)
        if not line or soft_after[i] or (i > 0 and soft_after[i - 1]):
            close()
            out.append(" " + line if _needs_stuffing(line) else line)
        else:
            block.append(line)
    close()
    return "\n".join(out)


def _needs_stuffing(line: str) -> bool:
    return line.startswith((" ", ">", "From "))


def as_fixed(text: str) -> str:
    """A flowed body as :func:`flow` was given it, marks aside: the lines as written, a soft
    line's trailing space and each line's stuffing taken away (what a reader that does not
    flow shows, less those spaces)."""
    out = []
    for line in text.split("\n"):
        if line.startswith(" "):
            line = line[1:]
        if line.endswith(" ") and line != _SIG_SEPARATOR:
            line = line[:-1]
        out.append(line)
    return "\n".join(out)

"""Plain-text mail at phone width: lines of at most :data:`WIDTH` characters (77).

Jinja filters on :mod:`textwrap`, all breaking only between words, never inside one (a word
longer than the width stands whole on a line of its own):

* ``wrap``: prose, reflowed, with an indent and a hanging indent for the lines after the first;
* ``wrap_list``: ``label: a, b, c``, the lines after the first aligned under ``a`` and broken
  only after a comma, so no entry (a player's name) is split;
* ``wrap_orders``: canonical order lines a player may copy, change and send back, laid out so
  that the order language still reads them (see :func:`wrap_orders`);
* ``wrap_lines``: text laid out elsewhere (a scorecard, a list of results): a line that fits
  is left as it is, so tables keep their columns, and a longer one is wrapped under its own
  indent, after a comma where it can be.

``nobreak`` keeps a phrase (a name inside a sentence) on one line when ``wrap`` reflows it.

Rendering a mail (:func:`flowing`), ``wrap`` marks the breaks it made inside a paragraph that
starts at the margin with :data:`SOFT`, so the mail can go out as ``format=flowed`` (RFC
3676): a phone's mail app joins those lines again and fills its own width with the
paragraph. Every other line (tables, indented text, orders to copy) stays as it is.
"""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = [
    "SOFT",
    "WIDTH",
    "center",
    "flowing",
    "nobreak",
    "wrap",
    "wrap_lines",
    "wrap_list",
    "wrap_orders",
]

#: RFC 5322 (2.1.1) and RFC 3676 (4.2): a line SHOULD be at most 78 characters. A mail goes
#: out flowed, where a soft line ends in a space and a line that starts with one gets one
#: more: written within 77, every line is within 78 as sent; quoted in a reply ("> "), it
#: still fits 80 columns.
WIDTH = 77

# textwrap breaks only at ASCII whitespace, so a no-break space holds words together. Every
# one prints as a plain space: player text has none of its own (a name cannot hold one, and
# oneline() makes any other a space), and one elsewhere loses nothing by it.
_GLUE = "\u00a0"
# the whitespace textwrap turns into spaces (a text holding any is left to it)
_OTHER_SPACE = re.compile(r"[\t\n\x0b\x0c\r]")

#: The orders whose entries may stand on the lines under a heading of their own ("xi:" with
#: nothing after it): the order language reads those lines as one list
#: (``engine.flungo.language._read._section_line``). A heading with names after it opens no
#: such list, and a line of names may not end in a comma: these two are the only orders that
#: can span lines and still read back as sent.
_HEADINGS = frozenset(["xi", "batting order"])

#: Ends a line that :func:`wrap` broke inside a paragraph, while a mail is rendered: a control
#: character no rendered text keeps (player text reaches a template through ``oneline`` or
#: the mail parser, which make control characters spaces), taken out again by the renderer.
SOFT = "\x1f"
_FLOWING: ContextVar[bool] = ContextVar("pbm_render_flowing", default=False)


@contextmanager
def flowing() -> Iterator[None]:
    """While the block runs, :func:`wrap` marks its soft line breaks with :data:`SOFT`."""
    token = _FLOWING.set(True)
    try:
        yield
    finally:
        _FLOWING.reset(token)


def center(value: object, width: int = WIDTH) -> str:
    """``value`` centred in ``width`` columns (a masthead), no trailing spaces."""
    return str(value).center(width).rstrip()


def nobreak(value: object) -> str:
    """``value`` as one unbreakable word for :func:`wrap` (it prints with plain spaces)."""
    return str(value).replace(" ", _GLUE)


def _glued(text: str, keep: Iterable[str]) -> str:
    for phrase in keep:
        if " " in phrase and phrase in text:
            text = text.replace(phrase, nobreak(phrase))
    return text


# The same text recurs in every team's mail of a stage (the defaults' notes, what comes
# next, the fixtures) and in every answer of a competition: it is wrapped once.
@functools.lru_cache(maxsize=4096)
def _fill(text: str, first: str, rest: str, width: int) -> tuple[str, ...]:
    one = text.rstrip(" ")
    fits = len(first) + len(one) <= width and one.strip() and not one[-1].isspace()
    if fits and not _OTHER_SPACE.search(one):
        # fits as it is, which is most lines: textwrap would return it unchanged, slower
        return ((first + one).replace(_GLUE, " "),)
    lines = textwrap.wrap(
        text,
        width,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return tuple(line.replace(_GLUE, " ") for line in lines)


def wrap(
    value: object,
    indent: int = 0,
    hang: int = 0,
    width: int = WIDTH,
    keep: Iterable[str] = (),
    first: str | None = None,
) -> str:
    """``value`` reflowed into lines of at most ``width``: the first indented by ``indent``
    (or led by ``first``, a bullet such as ``"  * "``), the others by ``indent + hang``. Blank
    lines part paragraphs (each reflowed on its own), the line breaks inside one are spaces,
    and a final line break is kept (so a ``{% filter %}`` block ends as it did). Each phrase
    of ``keep`` found in the text stays whole."""
    text = str(value)
    soft = _FLOWING.get() and indent == 0 and hang == 0 and first is None
    lead = " " * indent if first is None else first
    out: list[str] = []
    for p in text.strip("\n").split("\n\n"):
        if not p.strip():
            out.append("")
            continue
        lines = _fill(_glued(p, keep), lead, " " * (indent + hang), width)
        out.append((SOFT + "\n" if soft else "\n").join(lines))
    return "\n\n".join(out) + ("\n" if text.endswith("\n") else "")


def _split_label(line: str) -> tuple[str, list[str]] | None:
    label, sep, rest = line.partition(": ")
    if not sep or not rest.strip():
        return None
    return label, rest.split(", ")


def wrap_list(value: object, indent: int = 0, width: int = WIDTH, keep: Iterable[str] = ()) -> str:
    """``label: a, b, c`` in lines of at most ``width``, indented by ``indent``; the lines
    after the first start under ``a`` (4 in, if an entry would not fit there) and each line
    but the last ends with its comma. An entry too long for a line of its own is broken
    between words, each phrase of ``keep`` whole. Text without a ``label: `` is prose:
    :func:`wrap`, its lines after the first 2 further in."""
    line = " ".join(str(value).split())
    lead = " " * indent
    split = _split_label(line)
    if split is None:
        return wrap(line, indent, 2, width, keep)
    label, entries = split
    hang = indent + len(label) + 2
    if any(hang + len(e) + 1 > width for e in entries):
        hang = indent + 4
    glued = [nobreak(e) if hang + len(e) + 1 <= width else _glued(e, keep) for e in entries]
    return "\n".join(_fill(label + ": " + ", ".join(glued), lead, " " * hang, width))


def _order_line(line: str, indent: int, width: int, keep: Iterable[str]) -> Sequence[str]:
    lead = " " * indent
    if not line.strip():
        return [""]
    if len(lead) + len(line) <= width:
        return [lead + line]
    split = _split_label(line)
    if split is not None and split[0].lower() in _HEADINGS:
        label, entries = split
        under = lead + "  "
        names = _fill(", ".join(nobreak(e) for e in entries), under, under, width)
        # the break is after a comma, which must go: a line of names may not end in one
        return [lead + label + ":", *(n.removesuffix(",") for n in names)]
    # No form of this order spans lines and still reads back: it is wrapped for the eye,
    # the lines after the first indented further so none looks like an order of its own.
    return _fill(_glued(line, keep), lead, lead + "    ", width)


def wrap_orders(
    value: object, indent: int = 0, width: int = WIDTH, keep: Iterable[str] = ()
) -> str:
    """Canonical order lines (one order a line), each indented by ``indent`` and kept within
    ``width`` where it can be. A long XI or batting order becomes its heading on a line of
    its own with the names on the lines under it, ``indent + 2`` in and no comma at a line's
    end: the order language reads that back as the one list, so the lines can still be
    copied and sent back. Any other long order is wrapped at word boundaries, each phrase of
    ``keep`` (the squad's names) kept whole."""
    keep = tuple(keep)
    out: list[str] = []
    for line in str(value).splitlines():
        out += _order_line(line, indent, width, keep)
    return "\n".join(out)


def _long_line(line: str, hang: int, width: int, keep: Iterable[str]) -> Sequence[str]:
    body = line.lstrip(" ")
    lead = " " * (len(line) - len(body))
    rest = lead + " " * hang
    parts = body.split(", ")
    # A comma parts the entries of a list (names, scores): breaking only there keeps each
    # whole, when each fits on a line of its own.
    if len(parts) > 1 and all(len(rest) + len(p) + 1 <= width for p in parts):
        return _fill(", ".join(nobreak(p) for p in parts), lead, rest, width)
    return _fill(_glued(body, keep), lead, rest, width)


def wrap_lines(value: object, hang: int = 4, width: int = WIDTH, keep: Iterable[str] = ()) -> str:
    """Each line of ``value`` that is longer than ``width`` wrapped under its own indent, the
    lines after its first ``hang`` further in, broken after commas when every part between
    them fits a line (else between words, each phrase of ``keep`` whole); the other lines,
    and a final line break, as they were."""
    text = str(value)
    keep = tuple(keep)
    out: list[str] = []
    for line in text.splitlines():
        if len(line) <= width:
            out.append(line)
        else:
            out += _long_line(line, hang, width, keep)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")

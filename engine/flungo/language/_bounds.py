"""The bounds on what one line may cost the reader, and the refusals that say so.

Mail is hostile input: a line may be 2,000 characters of words pbm does not know, each of
which could start a retry (read without it, read in parts, read with a typo put right). A
line is read within a budget of LALR parses and readings (:func:`._reader.spend`); a line
that spends it is refused, naming why, as is a line too long to read or with too many
unknown words to try readings without them. The player's guide lists these
(``docs/players/orders.md``), the operator's too (``docs/ops/operations.md``).
"""

from __future__ import annotations

import re

from engine.errors import InvalidOrder, Span
from engine.flungo.language._lines import CleanLine, clean_line, has_control
from engine.flungo.language._model import MAX_LINE_LENGTH
from engine.flungo.language._reader import Overspent
from engine.flungo.language._state import ReadState

__all__ = ["MAIL_TEXT", "MAX_BLANKS", "MAX_UNKNOWN", "clean", "overspent"]

#: The most words pbm does not know in one line that it tries readings without; a line
#: with more is refused as it stands (no line of the corpus has more than a handful).
MAX_UNKNOWN = 16

#: The most characters of lines read as orders in one mail (400 lines of 250 characters, the
#: corpus's longest): past it, the line and the rest of the mail are not read, saying so.
MAIL_TEXT = 100_000

#: The most blanks (spaces, tabs) in a row inside a line that pbm reads: a longer run is no
#: order's, and the reader's patterns pay for every place a run could be split.
MAX_BLANKS = 40

_PLAINLY = "put one order on each line, in the words of the guide's examples"
_BLANKS = re.compile(rf"\s{{{MAX_BLANKS + 1},}}")


def clean(number: int, raw: str, st: ReadState) -> CleanLine | None:
    """The line cleaned (:func:`._lines.clean_line`), or None: skipped, or refused as too long
    or holding a control character (said in ``st``)."""
    if len(raw) > MAX_LINE_LENGTH:
        st.errors.append(
            InvalidOrder(
                f"this line is too long ({len(raw)} characters; at most {MAX_LINE_LENGTH}), "
                "so it was not read",
                source_line=raw[:60] + "...",
                span=Span(number, 1, 64),
                hint="put one order on each line",
            )
        )
        return None
    bad = has_control(raw)
    if bad is not None:
        st.errors.append(
            InvalidOrder(
                f"this line contains a control character ({raw[bad]!r})",
                source_line=raw.replace("\t", " "),
                span=Span(number, bad + 1),
            )
        )
        return None
    if (run := _BLANKS.search(raw.strip())) is not None:
        st.errors.append(
            InvalidOrder(
                f"this line has {len(run.group(0))} blanks in a row (pbm reads at most "
                f"{MAX_BLANKS}), so it was not read",
                source_line=raw[:60] + "...",
                span=Span(number, 1, 64),
                hint="write the line again with single spaces",
            )
        )
        return None
    return clean_line(number, raw)


def overspent(cl: CleanLine, over: Overspent, after: int = 0) -> InvalidOrder:
    """The refusal of a line that spent its budget (:class:`._reader.Overspent`): too many
    words pbm does not know to try readings without them, or too many readings tried; or
    of the line where its mail's budget ran out, with the ``after`` lines after it."""
    if over.kind == "mail":
        rest = f"this line and the {after} after it were" if after else "this line was"
        message = (
            f"pbm reads only so much of one mail, and this mail's lines took all of it: {rest} "
            "not read"
        )
        hint = "send the orders that were not read in another, shorter mail"
        span = Span(cl.number, cl.column(0), cl.column(max(len(cl.text), 1)))
        return InvalidOrder(message, source_line=cl.raw, span=span, hint=hint)
    if over.kind == "unknown words":
        message = (
            f"this line has too many words pbm does not know ({over.count}; it tries readings "
            f"without at most {MAX_UNKNOWN}), so it was not read"
        )
    else:
        message = (
            "pbm tried as many readings of this line as it tries of one line and none was an "
            "order it could act on, so it was not read"
        )
    return InvalidOrder(
        message,
        source_line=cl.raw,
        span=Span(cl.number, cl.column(0), cl.column(max(len(cl.text), 1))),
        hint=_PLAINLY,
    )

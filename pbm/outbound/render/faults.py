"""An order error as a reader's client can show it: its words apart from the player's line and
the caret row under the word at fault (``engine.errors.OrderError.__str__``, lark's manner).

A caret row points at its word only in a fixed font on a line that does not wrap: the text
part keeps it (the player's line and its caret stand as fixed lines, together), while the
error's words are prose, flowed like any paragraph. The HTML twin marks the word itself in
the player's line instead, so the mark moves with its word wherever a phone or Outlook
wraps the line, and no caret row can land under another word.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbm.outbound.render.wrap import wrap

__all__ = ["Fault", "fault", "fault_text"]

# a caret row: blanks to the column, then one caret a character of the span
_CARETS = re.compile(r"( *)(\^+)")


@dataclass(frozen=True, slots=True)
class Fault:
    """``prose``: the error's lines of words (the message, then any hint), one paragraph
    each. ``code`` and ``carets``: the player's line and its caret row, as written ("" when
    the error points at no line); ``before``, ``at`` and ``after`` part ``code`` around the
    characters the carets stand under (past the line's end, where something is missing,
    ``at`` is ``^`` and ``before`` the line and a space)."""

    prose: tuple[str, ...]
    code: str = ""
    carets: str = ""
    before: str = ""
    at: str = ""
    after: str = ""


def fault(value: object) -> Fault:
    """The error text ``value`` (``str()`` of an order error, or any other error's words)
    parted into its prose and, when its last line is a caret row, the line it points into."""
    lines = str(value).rstrip("\n").split("\n")
    found = _CARETS.fullmatch(lines[-1]) if len(lines) >= 2 else None
    if found is None:
        return Fault(prose=tuple(line for line in lines if line.strip()))
    code, col, end = lines[-2], len(found[1]), found.end()
    at = code[col:end]
    return Fault(
        prose=tuple(line for line in lines[:-2] if line.strip()),
        code=code,
        carets=lines[-1],
        # past the line's end, a caret a space after it: it marks no word
        before=code[:col] if at else code + " ",
        at=at or "^",
        after=code[end:],
    )


def fault_text(value: object) -> str:
    """The error text ``value`` as the text part shows it: its words as paragraphs at the
    margin (flowed while a mail renders, so a proportional font reads them as prose), then
    the player's line and its caret row, two in and together, so a fixed font shows the
    caret under its word. The blank line between keeps the words out of the fixed lines'
    block (:func:`pbm.mail.flowed.flow` stuffs a block whole): a reader that does not flow
    shows them at the margin too."""
    f = fault(value)
    out = [wrap(p) for p in f.prose]
    if f.code:
        out += ["", "  " + f.code, "  " + f.carets]
    return "\n".join(out)

"""A squad member written in a line and missing from its reading: a silent misread caught.

A line read for its meaning keeps what carries an order and lets the rest pass. A squad
member's name may carry one: "Root 3 with Stokes" read as "Joe Root bowls over 3" has
dropped Stokes, and what "with Stokes" meant (sharing the over? batting together?) is not
for pbm to guess. So a name the line writes, outside a clause passed over with a note, is in
the reading or is told: joined to numbers already given ("3 with Stokes", "1-4 & Stone"), it
may share them, and the line is refused; anywhere else ("at the other end to Stone", "our
last three, Warne, Anderson and Stone" beside "the top 8") it is a reference, and the reading
stands with a note naming it, so the player sees it before the deadline.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from engine.errors import InvalidOrder, Span
from engine.flungo.language._grammar import keywords
from engine.flungo.language._lines import CleanLine
from engine.flungo.language._model import EchoLine, NotUnderstood
from engine.flungo.language._state import ReadState

# the little words a dropped name is said with ("with Stokes", "w/ Stokes", "and Stokes")
_LEAD = re.compile(r"(?:\b(?:with|w/|and|alongside|plus|&)\s+)?$")


# the words that start one order and no other, and the word its echo writes
_ORDER_WORDS = {
    "toss": "toss",
    "captain": "captain",
    "skipper": "captain",
    "wicketkeeper": "wicketkeeper",
    "keeper": "wicketkeeper",
    "reviews": "reviews",
    "treatment": "treat",
    "boost": "boost",
}
_ORDER_WORD = re.compile(rf"(?<![\w'])(?:{'|'.join(_ORDER_WORDS)})(?![\w'])", re.I)


def lost_name(
    text: str, echo: str, protect: frozenset[str], passed: tuple[str, ...]
) -> tuple[str, int, bool] | None:
    """The words (as written in ``text``) around the squad names ``text`` writes that
    ``echo`` (the reading, canonical words) does not hold, and where they start; None when
    every name is read; and whether one is joined to numbers given just before it (then
    that one alone). ``passed``: what was passed over with a note (its names are told)."""
    lost = list(_lost(text, echo, protect, passed))
    joined = [x for x in lost if x[2]]
    if not lost:
        return None
    if joined or len(lost) == 1:
        return (joined or lost)[0]
    return "', '".join(w for w, _, _ in lost), lost[0][1], False


def _lost(
    text: str, echo: str, protect: frozenset[str], passed: tuple[str, ...]
) -> Iterator[tuple[str, int, bool]]:
    if not echo.strip():
        return  # orders the mail's other lines complete ("the rest"): said later
    low_echo = echo.lower()
    told = " ".join(passed).lower()
    for m in re.finditer(r"[A-Za-z][\w']*", text):
        word = m.group(0)
        low = word.lower()
        if low not in protect or low in keywords() or len(low) < 3:
            continue  # "and" of Ant and Dec is the order's "and"
        if not word[0].isupper():
            continue  # "the pitch is green": a colour, unless it is written as a name
        if re.search(rf"(?<![\w']){re.escape(low)}(?![\w'])", low_echo + " " + told):
            continue
        lead = _LEAD.search(text[: m.start()])
        start = lead.start() if lead is not None and lead.group(0) else m.start()
        joined = start < m.start() and bool(re.search(r"\d\s*$", text[:start]))
        yield text[start : m.end()], start, joined
    for m in _ORDER_WORD.finditer(text):
        # a word only an order of its own has ("win the toss, bat; Stokes wahoo" read as
        # Stokes alone): the reading that lacks its order has left one out
        if _ORDER_WORDS[m.group(0).lower()] not in low_echo and m.group(0).lower() not in told:
            yield m.group(0), m.start(), False


def refuse_lost(cl: CleanLine, lost: tuple[str, int, bool], read: str, st: ReadState) -> bool:
    """Refuse a line whose reading dropped a squad member joined to its numbers, the caret
    under the words, telling the player (and the GM) what pbm would read without them; any
    other dropped name is noted (False: the reading stands)."""
    words, at, joined = lost
    if not joined:
        st.notes.append(EchoLine(cl.number, f"read without '{words}'"))
        return False
    message = f"I can't tell what '{words}' means in this order, so this line is not acted on"
    hint = "without it, pbm reads: " + read.replace("\n", " / ")
    span = Span(cl.number, cl.column(at), cl.column(at + len(words)))
    st.errors.append(InvalidOrder(message, source_line=cl.raw, span=span, hint=hint))
    reason = f"{message}; {hint}"
    st.not_understood.append(NotUnderstood(cl.number, cl.raw.strip(), reason, (read,)))
    return True

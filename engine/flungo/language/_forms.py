"""Line forms read before the grammar: a part given afresh ("new bowling plan:"), a quota of
overs for a bowler (refused with what to write instead), selection orders run together."""

from __future__ import annotations

import re
from dataclasses import replace

from engine.errors import InvalidOrder, Span
from engine.flungo.language._lines import CleanLine
from engine.flungo.language._names import NameBook

__all__ = ["NEW_WHOLE", "fresh_part", "quota_error", "split_selection"]


# "new bowling plan:", "a fresh batting order -", "brand new styles": the part that follows
# is given afresh, whole, instead of changing only the overs or batsmen it names.
_FRESH = re.compile(
    r"(?:(?:a|my|our|the)\s+)?(?:(?:brand|whole|completely|entirely|all)[\s-]+)?"
    r"(?:new|fresh|replacement|different)\s+"
    r"(?P<part>bowling(?:\s+(?:plan|orders?))?|bowlers|plan|"
    r"batting\s+order|order|(?:batting\s+)?styles)\b"
    r"|replace\s+(?:(?:all\s+)?(?:my|our|the)\s+)?"
    r"(?P<part2>bowling(?:\s+(?:plan|orders?))?|batting\s+order|(?:batting\s+)?styles)"
    r"(?:\s+with)?\b"
    r"|(?P<part3>bowling(?:\s+plan)?|batting\s+order|(?:batting\s+)?styles)"
    r"\s+(?:afresh|from\s+scratch|anew)\b",
    re.IGNORECASE,
)
_FRESH_SEP = re.compile(r"\s*(?:[:=-]|\bis\b|\bas\s+follows\b)*\s*", re.IGNORECASE)
# What the rest of the line is read as: the part's own heading.
_FRESH_HEADING = {"plan": "bowlers: ", "order": "batting order: ", "styles": "styles: "}


# "new XI: ...", "new captain: ...": parts that are always given whole; "new" says nothing
# more, and is read past.
NEW_WHOLE = re.compile(
    r"(?:a\s+)?new\s+(?=(?:xi|playing\s+xi|eleven|captain|skipper|wicketkeeper|keeper|"
    r"(?:batting\s+|bowling\s+)?reviews)\b)",
    re.IGNORECASE,
)


def fresh_part(cl: CleanLine) -> tuple[CleanLine, str] | None:
    """A line that gives a part afresh: the line as its heading and entries, and the part
    (``plan``, ``order`` or ``styles``); ``None`` for any other line."""
    m = _FRESH.match(cl.text)
    if m is None:
        return None
    word = (m.group("part") or m.group("part2") or m.group("part3")).lower()
    part = "styles" if "styles" in word else "order" if word.endswith("order") else "plan"
    if word.startswith(("bowling", "bowlers", "plan")):
        part = "plan"  # "bowling order" is the bowling plan
    sep = _FRESH_SEP.match(cl.text, m.end())
    rest = cl.text[sep.end() if sep else m.end() :]
    head = _FRESH_HEADING[part]
    at = cl.offset + len(cl.text) - len(rest)
    # the heading stands in for the player's words: its columns are those before the rest
    text = head + rest if rest else head.rstrip(" ")
    return replace(cl, text=text, plain=text, offset=at - len(head)), part


# "Anderson to bowl 4 overs", "Warne will bowl 10 overs max": a number of overs for a bowler.
_QUOTA = re.compile(
    r"^(?P<who>.+?)\s*:?\s+(?:(?:is\s+|are\s+)?to\s+bowl|will\s+bowl|should\s+bowl|can\s+bowl|"
    r"bowls?|gets?|takes?)?\s*(?P<n>\d{1,2})\s+(?:overs?|sets?)"
    r"(?:\s+(?:max(?:imum)?|at\s+most|only|in\s+all|each|apiece))?$",
    re.IGNORECASE,
)


def quota_error(cl: CleanLine, own: NameBook) -> InvalidOrder | None:
    """A quota of overs ("Anderson to bowl 4 overs") is not an order the match can follow
    (the plan names each over), so it is refused with what to write instead."""
    m = _QUOTA.match(cl.text)
    if m is None:
        return None
    who = m.group("who")
    names = [n for n in re.split(r"\s*(?:,|&|\band\b)\s*", who) if n]
    if not names or not all(own.candidates(n) for n in names):
        return None
    count = m.group("n")
    return InvalidOrder(
        f"a number of overs for a bowler ('{count} overs') is not an order I can follow",
        source_line=cl.raw,
        span=Span(cl.number, cl.column(0), cl.column(len(cl.text))),
        hint=f"name the overs, e.g. '{names[0]} bowls overs 1, 3, 5, 7'",
    )


# "captain Root, keeper Wilson, toss bat": selection orders run together on one line.
_SELECTION = (
    r"(?:captain|capt\.?|skipper|keeper|wicketkeeper|wicket-keeper|wicket\s+keeper|wk|toss)\b"
)
_SELECTION_START = re.compile(_SELECTION, re.IGNORECASE)
_SELECTION_SPLIT = re.compile(r"\s*[,;]\s*(?=" + _SELECTION + ")", re.IGNORECASE)


def split_selection(cl: CleanLine) -> list[CleanLine]:
    """The parts of a line of selection orders separated by commas, each as its own line."""
    if not _SELECTION_START.match(cl.text):
        return [cl]
    parts: list[CleanLine] = []
    start = 0
    for m in _SELECTION_SPLIT.finditer(cl.text):
        parts.append(replace(cl, text=cl.text[start : m.start()], offset=cl.offset + start))
        start = m.end()
    parts.append(replace(cl, text=cl.text[start:], offset=cl.offset + start))
    return parts

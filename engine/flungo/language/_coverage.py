"""Every squad member a line names is said by its reading, or the line is refused.

A reading for meaning keeps the parts of a line it understands; a squad member in a part it
let go ("Warne 4, Freddie 4, Anderson 4, Grey 4 and Stone the rest" read as Grey's and Stone's
overs alone) would be a silent misread, which issue 24 forbids. So, last, a line's reading is
held against the squad members the line names: one the reading never mentions, and whom no
word of exclusion stands before ("all aggressive except Root", "Rock in for Tom Smith"), makes
the line refused, the name under the caret, with the reading pbm made of the rest. So does
a line that gives one over to two bowlers, of which a later part would otherwise win.
"""

from __future__ import annotations

import re

from engine.errors import InvalidOrder, Span
from engine.flungo.language._build import echo_lines
from engine.flungo.language._items import Item
from engine.flungo.language._lines import CleanLine
from engine.flungo.language._meaning import name_runs
from engine.flungo.language._names import NameBook
from engine.flungo.orders import MatchOrders

__all__ = ["unsaid_error"]

# the words that name a squad member to leave him out, or only as a reference ("at the other
# end to Stone", "with Rock first"), just before the name (up to two
# words between: "except for young Root", "instead of Green")
_LEAVES_OUT = re.compile(
    r"\b(except|excepting|but|bar|barring|apart|other\s+than|not|nor|without|instead|save|"
    r"excluding|exclude|drop|dropped|dropping|rest|resting|replace|replaces|replacing|"
    r"replaced|for|out|minus|omit|omitted|leave|leaving|left|to|with|alongside|than|like|"
    r"partnering|behind|after|before|from)\b\W+(?:\w+\W+){0,2}$",
    re.IGNORECASE,
)

_WORD = re.compile(r"[\w']+")

# a squad member's name that is an English word too ("Green", "Stone"), written in lower
# case just after an article, a copula or a degree word, is that word
_AS_A_WORD = re.compile(r"\b(?:a|an|the|is|are|looks|look|very|too|so|bit|more|less)\s+$")

# ... or just after it: "Taylor sits out", "Moss on the bench"
_STAYS_OUT = re.compile(
    r"\W+(?:is\s+|to\s+be\s+|will\s+|can\s+|may\s+|should\s+|must\s+)?(?:sits?|sitting|"
    r"rests?|rested|misses|miss|dropped|benched|on\s+the\s+bench|not|out|twelfth|12th|carry|"
    r"carries|carrying|fetch|fetches|bring|brings|drinks)\b",
    re.IGNORECASE,
)


def unsaid_error(
    cl: CleanLine,
    own: NameBook,
    protect: frozenset[str],
    items: list[Item],
    standing: MatchOrders | None,
) -> InvalidOrder | None:
    """The refusal of a line whose reading (``items``) leaves out a squad member it names
    (a run of name words, as :func:`name_runs` finds them), or None when every one is said
    or left out on purpose."""
    if not items:
        return None
    if (twice := _over_twice(cl, items)) is not None:
        return twice
    text = cl.text.lower()
    name_words = set(_WORD.findall(text)) & protect
    if not name_words:
        return None  # no name word: nobody to leave out (the values are not even made)
    # most lines: every name word the line writes is in what the reading holds (its values
    # name their players), and nothing more is asked
    values = " ".join(repr(i.value) for i in items).lower()
    if all(w in values for w in name_words):
        return None
    said = " / ".join(t for _, t in echo_lines(items, standing))
    # a part said only with the mail's other lines (a batting place, "the rest") has no echo
    # of its own yet: its value names its players
    low = said.lower() + " " + values
    missing: list[tuple[int, str]] = []
    for run in name_runs(text, protect, own.names):
        meant = own.candidates(run)
        if len(run) < 3 or not meant or any(n.lower() in low for n in meant):
            continue
        at = text.find(run)
        before, after = text[:at], text[at + len(run) :]
        if at < 0 or _LEAVES_OUT.search(before) or _STAYS_OUT.match(after):
            continue
        if cl.text[at].islower() and _AS_A_WORD.search(before):
            continue  # "the pitch is green", "a green top": the word, not the man
        missing.append((at, cl.text[at : at + len(run)]))
    if not missing:
        return None
    at, written = missing[0]
    others = "', '".join(w for _, w in missing[1:])
    also = f" (and '{others}')" if others else ""
    return InvalidOrder(
        f"pbm reads this line as '{said}', which leaves out '{written}'{also}",
        source_line=cl.raw,
        span=Span(cl.number, cl.column(at), cl.column(at + len(written))),
        hint="say what each player named does, one order a line if need be",
    )


def _over_twice(cl: CleanLine, items: list[Item]) -> InvalidOrder | None:
    """One line that gives one over to two bowlers ("Warne 4, Freddie 4": four overs each,
    or over 4?) says two things at once: refused, never the last of them kept."""
    bowler_of: dict[int, str] = {}
    for item in items:
        if item.kind != "plan":
            continue
        over, bowler = item.value
        first = bowler_of.setdefault(over, bowler)
        if first != bowler:
            return InvalidOrder(
                f"this line gives over {over} to both {first} and {bowler}",
                source_line=cl.raw,
                span=Span(cl.number, cl.column(0), cl.column(len(cl.text))),
                hint="give each over to one bowler; for a number of overs say 'Warne bowls"
                " 4 overs' or give the overs, e.g. 'Warne bowls overs 1, 3, 5, 7'",
            )
    return None

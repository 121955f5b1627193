"""Forms of a plan line put in the plan's words before ``_plans`` cuts it into tokens.

Three forms a captain uses that are about the shape of the line, not its words:

* names joined by a sign: "Stone + Green", "Stone/Green" (how people write a pair in a list
  or a note) are "Stone and Green";
* the two ends: "Warne from one end, Flintoff from the other" (cricket's ends, the pitch's
  two): a pair bowling in turn, "Warne and Flintoff from both ends". A kind of bowler said of
  the second ("Anderson spin from the other end") describes him and is let pass;
* one over each, in the order written: "the last four overs Warne, Rock, Warne, Flintoff",
  "overs 17-20: Warne, Rock, Warne and Flintoff in that order" (a span and as many names as
  it has overs): each name the next over, written as each bowler's own overs.

Each is a rewrite of the text; what it cannot make plain it leaves as written, and the line is
then read (or refused) as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.flungo.language._chatter import number_words

__all__ = ["ends", "in_order", "joined"]

# "+" or "/" between two words: a pair written in a list or a note, never a score here (a
# score has digits on both sides)
_SIGN = re.compile(r"(?<=[a-z])\s*[+/]\s*(?=[a-z])")


# "a 5-over spell", "a four-over burst": a compound adjective of a count and its unit
_COMPOUND = re.compile(r"(?<![\w'])(\w+)-(?=overs?\b)")


def joined(text: str) -> str:
    """``text`` with "Stone + Green", "Stone/Green" as "Stone and Green", "5-over" and
    "four-over" as "5 over" and "4 over"."""
    return _COMPOUND.sub(lambda m: number_words(m.group(1)).strip() + " ", _SIGN.sub(" and ", text))


def _names(names: Iterable[str]) -> str:
    """The names as one alternation, longest first, whole words."""
    alts = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True) if len(n) > 1)
    return rf"(?<![\w'])(?:{alts})(?![\w'])" if alts else r"(?!x)x"


# a kind of bowler said of a named one ("Anderson spin", "Stone the quick"), from cricket's
# vocabulary (the same kinds ``_plans`` names a squad's bowlers by)
_KIND = r"(?:\s+(?:the\s+)?(?:spin|spinner|pace|paceman|quick|seam|seamer|swing|tweaker))?"
_ONE_END = r"\s+(?:from|at)\s+(?:the\s+)?(?:one|1)\s+end"
_OTHER_END = r"\s+(?:(?:from|at)\s+)?(?:the\s+)?other(?:\s+end)?(?![\w'])"


# said before the names' pattern is made (a pattern of the line's names costs a compile)
_ONE_END_CUE = re.compile(r"(?<![\w'])(?:one|1)\s+end(?![\w'])")


def ends(text: str, names: Iterable[str]) -> str:
    """ "Warne from one end and Flintoff from the other" as "Warne and Flintoff from both
    ends": the pair bowling in turn, the first named first."""
    if _ONE_END_CUE.search(text) is None:
        return text
    n = _names(names)
    pattern = re.compile(
        rf"(?P<a>{n}){_KIND}{_ONE_END}\s*(?:,\s*)?(?:and\s+)?(?P<b>{n}){_KIND}{_OTHER_END}"
    )
    return pattern.sub(lambda m: f"{m.group('a')} and {m.group('b')} from both ends", text)


_SPAN = (
    r"(?:(?:the\s+)?(?P<last>last|final)\s+(?P<l>\d{1,3})(?:\s+overs)?"
    r"|(?:the\s+)?first\s+(?P<f>\d{1,3})(?:\s+overs)?"
    r"|(?:overs?\s+)?(?:the\s+)?(?P<a>\d{1,3})(?:st|nd|rd|th)?\s*(?:to|-|–|through|thru)\s*"
    r"(?:the\s+)?(?P<b>\d{1,3})(?:st|nd|rd|th)?(?:\s+overs)?)"
)
_SPAN_RE = re.compile(_SPAN)
_IN_ORDER = r"(?:\s*,?\s*(?:in\s+(?:that|this|the\s+same)\s+order|respectively|in\s+order))"


def _span(m: re.Match[str], overs: int) -> tuple[int, int]:
    if m.group("l"):
        return overs - int(m.group("l")) + 1, overs
    if m.group("f"):
        return 1, int(m.group("f"))
    return int(m.group("a")), int(m.group("b"))


def in_order(text: str, names: Iterable[str], overs: int) -> str:
    """ "the last 4 overs warne, rock, warne, flintoff" as "warne 17 and 19, rock 18, flintoff
    20": a span followed by as many names as it has overs (or the names, then the span and
    "in that order") is one over each, in the order written."""
    names = list(names)
    if not any(
        len(names) >= _span(m, overs)[1] - _span(m, overs)[0] + 1 >= 2
        for m in _SPAN_RE.finditer(text)
    ):
        return text  # no span with as many names as overs: no sequence to read
    n = _names(names)
    listed = rf"(?P<who>{n}(?:\s*,\s*(?:and\s+)?{n}|\s+and\s+{n})+)"
    # the list must end where the match does: "overs 17-20: a, b, a, c, d" is no sequence
    end = rf"(?=\s*(?:$|[,;]))(?!\s*,?\s*(?:and\s+)?{n})"
    after = re.compile(rf"{_SPAN}\s*:?\s*(?:bowled\s+by\s+)?{listed}{_IN_ORDER}?{end}")
    before = re.compile(rf"{listed}\s+(?:(?:to\s+)?bowl\s+|take\s+)?{_SPAN}{_IN_ORDER}{end}")
    name = re.compile(n)

    def each(m: re.Match[str]) -> str:
        a, b = _span(m, overs)
        who = name.findall(m.group("who"))
        if not 1 <= a <= b <= overs or len(who) != b - a + 1 or len(who) < 2:
            return m.group(0)
        theirs: dict[str, list[int]] = {}
        for over, bowler in zip(range(a, b + 1), who, strict=True):
            theirs.setdefault(bowler, []).append(over)
        return ", ".join(f"{w} " + " and ".join(map(str, os)) for w, os in theirs.items())

    return before.sub(each, after.sub(each, text))

"""Overs and wickets said the way fans say them, in the grammar's words (units of an order)."""

from __future__ import annotations

import re

from engine.flungo.language._clauses import ordinal

__all__ = ["down_words", "units"]

_DIGIT = re.compile(r"\d")


def units(text: str) -> str:
    """Overs and wickets said the way fans say them, in the grammar's words: "the 6th goes"
    (a wicket), "at over 15" (after 14), "before over 8" (an "if" on the overs bowled),
    "till 40" (until after 40 overs)."""
    if not _DIGIT.search(text):
        return text  # every form here counts overs or wickets
    text = re.sub(
        r"(?<![\w'])(\d{1,2}(?:st|nd|rd|th))\s+(?:wicket\s+)?goes(?![\w'])",
        r"\1 wicket falls",
        text,
    )
    # "goes above 10", "climbs over 7": a number rising or falling past a mark
    text = re.sub(
        r"(?<![\w'])(?:goes|gets|climbs|rises|falls|drops|creeps)\s+(?=(?:above|over|below|under)\s+\d)",
        "",
        text,
    )
    # "treat Rock with 2 points", "2 points to treat Rock": the helper's order
    text = re.sub(
        r"^treat\s+(?P<who>[a-z][\w' ]*?)\s+with\s+(?P<n>\d)\s+(?:helper\s+)?points?$",
        r"treat \g<who>: \g<n>",
        text,
    )
    text = re.sub(
        r"^(?P<n>\d)\s+(?:helper\s+)?points?\s+(?:to|on|for)\s+(?:the\s+physio\s+for\s+|treat\s+)?"
        r"(?P<who>[a-z][\w' ]*?)(?:\s+injury)?$",
        r"treat \g<who>: \g<n>",
        text,
    )
    # "last one on Stokes's batting", "1 point on Anderson bowling": a boost is one point
    # (two on one member is no boost, so it is left to be refused)
    text = re.sub(
        r"^(?:boost\s*:?\s*)?(?:(?:the\s+)?(?:last|remaining|final|other)\s+1|1)\s+(?:helper\s+)?"
        r"(?:points?\s+)?(?:on|to|for)\s+(?:boost\s+)?(?P<who>[a-z][\w' ]*?)(?:'s)?\s+"
        r"(?P<stat>batting|bowling|fielding)$",
        r"boost \g<who>: \g<stat>",
        text,
    )
    # "when we have lost 5 wickets": the 5th wicket falling
    text = re.sub(
        r"(?<![\w'])(?:when|once|as\s+soon\s+as)\s+we\s+(?:have\s+)?lost\s+(\d{1,2})\s+wickets?(?![\w'])",
        lambda m: f"when the {ordinal(int(m.group(1)))} wicket falls",
        text,
    )
    # "until over 10, Root defensive": the order, until then
    text = re.sub(
        r"^until\s+(?:over\s+)?(\d{1,3})(?:\s+overs)?\s*,?\s+(?P<rest>.+)$",
        r"\g<rest> until \1",
        text,
    )
    # "50 needed off 30 balls": what we need; "after 10," at a clause's end: overs
    text = re.sub(
        r"(?<![\w'])(\d{1,3})\s+(?:runs\s+)?needed\s+(?=off|from|in)", r"we need \1 ", text
    )
    text = re.sub(r"(?<![\w'])after\s+(\d{1,3})(?=\s*[,:]|$)", r"after \1 overs", text)
    # "with 10 left", "10 overs to go": overs left, unless balls are said
    text = re.sub(
        r"(?<![\w'])(\d{1,2})(?:\s+overs)?\s+(?:left|to\s+go|remaining|still\s+to\s+come)(?![\w'])",
        r"\1 overs left",
        text,
    )
    # "lose 3 inside the first 10", "2 wickets in the first 10" (a scorer's "2 wkts in the
    # pp"): the wicket, while the overs are fewer
    text = re.sub(
        r"(?<![\w'])(?:if\s+|should\s+)?(?:we\s+)?(?:(?:we're\s+|we\s+are\s+)?(?=\d{1,2}\s+(?:wickets?|down))|lose\s+)"
        r"(?P<n>\d{1,2})(?:\s+wickets?)?(?:\s+down)?\s+"
        r"(?:in|inside|within)\s+the\s+first\s+(?P<m>\d{1,3})(?:\s+overs)?(?![\w'])(?:\s+and)?",
        lambda m: f"when the {ordinal(int(m.group('n')))} wicket falls, if overs < {m.group('m')},",
        text,
    )
    text = re.sub(
        r"(?<![\w'])at\s+over\s+(\d{1,3})(?![\w'])",
        lambda m: f"after {int(m.group(1)) - 1} overs",
        text,
    )
    if not re.search(r"\d\s+(?:wickets\s+)?down(?![\w'])", text):
        # "if 7 down before over 16" reads two ways (down before the 16th; down, checked
        # at the 16th): only a trigger that is an event itself takes the "before"
        text = re.sub(
            r"\s*(?<![\w'])before\s+(?:over\s+(?P<a>\d{1,3})|the\s+(?P<b>\d{1,3})(?:st|nd|rd|th)"
            r"\s+over|(?P<c>\d{1,3})\s+overs)(?![\w'])",
            _overs_before,
            text,
        )
    return re.sub(
        r"(?<![\w'])until\s+(\d{1,3})(?!\d|st\b|nd\b|rd\b|th\b)"
        r"(?!\s*(?:overs?|balls?|wickets?|runs?|down|an|for|or)(?![\w']))",
        r"until after \1 overs",
        text,
    )


def _overs_before(m: re.Match[str]) -> str:
    """ "before over 8" is before its first ball (under 7 bowled); "before 30 overs", under 30."""
    if m.group("c"):
        return f", if overs < {m.group('c')}"
    return f", if overs < {int(m.group('a') or m.group('b')) - 1}"


def down_words(text: str) -> str:
    """ "2 down or less" is "2 or fewer down"; "at 6 down" is when the 6th wicket falls;
    "if we be 5 wickets down" (the "should we be" of a formal letter) is "if 5 wickets down"."""
    if not _DIGIT.search(text):
        return text
    text = re.sub(r"(?<![\w'])if\s+we\s+be\s+(?=\d{1,2}\s+(?:wickets\s+)?down)", "if ", text)
    # "8 or 9 down": 8 or more (a 10th wicket ends the innings)
    text = re.sub(
        r"(?<![\w'])(\d)\s+or\s+(\d{1,2})\s+(?=(?:wickets\s+)?down(?![\w']))",
        lambda m: (
            f"{m.group(1)} or more " if int(m.group(2)) in (int(m.group(1)) + 1, 9) else m.group(0)
        ),
        text,
    )
    # "6 wickets gone", "3 wickets lost": so many down; "when 6 down": the 6th falling
    text = re.sub(r"(?<![\w'])(\d{1,2})\s+wickets?\s+(?:gone|lost)(?![\w'])", r"\1 down", text)
    text = re.sub(
        r"(?<![\w'])when\s+(?:we're\s+|we\s+are\s+)?(\d{1,2})\s+(?:wickets\s+)?down(?![\w'])",
        lambda m: f"when the {ordinal(int(m.group(1)))} wicket falls",
        text,
    )
    text = re.sub(
        r"(?<![\w'])(?P<cmp>less|fewer|more)\s+than\s+(?P<n>\d{1,2})\s+(?:wickets\s+)?down(?![\w'])",
        lambda m: f"wickets {'>' if m.group('cmp') == 'more' else '<'} {m.group('n')}",
        text,
    )
    # "after 10 overs with 2 or fewer down": the wickets are a condition
    text = re.sub(
        r"\s*(?<![\w'])with\s+(?=\d{1,2}\s+(?:or\s+(?:fewer|more)\s+)?(?:wickets\s+)?down)",
        ", if ",
        text,
    )
    text = re.sub(r"^(\d{1,2})\s+down\s+(?=(?:after|at)\s)", r"if \1 down ", text)
    # "if 4 down at drinks": the time first, then the wickets it looks at
    text = re.sub(
        r"(?<![\w'])if\s+(?P<n>\d{1,2})\s+(?:wickets\s+)?down\s+(?P<when>at\s+drinks|after\s+\d{1,3}\s+overs)"
        r"(?![\w'])",
        r"\g<when>, if wickets >= \g<n>",
        text,
    )
    text = re.sub(
        r"(?<![\w'])(\d{1,2})\s+down\s+(or\s+(?:fewer|more))(?![\w'])", r"\1 \2 down", text
    )
    return re.sub(
        r"(?<![\w'])at\s+(\d{1,2})\s+down(?![\w'])",
        lambda m: f"when the {ordinal(int(m.group(1)))} wicket falls",
        text,
    )

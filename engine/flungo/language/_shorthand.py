"""Shorthand, symbols and compact counts, put into words before a line is read for meaning.

Fans write orders the way scorecards, commentary and office mail do: "ovs 31-40", "3w",
"50r off 30b", "RR < 5", "2 wkts -> Root defensive", "Stone/Green", "Stone + Green",
"180+", "Root @ 3", "~100". This pass (run on a line the canonical words do not read, in
lower case, numbers already digits) says each in the words the reader already reads, or in a
word the reader refuses by name where the model cannot say it ("~100": approx). It never
guesses a comparison's direction: "<" stays "<", ">" stays ">", "=>" and "=<" before a
number are ">=" and "<=" as a keyboard writes them, and a sign whose direction is unsure is
left for the reader to refuse. Its abbreviations are data: the lexicon's ``[shorthand]``
section (sources in its comments). The decisions are in ``docs/rules/orders-shorthand.md``.
"""

from __future__ import annotations

import importlib.resources
import re
import tomllib

__all__ = ["shorthand", "written_as"]


def _load() -> dict[str, str]:
    text = importlib.resources.files(__package__).joinpath("lexicon.toml").read_text("utf-8")
    return dict(tomllib.loads(text)["shorthand"])


# Constants of the package, read at import like the lexicon (_meaning), never changed.
_WORDS = _load()
_WORD_RE = re.compile(
    r"(?<![\w'/])(?:"
    + "|".join(re.escape(w) for w in sorted(_WORDS, key=lambda w: (-len(w), w)))
    + r")(?![\w'/-])"
)

# Typography for the same marks: arrows, comparison signs, multiplication
_TYPE = str.maketrans(
    {"–": "-", "→": "\x03", "⇒": "\x03", "➔": "\x03", "≥": "\x01", "≤": "\x02", "×": "x"}
)
_ARROW = re.compile(r"\s*(?:-+>|=+>(?!\s*\d)|>>+|\x03)\s*")
# "=>" and "=<" before a number: ">=" and "<=" typed the other way round
_GE = re.compile(r"=>\s*(?=\d)|\x01")
_LE = re.compile(r"=<\s*(?=\d)|\x02")
# compact counts: a number joined to a scorecard's letter ("3w", "50r", "30b", "10ov")
_JOINED = re.compile(r"(?<![\w.])(\d{1,3})(ovs?|overs?|o|wkts?|wks?|w|r|runs|b|balls)(?![\w'])")
_JOINED_UNITS = {
    "o": "overs",
    "ov": "overs",
    "ovs": "overs",
    "over": "overs",
    "overs": "overs",
    "w": "wickets",
    "wk": "wickets",
    "wks": "wickets",
    "wkt": "wickets",
    "wkts": "wickets",
    "r": "runs",
    "runs": "runs",
    "b": "balls",
    "balls": "balls",
}
# a unit after a number and a space: "3 w", "10 o" (one letter, so only after a number)
_SPACED = re.compile(
    r"(?<![\w.])(\d{1,3})\s+(o|ovs?|w|wks?|wkts?)(?![\w'/&+-])"
    r"(?!\s*(?:[:)\]]|-\s|game|match|format|one))"  # "50 ov:", "(20 ov)": a format's name
)
# a rate compared in words ("RR below 4.5", "rrr over 8"): the sign, its direction as said
_RATE_CMP = re.compile(
    r"(?<![\w'])(?P<rate>rrr|rr|crr|req\s+rate)\s+"
    r"(?:is\s+|goes\s+|gets\s+)?(?P<cmp>below|under|less\s+than|lower\s+than|above|over|more\s+than|"
    r"higher\s+than|greater\s+than)\s+(?=\d)"
)
_RATE_UNIT = re.compile(
    r"(?<![\w'])((?:rrr|rr|crr|run\s+rate|required\s+rate|req\s+rate)\s*(?:[<>]=?|=)\s*\d{1,2}(?:\.\d+)?)"
    r"\s+(?:an|a|per)\s+over(?![\w'])"
)
_BELOW = ("below", "under", "less", "lower")
_ORDINAL_RANGE = re.compile(
    r"(?<![\w'])(?:the\s+)?(\d{1,3})(?:st|nd|rd|th)\s*(?:-|–|to)\s*(?:the\s+)?(\d{1,3})(?:st|nd|rd|th)"
    r"(?:\s+overs?)?(?![\w'])"
)
_DASH_PAIR = re.compile(
    r"(?<![\w./-])(?P<lead>(?:overs?|ovs?)\s+)?(?P<a>\d{1,3})-(?P<b>\d{1,3})(?![\w./-])"
)
_BARE_WINDOW = re.compile(
    r"(?<![\w'])(first|last)\s+(\d{1,3})(?=\s*(?:[,:;)]|\.(?!\d)|\x03|->|=|$))"
)
# "need 50 off 30": runs off balls, as commentary says them
_OFF = re.compile(
    r"(?<![\w'])(\d{1,3})(\s+runs)?\s+off\s+(\d{1,3})(?!\s*(?:balls?|overs?|ovs?|b)(?![\w']))"
)
# a range at the line's start before its order: overs, when past a batting order's places
_BARE_RANGE = re.compile(r"^\s*(\d{1,3})\s*(?:-|–|to)\s*(\d{1,3})(?=\s*(?::|\x03|->|=(?!\s*\d)))")
# a form's label and its value ("Capt - Root", "toss = bat", "WK - Wilson"): the order's colon
_LABEL = re.compile(
    r"^(\s*(?:[(\[]?(?:t-?20i?|odi)[)\]]?\s*[:-]?\s+)?)"  # a format's tag before it stays
    r"(capt|captain|skipper|keeper|wicketkeeper|wk|toss|xi|batting\s+order|bowling)\s*(?:[-–=]|\x03)\s*"
)
# a window of overs heading a condition ("ovs 31-40: if 3 down, ..."): the seed's "after 30
# overs, if ...", lasting to the window's end
_WINDOW_FIRST = re.compile(
    r"^\s*(?:in\s+)?(?:overs?|ovs?)\s+(\d{1,3})\s*(?:-|–|to)\s*(\d{1,3})\s*[:,]?\s*(?=if\s)"
)
# "2-down", "3-wkts": a number hyphened to its unit; "6/over", "6 r/o": runs an over; "ovs
# 41+" (never "over 41+", a comparison): from the 41st over on
_HYPHEN_UNIT = re.compile(
    r"(?<![\w.-])(\d{1,3})-(down|up|wkts?|wickets?|overs|ovs?|balls?|runs?)(?![\w'-])"
)
_PER_OVER = re.compile(
    r"(?<![\w.])(\d{1,2}(?:\.\d)?)\s*(?:runs?\s*)?(?:/\s*(?:over|ov|o)|r/o|rpo)(?![\w'/])"
)
_OVERS_ON = re.compile(r"(?<![\w'])(?:overs|ovs|ov)\s+(\d{1,3})\s*\+(?!\s*\d)")
_PLUS_AFTER = re.compile(r"(?<=\d)\s*\+(?!\s*\d)")
_PLUS_BETWEEN = re.compile(r"(?<=[a-z'])\s*\+\s*(?=[a-z])")
_DIGIT = re.compile(r"\d")
_SIGN = re.compile(r"[^\w\s,.':;()\"-]")
_CONNECTIVE = re.compile(r"[-=>\x03]")
_AND = re.compile(r"\s*&\s*")
# not before another ordinal: "1st 3rd n 19th" is a list of overs, not "the first 3"
_FIRST = re.compile(r"(?<![\w'])1st\s+(?=\d+(?!\d|st|nd|rd|th))", re.IGNORECASE)
_TILDE = re.compile(r"[~≈±]\s*")
_CIRCA = re.compile(r"(?<![\w.])(?:c\.|ca\.|circa)\s*(?=\d)")
# signs and marks no order says, as words the reader refuses by name: "not" equal, a share
_UNSAID = (
    (re.compile(r"\s*(?:!=|≠|<>)\s*"), " not "),
    (re.compile(r"\s*%"), " percent "),
    (re.compile(r"½"), " half "),
    (re.compile(r"¼"), " quarter "),
    (re.compile(r"¾"), " quarters "),
)
# the signs in the order they are read: "|" parts two wishes; b/c, w/o, w/, r/r, s/r; "@" is
# at; "~" about; the signs no order says; "†" the keeper's mark
_SIGNS = (
    (re.compile(r"\|"), ";"),
    (re.compile(r"(?<![\w])b/c(?![\w])"), " because "),
    (re.compile(r"(?<![\w])w/o(?![\w])"), " without "),
    (re.compile(r"(?<![\w])w/(?=\s|[a-z])(?!k)"), " with "),
    (re.compile(r"(?<![\w])(?:r/r|c/rr)(?![\w])"), " run rate "),
    (re.compile(r"(?<![\w])s/r(?![\w])"), " sr "),
    (re.compile(r"(?<![\w])p/ship(?![\w])"), " partnership "),
    (re.compile(r"\s*@\s*"), " at "),
    (_TILDE, " approx "),
    *_UNSAID,
    (re.compile(r"†"), " (wk)"),
)
_TIMES = re.compile(r"(?<![\w])(?:x\s?(?P<a>\d{1,2})|(?P<b>\d{1,2})\s?x)(?![\w])")
_SLASH_WORDS = re.compile(r"(?<![\w'/])(?P<a>[a-z][a-z']+)\s*/\s*(?P<b>[a-z][a-z']+)(?![\w'/])")
# a condition's words: a state that an arrow's left side says ("2 wkts in the pp ->")
_GUARDED = re.compile(
    r"^\s*(?:if|when|whenever|once|as\s+soon\s+as|after|at|by|until|till|before|unless|should|"
    r"from|in|with|while|provided)\b"
)
# a state said in words, beside a number: what an arrow or a dash may follow
_STATE_WORD = re.compile(
    r"(?<![\w'])(?:down|out|gone|falls?|lost|wickets?|score|rate|rr|rrr|crr|need|needed|runs|"
    r"up|behind|ahead|left|remaining|to\s+go)(?![\w'])"
)
# a window of overs: a phase, a range, the first or last so many
_WINDOW = re.compile(
    r"(?<![\w'])(?:pp\d?|powerplay|power\s+play|death|middle|mid|(?:first|last)\s+\d{1,3}|"
    r"overs?\s+\d{1,3}|\d{1,3}\s*(?:-|to)\s*\d{1,3})(?![\w'])"
)
_LEFT = re.compile(r"(?<![\w'])(?:left|to\s+go|remaining)(?![\w'])")
_NUMBER = re.compile(r"(?<![\w.])\d")
# a score ("4 for under 80", "120/3"): the reader's rule for scores says its own "if"
_SCORE_FIRST = re.compile(r"\s*\d{1,3}\s*(?:for|/)\s*(?:under|over|less\s+than|more\s+than)?\s*\d")
_STYLE_NEXT = re.compile(r"\s*(?:defensive|normal|aggressive|wahoo)(?![\w'])")
# "3 down before 15 ov? everyone defensive": a state asked, then what follows it, as a note
# writes a condition (the question mark closes it as an arrow would); a question proper
# starts with an auxiliary or a wh-word ("can Root bat 3? ...") and is left as written
_QUERY = re.compile(r"(?P<left>[^,;:?!.]*?)\?+\s+(?=[a-z0-9<>])")
_ASKING = re.compile(
    r"^\s*(?:is|are|am|was|were|do|does|did|can|could|will|would|shall|should|may|might|must|"
    r"have|has|had|what|who|whom|whose|which|why|how|where|any|anyone|anything|ok|okay)\b"
)
_CLAUSE_START = re.compile(r".*(?:^|[,;:]|\.(?=\s))\s*", re.S)
# the last week's orders ("same as last wk") are no wicketkeeper
_WEEK = re.compile(r"(?<![\w'])(last|this|next)\s+wk(?![\w'/])")


def shorthand(text: str, protect: frozenset[str] = frozenset(), overs: int = 50) -> str:
    """``text`` (lower case, numbers as digits) with shorthand and symbols in words;
    ``protect``: the squads' name words, never rewritten (a player called "Ov" stays);
    ``overs``: the overs of an innings of the match (a pair past them is no range)."""
    t = _WEEK.sub(r"\1 week", text.translate(_TYPE))
    digits = _DIGIT.search(t) is not None
    if _SIGN.search(t):  # most lines hold no symbol: their passes are skipped
        t = _GE.sub(">= ", t)
        t = _LE.sub("<= ", t)
        for pattern, said in _SIGNS:
            t = pattern.sub(said, t)
    if digits:
        t = _counts(t, overs)
    if "+" in t or "&" in t:
        t = _PLUS_BETWEEN.sub(" and ", _AND.sub(" and ", t))
    t = _WORD_RE.sub(lambda m: m[0] if m[0] in protect else _WORDS[m[0]], t)
    if "/" in t:
        t = _SLASH_WORDS.sub(lambda m: _slash(m, protect), t)
    if digits:
        t = _RATE_CMP.sub(
            lambda m: f"{m['rate']} {'<' if m['cmp'].startswith(_BELOW) else '>'} ", t
        )
        t = _RATE_UNIT.sub(r"\1", t)  # "RR < 6 an over": a rate is runs an over already
    if "?" in t:
        t = _QUERY.sub(_asked_state, t)
    if _CONNECTIVE.search(t):
        t = _arrows(_LABEL.sub(r"\1\2: ", t))
    return _leading_place(_window_first(t, overs), protect) if digits else t


def _counts(t: str, overs: int) -> str:
    """Numbers in a scorecard's compact forms, in words (see :func:`shorthand`)."""
    t = _FIRST.sub("first ", t)  # "1st 10 ovs": the first ten
    t = _CIRCA.sub(" approx ", t)
    t = _TIMES.sub(
        lambda m: " twice " if (m["a"] or m["b"]) == "2" else f" {m['a'] or m['b']} times ", t
    )
    t = _ORDINAL_RANGE.sub(r"overs \1-\2", t)
    t = _JOINED.sub(lambda m: f"{m[1]} {_JOINED_UNITS[m[2]]}", t)
    t = _SPACED.sub(lambda m: f"{m[1]} {_JOINED_UNITS[m[2]]}", t)
    t = _DASH_PAIR.sub(lambda m: _dash_pair(m, overs), t)
    # "last 5 ->", "first 10:", "41 to 50:": a window's overs, as a scorer leaves them unsaid
    t = _BARE_WINDOW.sub(r"\1 \2 overs", t)
    t = _BARE_RANGE.sub(lambda m: _bare_range(m, overs), t)
    t = _OFF.sub(r"\1\2 off \3 balls", t)
    t = _HYPHEN_UNIT.sub(r"\1 \2", t)
    t = _PER_OVER.sub(r"\1 an over", t)
    t = _OVERS_ON.sub(lambda m: f"after {int(m[1]) - 1} overs", t)
    return _PLUS_AFTER.sub(" or more", t)


def _dash_pair(m: re.Match[str], overs: int) -> str:
    """ "120-3" is a score as scorecards write it (runs, then wickets), "3-120" as an
    Australian does (wickets, then runs, past the innings' overs): "120/3", "3/120", read by
    the reader's rule for scores; "31-40", "1-6", "overs 41-50" stay a range of overs, and
    so does any pair after "overs"."""
    a, b = int(m["a"]), int(m["b"])
    if m["lead"] is None and (b <= 10 < a or a <= 10 < overs < b):
        return f"{a}/{b}"
    return m[0]


def _window_first(text: str, overs: int) -> str:
    m = _WINDOW_FIRST.match(text)
    if m is None or not 1 <= int(m[1]) <= int(m[2]) <= overs or "until" in text:
        return text
    until = "" if int(m[2]) == overs else f" until after {m[2]} overs"
    return f"after {int(m[1]) - 1} overs, {text[m.end() :].rstrip(' .,;')}{until}"


def _bare_range(m: re.Match[str], overs: int) -> str:
    """ "41 to 50:" is overs 41 to 50; "1-6:" may be the top six batsmen, and stays."""
    a, b = int(m[1]), int(m[2])
    return f"overs {a}-{b}" if 11 < b <= overs and a <= b else m[0]


def _slash(m: re.Match[str], protect: frozenset[str]) -> str:
    """ "Stone/Green": two squad members, both (a bowler's pair, two batsmen given one
    order); between other words a slash is "or", which the reader asks or refuses."""
    a, b = m["a"], m["b"]
    if a in protect and b in protect:
        return f"{a} and {b}"
    return f"{a} or {b}"


def _arrows(text: str) -> str:
    """ "2 down -> Root defensive", "Root out = Smith normal": the left says when, the right
    what. A left side that states the game's state with no word of its own to start it is a
    condition ("if 2 down, Root defensive"); one that names only who ("tail -> wahoo",
    "Root = wahoo") is the subject of the style on the right. "=" before a number is a
    comparison ("wickets = 0"), never a connective."""
    t = re.sub(r"\s*(?<![<>=!])=(?![=<>])(?!\s*\d)\s*", " \x03 ", text)
    t = re.sub(r"\s+>\s+(?=[a-z])", " \x03 ", t)
    parts = _ARROW.split(t)
    if len(parts) == 1:
        return _dash(text)
    out = parts[0]
    for right in parts[1:]:
        start = _CLAUSE_START.match(out)
        head = out[: start.end()] if start else ""
        left = out[len(head) :]
        if _WINDOW.search(left) and not _STATE_WORD.search(left):
            out = f"{out}: {right}"  # "death (43-50) = Warne and Freddie": when, then what
        elif _stated(left):
            out = f"{head}{_guard(left)} {_reached(left)}, {right}"
        elif _NUMBER.search(left) or _STATE_WORD.search(left) or not _STYLE_NEXT.match(right):
            out = f"{out}, {right}"
        else:
            out = f"{out} {right}"
    return out


def _asked_state(m: re.Match[str]) -> str:
    left = m["left"]
    if _ASKING.match(left) or not _stated(left):
        return m[0]
    return f"{left} \x03 "


def _stated(left: str) -> bool:
    """Whether ``left`` states the game's state (a number or a state's word) with no word
    of its own to start it: then it is a condition, and takes an "if"."""
    if _GUARDED.match(left) or _SCORE_FIRST.match(left):
        return False
    return bool(_NUMBER.search(left) or _STATE_WORD.search(left))


def _guard(left: str) -> str:
    """ "4 ovs left ->" is when four overs are left (a moment, as "Root out ->" is); any
    other state is a condition ("if")."""
    return "when" if _LEFT.search(left) else "if"


# "score 150 ->": a score passes a value (runs come in ones to sixes, so it may never be
# 150 exactly); with no comparison written, it is the score reached, 150 or more
_BARE_SCORE = re.compile(
    r"^(\s*(?:the\s+|our\s+)?(?:score|total)\s+)(\d{1,3})(?![\w/]|\s*(?:for|/|-)\s*\d)"
)


def _reached(left: str) -> str:
    """ "score 150" on an arrow's left is "score >= 150" (see ``_BARE_SCORE``)."""
    return _BARE_SCORE.sub(r"\1>= \2", left)


def _dash(text: str) -> str:
    """ "2 wkts in the pp - everyone normal": a dash after a state said with no word to
    start it is the arrow's "then" ("if 2 wickets in the pp, everyone normal"); any other
    dash ("Root - normal", "T20 - ...") is left as written."""
    m = re.match(r"(?P<left>[^,;:]*?)\s+[-–]\s+(?P<right>.+)$", text, re.S)
    if m is None:
        return text
    head = _CLAUSE_START.match(m["left"])
    left = m["left"][head.end() :] if head else m["left"]
    if not _stated(left) or not _STATE_WORD.search(left):
        return text
    return f"{m['left'][: len(m['left']) - len(left)]}{_guard(left)} {_reached(left)}, {m['right']}"


def _leading_place(text: str, protect: frozenset[str]) -> str:
    """ "8 grey, slog", "3 tom smith - defensive": a number from 1 to 11 before a squad
    member's name at the line's start is his place in the batting order ("grey at 8, ...")."""
    m = re.match(r"\s*(?:no\.?\s*|number\s+)?(\d{1,2})\s+", text)
    if m is None or not 1 <= int(m[1]) <= 11:
        return text
    rest, end = text[m.end() :], 0
    while (w := re.match(r"\s*([a-z][\w']*)", rest[end:])) and w[1] in protect:
        end += w.end()
    more = re.match(r"\s*(?:and|or|&|,)\s*([a-z][\w']*)", rest[end:])
    if end == 0 or " and " in rest[:end] or (more and more[1] in protect | {"and", "or"}):
        return text  # "4 Green and White": one place for two men is no place
    return f"{rest[:end].strip()} at {m[1]}{rest[end:]}"


# The symbol a player wrote for a word this pass put in its place: a refusal names it as
# written ("~", not "approx"), with the caret under it.
_WRITTEN = {
    "approx": re.compile(r"[~≈±]|(?<![\w.])(?:c\.|ca\.|circa)(?=\s*\d)", re.I),
    "not": re.compile(r"!=|≠|<>"),
    "percent": re.compile(r"%"),
    "half": re.compile(r"½"),
    "quarter": re.compile(r"¼"),
    "quarters": re.compile(r"¾"),
    "twice": re.compile(r"(?<![\w])(?:x\s?2|2\s?x)(?![\w])", re.I),
    "times": re.compile(r"(?<![\w])(?:x\s?\d{1,2}|\d{1,2}\s?x)(?![\w])", re.I),
}


def written_as(word: str, line: str) -> str:
    """``word`` as the player wrote it in ``line``: the symbol this pass read as it, where
    the word itself is not in the line ("~" for "approx"); else ``word``."""
    pattern = _WRITTEN.get(word)
    if pattern is None or re.search(rf"(?<![\w']){re.escape(word)}(?![\w'])", line, re.I):
        return word
    m = pattern.search(line)
    return m.group(0).lower() if m else word

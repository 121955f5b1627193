"""A line in canonical words read by its clauses: which carry an order, which are asides.

The meaning layer (:mod:`._meaning`) puts a fan's words into the canonical ones; what is left
is often an order with clauses around it that carry none ("Wilson keeps wicket, Taylor must
content himself with the drinks"). Here the clauses are weighed by the words in them, not by
their phrasing: a clause with a style, a number, a comparison, a guard or an order's own verb
carries meaning and is never let pass; any other clause is an aside, which may be left out
when the order reads without it. What is done with the ones that carry meaning is structure:
a style said apart from its batsmen ("Root and Tom Smith, aggressive") belongs to them; a
condition that leads the line with no "if" ("250 or more at 45 overs, everyone wahoo") is a
condition; a score as commentators write it ("120 for 3", "5 for under 100") is a score and
wickets.
"""

from __future__ import annotations

import itertools
import re

from engine.flungo.language._forks import fork

__all__ = ["Clauses", "carries_meaning", "ordinal", "scores", "structure", "style_only"]

STYLES = r"(?:defensive|normal|aggressive|wahoo)(?:ly)?"
# The one list of the words that say a clause may carry an order (with digits, comparisons,
# styles, guards and names), in two tiers. ``CORE_WORDS`` make a clause an order's: never an
# aside to be left out. ``CLAUSE_WORDS`` (the core and the units and times an order counts
# in) make a line no chatter: "last time he got out" is no order, but may not pass unread.
CORE_WORDS = frozenset(
    [
        "apiece",
        "boost",
        "bowl",
        "bowled",
        "bowling",
        "bowls",
        "captain",
        "each",
        "even",
        "evens",
        "every",
        "odd",
        "odds",
        "open",
        "openers",
        "opens",
        "rest",
        "review",
        "reviews",
        "spell",
        "spells",
        "treat",
        "wicketkeeper",
        "xi",
    ]
)
CLAUSE_WORDS = CORE_WORDS | frozenset(
    [
        "anchor",
        "ball",
        "balls",
        "batsman",
        "batsmen",
        "bowler",
        "bowlers",
        "chase",
        "chasing",
        "death",
        "down",
        "drinks",
        "eleven",
        "first",
        "helper",
        "keeper",
        "last",
        "lbw",
        "middle",
        "need",
        "needed",
        "needs",
        "next",
        "numbers",
        "opening",
        "order",
        "over",
        "overs",
        "pace",
        "physio",
        "point",
        "points",
        "powerplay",
        "rate",
        "remaining",
        "run",
        "runs",
        "score",
        "seamers",
        "side",
        "spin",
        "spinners",
        "squad",
        "tail",
        "team",
        "toss",
        "treatment",
        "wicket",
        "wickets",
    ]
)
# Words that start, end or guard an order: a clause with one is never let pass as chatter,
# so a condition pbm cannot read ("when the pitch looks tricky") is refused, never dropped.
GUARD = re.compile(
    r"(?<![\w'])(?:if|when|whenever|unless|once|until|till|while|provided|should|in case|"
    r"as long as|so long as|as soon as|except|but not|only|not|never|instead|rather than|"
    r"(?P<negation>don't|dont|do not))"
    r"(?![\w'])"
)
# With these too, a clause is never an aside to be left out ("but normal after 40").
_CORE_GUARD = re.compile(r"(?<![\w'])(?:after|before|but|no|none|nobody)(?![\w'])")
# "out" is a wicket, or an order ("Root out"); not "sits out", "time out", "out of form"
_OUT = re.compile(r"(?<![\w'])(?<!sits\s)(?<!sit\s)(?<!time\s)out(?!\s+of)(?![\w'])")
_STRONG_MARK = re.compile(
    r"\d|[<>=]|(?<![\w'])(?:" + STYLES + r"|keeps\s+wicket|batting\s+order)(?![\w'])"
)
_WORDS = re.compile(r"[\w']+")
_DIGIT = re.compile(r"\d")
# What a squad member is told to do: a remark about him with one of these may be his order.
_ACTION = re.compile(
    r"(?<![\w'])(?:bats?|batting|keeps?|opens?|captains?|bowl\w*|plays?|playing|selected|"
    r"picked|stays?|goes|go|comes?|is\s+in)(?![\w'])"
)
_STYLE_WORD = re.compile(r"(?<![\w'])" + STYLES + r"(?![\w'])")
# A purpose said after an order ("... to get the runs quickly"): the order's reason
_PURPOSE = (
    r"(?:in\s+order\s+)?to\s+(?:get|make|keep|save|stop|avoid|help|give|win|build|put|take|"
    r"reach|push|protect|use|see\s+us)"
)
_SEP = re.compile(
    r"(\s*[,;:]\s*|\s+(?=(?:since|because|which|whose|in\s+the\s+hope|so\s+that|as\s+befits|"
    + _PURPOSE
    + r")(?![\w'])))"
)
# A reason given for an order ("since spin is good", "so we don't collapse") is an aside
# unless it says when or how: a negation in it is the reason's, not the order's.
_REASON = re.compile(
    r"^(?:as|since|because|which|whose|in\s+the\s+hope|so\s+that|as\s+befits|"
    + _PURPOSE
    + r")(?![\w'])"
)
# A remark that describes, "is not" and what he is not: negated, but no instruction (that is
# "not to", "don't", "never to": those stay)
_REMARK = re.compile(
    r"^([\w' ]{1,40}?\s+)?(?:is|are|was|were)\s+(?:\w+\s+)?(?:not|never)\s+(?!to(?![\w']))(.*)$"
)
_UNITS_WORD = re.compile(r"(?<![\w'])(?:overs?|balls?|wickets?|runs?|down|out|in)(?![\w'])")


def _describes_an_order(rest: str) -> bool:
    """Whether what a remark says one is not may be an order's: a number, a style, a word
    of the orders' core, a unit, or what a player is told to do."""
    return bool(
        _STRONG_MARK.search(rest)
        or _ACTION.search(rest)
        or _UNITS_WORD.search(rest)
        or any(w in CORE_WORDS for w in _WORDS.findall(rest))
    )


_REASON_STRONG = re.compile(
    r"\d|[<>=]|(?<![\w'])(?:" + STYLES + r"|if|when|whenever|unless|until|after|before)(?![\w'])"
)
_GROUP = re.compile(r"^(?:the\s+remaining\s+batsmen|all\s+batsmen|the\s+rest)$")


def carries_meaning(clause: str) -> bool:
    """Whether a clause (in canonical words) may carry an order: a digit, a comparison, a
    style, a guard or a word of :data:`CORE_WORDS`; a reason given for an order only with
    a number, a style or a time ("since spin is good" is an aside)."""
    if _REASON.match(clause.strip()):
        return _REASON_STRONG.search(clause) is not None
    if _STRONG_MARK.search(clause) or GUARD.search(clause) or _CORE_GUARD.search(clause):
        return True
    if _OUT.search(clause):
        return True
    return any(w in CORE_WORDS for w in _WORDS.findall(clause))


class Clauses:
    """A line cut at its commas, semicolons and colons, which it can be put back from with
    some clauses left out."""

    def __init__(self, text: str) -> None:
        parts = _SEP.split(text)
        self.units = parts[0::2]
        self.seps = parts[1::2]

    def without(self, drop: frozenset[int]) -> str:
        """The line with the clauses numbered in ``drop`` left out (and a separator each)."""
        out = ""
        for i, unit in enumerate(self.units):
            if i in drop:
                continue
            if out:
                out += self.seps[i - 1] if i - 1 < len(self.seps) else ", "
            out += unit
        return out.strip(" ,;:")

    def without_reasons(self) -> str:
        """The line without the reasons given for its orders ("so we don't collapse") and
        the remarks that describe ("he is not a great batsman"): what a reason or a remark
        says, a negation or a word pbm does not know, is its own, never the order's."""
        return self.without(
            frozenset(
                i
                for i, u in enumerate(self.units)
                if i
                and (
                    (_REASON.match(u.strip()) and not carries_meaning(u))
                    or ((m := _REMARK.match(u.strip())) and not _describes_an_order(m.group(2)))
                )
            )
        )

    def asides(
        self, is_name: re.Pattern[str] | None, others: frozenset[str] = frozenset()
    ) -> list[frozenset[int]]:
        """The groups of clauses that may be left out: a clause carrying no meaning, with the
        lone names before it ("Taylor, ..., must content himself": the aside's subject). A
        lone name with nothing after it to be the subject of stays ("Root aggressive,
        Stokes": Stokes too, perhaps), so the line is refused rather than read without it."""
        groups: list[frozenset[int]] = []
        pending: list[int] = []
        for i, unit in enumerate(self.units):
            if carries_meaning(unit) or not unit.strip():
                pending = []
                continue
            if is_name is not None and is_name.fullmatch(unit.strip()):
                pending.append(i)
                continue
            group = frozenset([*pending, i])
            pending = []
            about_other = is_name is not None and not self._named_elsewhere(group, is_name)
            said = " ".join(self.units[j] for j in group)
            passed = others and any(w in others for w in re.findall(r"[\w']+", said))
            if about_other and (not passed or _ACTION.search(said)):
                continue  # an aside about another player may be an order for him: refused
            groups.append(group)
        return groups

    def _named_elsewhere(self, group: frozenset[int], is_name: re.Pattern[str]) -> bool:
        """Whether every squad name in the clauses ``group`` is named in the others too."""
        inside = " ".join(self.units[i] for i in group)
        outside = " ".join(u for i, u in enumerate(self.units) if i not in group)
        return all(
            re.search(rf"(?<![\w']){re.escape(m.group(0))}(?![\w'])", outside)
            for m in re.finditer(rf"(?<![\w']){is_name.pattern}(?![\w'])", inside)
        )

    def drop_sets(
        self, is_name: re.Pattern[str] | None, limit: int = 4, others: frozenset[str] = frozenset()
    ) -> list[list[str]]:
        """Texts with asides left out, by how many are left out (fewest first). ``others``:
        words that pass (:mod:`._unknown`); a remark about another player with one of them
        and none of the words of what a player is told to do is an aside too ("Taylor, must
        content himself with the drinks")."""
        groups = self.asides(is_name, others)[:limit]
        out: list[list[str]] = []
        for k in range(1, len(groups) + 1):
            texts = []
            for combo in itertools.combinations(groups, k):
                text = self.without(frozenset().union(*combo))
                if text and carries_meaning(text):
                    texts.append(text)
            out.append(list(dict.fromkeys(texts)))
        return out


def style_only(unit: str) -> str | None:
    """The style a clause is, alone ("normal", "bat wahoo only"), or None."""
    m = re.fullmatch(r"(?:bats?\s+|all\s+)?(" + STYLES + r")(?:\s+only)?", unit.strip())
    return m.group(1) if m else None


def structure(text: str, is_name: re.Pattern[str] | None) -> str:
    """A style said apart from its batsmen joins them; a group word before the names that
    say who it is ("the remaining batsmen, Warne, Anderson, Stone") gives way to the names;
    a leading condition without "if" is given one."""
    cl = Clauses(text)
    units, seps = cl.units, cl.seps
    i = 1
    while i < len(units):
        style = style_only(units[i])
        prev = re.sub(r"\s+(?:bats?|to\s+bat)$", "", units[i - 1].strip())
        who = is_name is not None and (
            re.search(rf"(?:^|\s)(?:{is_name.pattern})$", prev) is not None
            or re.search(r"(?:^|\s)(?:all\s+batsmen|the\s+remaining\s+batsmen|the\s+rest)$", prev)
            is not None
        )
        who = who and not re.search(r"(?<![\w'])" + STYLES, prev)
        # "Grey at 8, normal", "green 6, normal": his place, then his style
        placed = (
            is_name is not None
            and style is not None
            and re.fullmatch(
                rf"(?P<who>{is_name.pattern})\s+(?:at\s+)?(?:number\s+|no\.?\s*)?(?P<n>\d{{1,2}})",
                prev,
            )
        )
        if placed and seps[i - 1].strip() in (",", ";", ":", "-"):
            units[i - 1] = f"{placed.group('who')} at {placed.group('n')} {style}"
            del units[i]
            del seps[i - 1]
            continue
        if style and who and seps[i - 1].strip() in (",", ";", ":"):
            units[i - 1] = f"{prev} {style}"
            del units[i]
            del seps[i - 1]
            continue
        i += 1
    # "the remaining batsmen, warne, anderson, stone wahoo": the names say who
    if len(units) > 2 and _GROUP.fullmatch(units[0].strip()) and is_name is not None:
        rest = units[1:]
        if all(is_name.fullmatch(u.strip()) for u in rest[:-1]):
            units, seps = rest, seps[1:]
    text = units[0]
    for sep, unit in zip(seps, units[1:], strict=True):
        text += sep + unit
    text = _sequence(_time_first(_lead_condition(_said_plainly(text, is_name))), is_name)
    return _except_his(text, is_name)


def _except_his(text: str, is_name: re.Pattern[str] | None) -> str:
    """ "everyone normal, except Fred, he stays aggressive": Fred's own style, then the rest's
    with him left out, in one order (the time and the "until" stay the whole order's)."""
    if is_name is None or "except" not in text:
        return text
    m = re.match(
        r"^(?P<head>(?:[^:]*:\s*)?)(?P<group>all\s+batsmen|the\s+remaining\s+batsmen)(?:\s+bat)?\s+"
        r"(?P<s1>" + STYLES + r"),?\s+except\s+(?P<who>" + is_name.pattern + r"),?\s+"
        r"(?P=who)\s+(?:bats\s+)?(?P<s2>" + STYLES + r")(?P<tail>(?:,?\s+until\s+.*)?)$",
        text,
    )
    if m is None or m.group("s1") == m.group("s2"):
        return text
    head = m.group("head") or "after 0 overs: "
    return (
        f"{head}{m.group('who')} bats {m.group('s2')}; {m.group('group')} bat {m.group('s1')} "
        f"except {m.group('who')}{m.group('tail')}"
    )


# A time that starts an order, said inside or after its condition: "if after 30 overs we
# have lost 4", "if Stokes is in at the 35th over", "..., all aggressive from the 30th over".
_START = re.compile(
    r"(?<![\w'])(?<!until\s)(?<!till\s)(?:after\s+(?P<a>\d{1,3})\s+overs|at\s+drinks|"
    r"(?:from|at)\s+the\s+(?P<n>\d{1,3})(?:st|nd|rd|th)\s+over(?:\s+on)?)(?![\w'])"
)


def _time_first(text: str) -> str:
    """A condition ("if ...") and the one time the order starts at, said anywhere in the
    line: the time first, then the condition it is checked at, as the guide writes it
    ("after 30 overs, if 4 or fewer down: ..."). A line with a trigger of its own ("when",
    "once") or two times is left as it is."""
    if not re.match(r"if(?![\w'])", text) or re.search(r"(?<![\w'])(?:when|once)(?![\w'])", text):
        return text
    times = list(_START.finditer(text))
    if len(times) != 1:
        return text
    m = times[0]
    if m.group("a"):
        time = f"after {m.group('a')} overs"
    elif m.group("n"):
        time = f"after {int(m.group('n')) - 1} overs"
    else:
        time = "at drinks"
    rest = (text[: m.start()] + " " + text[m.end() :]).strip(" ,")
    rest = re.sub(r"\s+,", ",", re.sub(r"\s{2,}", " ", rest))
    return f"{time}, {rest}"


# One batsman's (or a group's) styles in turn: "aggressive till the 6th goes, then back to
# normal", "aggressive but back to normal at 6 down". The second style starts where the
# first one's "until" ends, or at the time said with it; both orders are the line's.
_THEN_STYLE = (
    r"\s*,?\s*(?:and\s+)?(?:then\s+)?(?:bats?\s+)?(?:back\s+(?:to\s+|2\s+)?)?(?P<s2>"
    + STYLES
    + r")"
)
_UNTIL_THEN = re.compile(
    r"^(?P<head>.*?)(?P<s1>" + STYLES + r")\s*,?\s*until\s+(?P<until>after\s+\d{1,3}\s+overs|"
    r"the\s+\d{1,2}(?:st|nd|rd|th)\s+wicket\s+falls|drinks)"
    + _THEN_STYLE
    + r"(?:\s+(?:then|thereafter|after\s+that))?$"
)
_BUT_AT = re.compile(
    r"^(?P<head>.*?)(?P<s1>" + STYLES + r")\s*,?\s*but" + _THEN_STYLE + r"\s+(?P<t2>when\s+the\s+"
    r"\d{1,2}(?:st|nd|rd|th)\s+wicket\s+falls|after\s+\d{1,3}\s+overs|at\s+drinks)$"
)
# words that make a group of batsmen other than all of them: with one in the head and no group
# this reads, the subject is not "all batsmen" (it would drop the word, silently)
_GROUP_LEFT = re.compile(r"\b(?:left|remaining|rest|others?|tail|tailenders|openers?|order)\b")
_WHO = r"(?:all\s+batsmen|the\s+remaining\s+batsmen|the\s+rest|the\s+next\s+\d\s+batsmen)"


_FIRST_THEN = re.compile(
    r"^(?P<a>.*?)\s*(?:for|in)\s+the\s+first\s+(?P<n>\d{1,3})\s+overs\s*,?\s*(?P<b>.*?)\s*,?\s*"
    r"(?:then|after\s+that|thereafter)?\s+(?P<s2>"
    + STYLES
    + r")(?:\s+(?:after\s+that|thereafter))?$"
)


def _sequence(text: str, is_name: re.Pattern[str] | None) -> str:
    if len(_STYLE_WORD.findall(text)) < 2:
        return text  # styles in turn: two of them
    first = _FIRST_THEN.match(text)
    if first is not None and re.search(STYLES, first.group("a") + " " + first.group("b")):
        # "for the first 10 overs, everyone defensive, normal after that": until the 10th
        body = f"{first.group('a')} {first.group('b')}".strip(" ,")
        text = f"{body} until after {first.group('n')} overs, then {first.group('s2')}"
    m = _UNTIL_THEN.match(text) or _BUT_AT.match(text)
    if m is None or is_name is None:
        return text
    who = rf"(?:{_WHO}|{is_name.pattern})"
    head = m.group("head").strip(" ,;:")
    parts = re.match(rf"^(?P<trig>.*?)[\s,;:]*(?P<who>{who})?(?:\s+bats?)?$", head)
    if parts is None:
        return text
    trig, subject = parts.group("trig").strip(" ,;:"), parts.group("who") or "all batsmen"
    if not trig and not parts.group("who"):
        return text  # neither a time nor a batsman: nothing to say whose styles they are
    if not parts.group("who") and _GROUP_LEFT.search(trig):
        return text  # "everyone left", "the lads remaining": a group this does not name

    if "until" in m.groupdict() and m.groupdict().get("until"):
        until = m.group("until")
        t2 = (
            until
            if until.startswith("after")
            else f"when {until}"
            if "wicket" in until
            else "at drinks"
        )
    else:
        t2 = m.group("t2")
    trig = trig or "after 0 overs"
    return f"{trig}: {subject} bat {m.group('s1')}, but {t2}: {subject} bat {m.group('s2')}"


_SUBJECT = r"(?:all\s+batsmen|the\s+remaining\s+batsmen|the\s+rest)"
_JOB = re.compile(r"(?:captain|wicketkeeper|keeper)(?=$|,)")
_OUT = re.compile(r"\sout(?![\w'])")
_IN_AFTER = re.compile(r"\sin(?=\s+after\s+\d)")
_STYLE_FOR = re.compile(r"(?P<style>" + STYLES + r")\s+for\s+")


def _said_plainly(text: str, is_name: re.Pattern[str] | None) -> str:
    """Small turns of phrase around a style or a condition, in the grammar's words."""
    # "defensive and not normal": the style refused beside the one given only insists
    if len(re.findall(r"(?<![\w'])" + STYLES, text)) > 1:
        text = re.sub(r"\s*,?\s*(?:and\s+|but\s+)?not\s+" + STYLES + r"(?![\w'])", "", text)
    text = re.sub(r"(?<![\w'])(is|are|the|bat|bats)\s+\1(?![\w'])", r"\1", text)
    # "it is wahoo for the remaining batsmen", "go back to normal for everyone"
    # the pattern holds the squad's names, so it is compiled anew for each squad (a
    # millisecond, more than the rest of a line): only for a line with a style before "for"
    if _STYLE_FOR.search(text):
        who = _SUBJECT if is_name is None else f"(?:{_SUBJECT}|{is_name.pattern})"
        text = re.sub(
            r"(?:it\s+is\s+|bats?\s+(?:back\s+)?(?:to\s+)?)?(?P<style>"
            + STYLES
            + r")\s+for\s+(?P<who>"
            + who
            + r")(?![\w'])",
            r"\g<who> bat \g<style>",
            text,
        )
    text = re.sub(r"(?<![\w'])(?:is|are)\s+(?=" + STYLES + r"(?![\w']))", "", text)
    # "Stokes to tonk it": the style, said of him
    text = re.sub(r"(?<![\w'])(" + STYLES + r")\s+it(?![\w'])", r"\1", text)
    text = re.sub(r"(?<=\w)\s+to\s+(?=" + STYLES + r"(?![\w']))", " ", text)
    text = re.sub(r"(?<![\w'])(batsm[ae]n)\s+in\s+(?=bats?(?![\w']))", r"\1 ", text)
    # "when the 5th wicket falls with fewer than 120 on the board": the score's condition
    text = re.sub(
        r"\s+with\s+(?P<cmp>fewer\s+than|under|less\s+than|more\s+than|over)\s+(?P<n>\d{1,3})"
        r"(?:\s+runs)?(?:\s+on\s+the\s+board)?(?!\s*(?:overs?|balls?|wickets?|left|an\s+over|\d))",
        _with_score,
        text,
    )
    # "..., wahoo everyone": the style before the batsmen it is for
    text = re.sub(
        r"(?<![\w'])(?P<style>" + STYLES + r")\s+(?P<who>all\s+batsmen|the\s+remaining\s+batsmen)$",
        r"\g<who> \g<style>",
        text,
    )
    # "with Stokes batting aggressively": how he bats
    text = re.sub(r"(?<![\w'])with\s+(?=.+?\s+batting\s+" + STYLES + r"(?![\w']))", "", text)
    text = re.sub(r"(?<![\w'])batting\s+(?=" + STYLES + r"(?![\w']))", "bats ", text)
    # the patterns below hold the squad's names, compiled anew for each squad (milliseconds
    # each): each runs only where its fixed words are in the line
    if is_name is not None and _JOB.search(text):
        # "Root captain, Wilson keeper": the selection, each part its own order
        text = re.sub(
            r"(?:^|(?<=,\s))(?P<who>"
            + is_name.pattern
            + r")\s+(?:is\s+)?(?P<job>captain|wicketkeeper|keeper)(?=$|,)",
            r"\g<job> \g<who>",
            text,
        )
    if is_name is not None and _OUT.search(text):
        # "Fred out before 30 overs, ...": his wicket is the trigger
        text = re.sub(
            r"^(?P<who>" + is_name.pattern + r")\s+(?:is\s+)?out(?![\w'])",
            r"when \g<who> is out",
            text,
        )
        # "should Root be out, ...": his wicket is the trigger
        text = re.sub(
            r"^(?:should|if)\s+(?P<who>" + is_name.pattern + r")\s+(?:be|get|gets)\s+out(?![\w'])",
            r"when \g<who> is out",
            text,
        )
    if is_name is not None and _IN_AFTER.search(text):
        text = re.sub(
            r"^(?P<who>" + is_name.pattern + r")\s+(?:is\s+)?in(?=\s+after\s+\d)",
            r"if \g<who> is in",
            text,
        )
    if re.match(r"(?:if|when|after|at)(?![\w'])", text) and "until" not in text:
        # "at drinks, ..., Fred and Green aggressive after": from the time the line starts
        # with (a line with an "until" has two times, and "after" may be the second's)
        text = re.sub(r"\s+(?:after|then)$", "", text)
    # "Root aggressive if the run rate is under 5 at drinks": the time and condition first
    text = re.sub(
        r"^(?P<act>[^,:;]+?)\s+(?P<cond>if\s+[^,:;]+?)\s+(?P<time>at\s+drinks|after\s+\d{1,3}\s+overs)$",
        r"\g<cond> \g<time>: \g<act>",
        text,
    )
    # "the required rate is over 7 an over": a rate is so much an over already
    text = re.sub(r"(rate\s+(?:is\s+)?[a-z ]{0,12}\d{1,2})\s+an\s+over(?=\s*,|$)", r"\1", text)
    # "when we have 250 after 40 overs": a score reached, so much or more
    text = re.sub(
        r"(?<![\w'])(?:if|when)\s+we\s+have\s+(?P<n>\d{2,3})(?:\s+runs)?(?:\s+or\s+more)?"
        r"(?!\s*(?:overs?|balls?|wickets?|down|lost|left|an|or|\d))",
        r"if score >= \g<n>",
        text,
    )
    if re.search(r"(?<![\w'])(?:need|needs|required\s+rate)(?![\w'])", text):
        # chasing is what needing runs says already
        text = re.sub(r"(?<![\w'])chasing(?:\s+and)?\s*(?![\w'])", "", text)
        text = re.sub(r"^when\s+(?=(?:we\s+)?need)", "if ", text)
    return re.sub(
        r"(?<![\w'])(?:we\s+get\s+to|we're|we\s+are)\s+(?=\d|wickets|score)", "", text
    ).strip(" ,;:")


_CMP = (
    r"(?:\d{1,3}\s*(?:or\s+more|or\s+fewer|\+)|(?:under|over|more\s+than|less\s+than|"
    r"fewer\s+than|below|above|at\s+least|at\s+most)\s+\d{1,3}|[<>]=?\s*\d{1,3})"
)
_LEAD = re.compile(
    r"^(?P<if>if\s+)?(?P<subject>(?:(?:our\s+)?run\s+rate|required\s+rate|score|wickets|"
    r"we\s+need|need)\s+)?(?P<cmp>" + _CMP + r")(?P<rest>.*)$"
)


def _with_score(m: re.Match[str]) -> str:
    op = _CMP_WORDS.get(" ".join(m.group("cmp").split()), "<")
    return f", if score {op} {m.group('n')}"


_BARE_IF = re.compile(
    r"(?<![\w'])if\s+(?P<cmp>" + _CMP + r")(?P<unit>\s+runs(?![\w'])|\s+an\s+over(?![\w']))?"
)


def _bare_if(m: re.Match[str]) -> str:
    """ "if less than 80 runs" inside a clause: the score's (the run rate's, with "an over")."""
    if re.match(r"\s*(?:down|wickets?|balls?|overs)(?![\w'])", m.string[m.end() :]):
        return m.group(0)
    unit = (m.group("unit") or "").strip()
    return f"if {'run rate' if unit.startswith('an') else 'score'} {m.group('cmp')}"


def _lead_condition(text: str) -> str:
    """A condition said without "if" before the order it guards ("250 or more after 45 overs,
    everyone wahoo"; "after 20 overs, 2 down or less, ..."): the condition an "if" says."""
    if not _DIGIT.search(text):
        return text  # a condition to be given its "if" compares a number
    cl = Clauses(text)
    for i, unit in enumerate(cl.units):
        m = _LEAD.match(unit.strip())
        if m is None or (i > 0 and cl.seps[i - 1].strip() not in (",", ":", ";")):
            continue
        if i == len(cl.units) - 1 and not m.group("if"):
            continue  # the last clause is the order, unless an "if" says it is a condition
        rest = m.group("rest")
        if re.match(r"\s*(?:down|wickets?|balls?|overs(?!\s+left))(?![\w'])", rest):
            continue  # a count of wickets or balls: the grammar's own words say it
        rest = re.sub(r"^\s*runs(?![\w'])", "", rest)  # "less than 80 runs": the score
        subject = (m.group("subject") or "").strip()
        if not subject:
            subject = "run rate" if re.match(r"\s*an\s+over", rest) else "score"
            if subject == "run rate":
                rest = re.sub(r"^\s*an\s+over", "", rest)
        elif subject == "need":
            subject = "we need"
        cl.units[i] = f"if {subject} {m.group('cmp')}{rest}"
    return _BARE_IF.sub(_bare_if, cl.without(frozenset()))


# Scores as commentators write them, once the larger number is put first ("120 for 3"):
# with a time ("at drinks", "at 30 overs") the score is a mark to be at or past, with the
# wickets at most those; with none, the score is where that wicket falls.
_SCORE = re.compile(
    r"(?<![\w/])(?:(?P<cmp1>under|below|less\s+than|over|above|more\s+than)\s+)?"
    r"(?P<a>\d{1,3})\s*(?:for|/)\s*(?P<b>\d{1,3})(?:\s+(?P<cmp2>or\s+(?:better|more)|or\s+worse|"
    r"or\s+(?:fewer|less)))?(?![\w/])"
)
_SCORE_UNDER = re.compile(
    r"(?<![\w/])(?P<wk>\d{1,2})\s+for\s+(?P<cmp1>under|below|less\s+than|over|more\s+than)\s+"
    r"(?P<runs>\d{2,3})(?![\w/])"
)
_WHEN = re.compile(r"(?<![\w'])(?:at|after|by)\s+(?:drinks|\d{1,3}\s+overs)(?![\w'])")
_CMP_WORDS = {
    "fewer than": "<",
    "under": "<",
    "below": "<",
    "less than": "<",
    "over": ">",
    "above": ">",
    "more than": ">",
}


def ordinal(n: int) -> str:
    """6 -> "6th", 1 -> "1st", 22 -> "22nd"."""
    end = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{end}"


def scores(text: str) -> str:
    """ "3 for 120 or better at drinks" (once "120 for 3") -> "if wickets <= 3 and score >=
    120 at drinks"; "5 for under 100" -> "when the 5th wicket falls, if score < 100"."""
    if not _DIGIT.search(text):
        return text
    guard = "" if re.match(r"\s*(?:if|when)\b", text) else "if "

    def under(m: re.Match[str]) -> str:
        op = _CMP_WORDS[re.sub(r"\s+", " ", m.group("cmp1"))]
        return (
            f"when the {ordinal(int(m.group('wk')))} wicket falls, if score {op} {m.group('runs')}"
        )

    text = _SCORE_UNDER.sub(under, text)

    def repl(m: re.Match[str]) -> str:
        a, b = int(m.group("a")), int(m.group("b"))
        if b <= 10 < a:
            runs, wk, runs_first = a, b, True
        elif a <= 10 < b and b >= 20:
            runs, wk, runs_first = b, a, False  # the Australian "3 for 120"
        else:
            return m.group(0)
        cmp1 = re.sub(r"\s+", " ", m.group("cmp1") or "")
        cmp2 = m.group("cmp2") or ""
        lead = text[: m.start()]
        if _WHEN.search(text) and not cmp1 and "worse" not in cmp2 and "fewer" not in cmp2:
            said = (f"score >= {runs}", f"wickets <= {wk}")  # in the order the fan wrote
            both = " and ".join(said if runs_first else said[::-1])
            return f"{guard if not lead.strip() else ''}{both}"
        op = _CMP_WORDS.get(cmp1, "<" if "fewer" in cmp2 or "less" in cmp2 else "<=")
        if _WHEN.search(text):
            return m.group(0)
        fall = f"when the {ordinal(wk)} wicket falls, if score {op} {runs}"
        reach = f"when the score reaches {runs}, if wickets <= {wk}"
        if "better" in cmp2 or "more" in cmp2:
            return reach  # "150/3 or better": the runs made with so few down
        if not cmp1 and not cmp2:
            # "150/3: defensive" with no comparison and no time: the wicket falling with so
            # few, or the score reached with so many in hand; both are shown (``_forks``)
            return fork(fall, reach)
        return fall

    return _SCORE.sub(repl, text)

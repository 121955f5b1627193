"""Bowling plans, team sheets and the toss as fans write them, built from their structure.

A captain's plan line is names and overs: "Flintoff the 41st, 43rd and 48th; Warne the 44th",
"Anderson and Grey 7 to 14 between em", "Tweaker Anderson on at 7, every second over till
he's had 6", "the rest split between Stone and Green". Here the line is cut into its tokens
(a bowler or a pair, overs by number or ordinal, a range, odd or even, every second over, a
count of overs, where a spell starts and ends, a partner changing ends, who begins, the new
ball, the rest), after the captain's phrases are put in the plan's words (the lexicon's
``[bowling]`` section), and the plan is built from their order by ``_spells``, in the
canonical words ("Jimmy Anderson bowls overs 7, 9, 11"). The canonical reader reads the result
and checks it like any other plan line ("the rest" against the mail's other plan lines, in
``_expand``). A word this module does not know makes it give up, so the line is refused with
that word named, never read without it.
"""

from __future__ import annotations

import importlib.resources
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.flungo.language._chatter import number_words
from engine.flungo.language._plan_forms import ends, in_order, joined
from engine.flungo.language._spells import Group, bare, build
from engine.flungo.orders import MatchOrders
from engine.flungo.squad import BowlingStyle, Player

__all__ = [
    "batting_order",
    "bowler_kinds",
    "bowling_line",
    "name_kinds",
    "names_a_kind",
    "open_with",
    "team_sheet",
    "toss_line",
]

# Words a plan line may hold that add nothing to which overs a bowler bowls.
_GLUE = frozenset(
    [
        "the",
        "a",
        "an",
        "overs",
        "over",
        "sets",
        "set",
        "bowls",
        "bowl",
        "bowling",
        "bowled",
        "to",
        "and",
        "then",
        "is",
        "are",
        "gets",
        "get",
        "takes",
        "take",
        "has",
        "have",
        "from",
        "at",
        "end",
        "ends",
        "other",
        "for",
        "with",
        "in",
        "of",
        "spell",
        "long",
        "second",
        "first",
        "each",
        "apiece",
        "inclusive",
        "numbered",
        "number",
        "nos",
        "no",
        "odd-numbered",
        "even-numbered",
        "that",
        "which",
        "in",
        "all",
        "total",
        "plan",
        "short",
        "format",
        "match",
        "game",
        "innings",
        "his",
        "their",
        "both",
        "share",
        "shared",
        "split",
        "between",
        "them",
        "em",
        "sharing",
        "taking",
        "turns",
        "turn",
        "harness",
        "tandem",
        "pairs",
        "pair",
        "on",
        "comes",
        "come",
        "over's",
        "again",
        "also",
        "will",
        "shall",
        "should",
        "can",
        "may",
        "must",
        "be",
        "is",
        "gonna",
        "gotta",
        "please",
        "please",
        "ok",
        "change",
        "first-change",
        "new",
        "ball",
        "keep",
        "it",
        "tight",
        "blow",
        "rest",
        "off",
        "ish",
        "last",
        "its",
        "it's",
        "all",
        "is",
        "for",
        "opening",
        "stint",
        "give",
        "given",
        "goes",
        "go",
        "bring",
        "brought",
        "back",
        "spells",
        "one",
        "shares",
        "whatever",
        "left",
        "remain",
        "remaining",
        "remains",
        "which",
        "then",
        "tweaker",
        "quick",
        "quickie",
        "paceman",
        "spinner",
        "seamer",
        "quicks",
        "between",
        "heavy",
        "mostly",
        "completes",
        "complete",
        "completing",
        "their",
        "he",
        "she",
        "they",
        "any",
        "case",
        "whole",
        # prepositions of time before a span ("through the middle overs", "during 11-20")
        "through",
        "throughout",
        "during",
        "across",
        # "the opening bowlers: ...", "our bowlers": the plan's own subject
        "bowler",
        "bowlers",
    ]
)


_STARTS_NEXT = re.compile(r"\s*starts(?![\w'])")
# A kind of bowler passes only as a word for the name after it ("Tweaker Anderson on at 7");
# said alone it stands for a bowler, and is read by ``kind_plan`` or refused
_KIND_ALONE = re.compile(
    r"(?<![\w'])(?:tweaker|quick|quickie|paceman|spinner|seamer|quicks)(?![\w'])(?!\s*\uE000)"
)


def _load_words() -> tuple[re.Pattern[str], dict[str, str]]:
    """The lexicon's ``[bowling]`` phrases (numbers as digits, as the line has them), longest
    first, and what each is read as. Only that section is parsed (``_meaning`` reads the rest)."""
    text = importlib.resources.files(__package__).joinpath("lexicon.toml").read_text("utf-8")
    start = text.index("\n[bowling]")
    end = text.find("\n[", start + 1)
    section = text[start : end if end > 0 else len(text)]
    words = tomllib.loads(section)["bowling"]
    table = {re.sub(r"\s+", " ", number_words(k).strip()): v for k, v in words.items()}
    alternation = "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True))
    return re.compile(rf"(?<![\w']){alternation}(?![\w'])"), table


# A table made from the shipped lexicon at import, never changed (no Reader need keep it).
_WORDS, _WORD_TABLE = _load_words()


def plan_words(text: str) -> str:
    """``text`` with the captain's phrases of the lexicon's ``[bowling]`` section in the plan's
    own words ("whatever is left" -> "the rest", "changing ends with" -> "in turn with")."""
    return re.sub(r"\s{2,}", " ", _WORDS.sub(lambda m: _WORD_TABLE[m.group(0)], text)).strip()


# "the first, third and fifth", "takes the second over": overs by ordinal ("first change",
# "second spell", "every second over" and "the first 10 overs" are not)
_FIRST_OVERS = re.compile(
    r"(?<!every\s)(?<!each\s)(?<!other\s)(?:(?<=\bthe\s)(first|second)(?=\s*(?:$|[,;&]|and\b))"
    r"|(first|second)(?=\s+overs?\b))"
)
_ON_AT = re.compile(
    r"\b(takes\s+over|comes?\s+on|brought\s+on|(?<![\w'])on)(\s+from\s+\uE000)?\s+at\s+(?=(?:the\s+)?(?:over\s+)?\d)"
)
_NAME_FIRST = re.compile(
    r"(?<=\uE000)\s+(?:to\s+)?(?:go\s+|goes\s+|bowls?\s+)?first(?=\s*(?:$|[,;]))"
)

# Words that make a line something other than a plan: a condition, a quota, a style.
_NOT_PLAN = re.compile(
    r"(?<![\w'])(?:if|when|whenever|unless|once|until|till|while|before|after|provided|should|"
    r"should|except|only|not|don't|dont|never|max|maximum|maximal|most|more|less|fewer|"
    r"defensive|normal|aggressive|wahoo|bat|bats|batting|wickets?|runs?|score|hit|injured|"
    r"hurt|emergency|belted|hammered)(?![\w'])"
)
# Words that say a line is about the bowling, where "open" or a bare number could be the
# batting's ("to open", "at 3", "number 3")
_BOWLING_CUE = re.compile(
    r"(?<![\w'])(?:bowl\w*|overs?|spells?|new\s+ball|attack|ends?|stint|quota)(?![\w'])"
)
_OPEN = re.compile(r"(?<![\w'])open(?:s|ing)?(?![\w'])")
_PLACE = re.compile(r"(?<![\w'])(?:at|number|no\.?|num|#)\s*\d{1,2}(?:st|nd|rd|th)?(?![\w'])")
# "with Flintoff sharing the new ball": the partner opens too (else "with" names a reference)
_OPENS_TOO = re.compile(r"\s+(?:sharing|shares|share|taking|takes|to\s+share)\s+the\s+new\s+ball")
# "till he's had 6": a count of overs, not a condition; "until the 19th (over)": where a
# spell ends; "that should be his 4": his quota said again. None is a condition.
_HAD = re.compile(
    r"(?:till|until)\s+he(?:'s|\s+is|\s+has)\s+(?:had|bowled)\s+\d{1,3}"
    r"|(?:till|until)\s+(?:the\s+)?(?:over\s+)?\d{1,3}(?:st|nd|rd|th)?\b"
    r"(?!\s*(?:runs?|wickets?|down|balls?))"
    r"|(?:that|which)\s+should\s+be\s+his\s+(?:full\s+)?\d{1,3}(?:\s+overs)?"
)
_TOKEN = re.compile(
    r"(?P<range>(?:from\s+)?(?:the\s+)?(?:over\s+)?(?P<a>\d{1,3})(?:st|nd|rd|th)?(?:\s+over)?"
    r"\s*(?:to|-|–|until|till|through)\s*(?:the\s+)?(?:over\s+)?(?P<b>\d{1,3})(?:st|nd|rd|th)?)"
    r"|(?P<lastn>(?:for\s+)?(?:the\s+)?(?:last|final)\s+(?P<l>\d{1,3})(?:\s+overs?)?)"
    r"|(?P<firstn>(?:for\s+)?(?:the\s+)?first\s+(?P<f>\d{1,3})\s+overs?)"
    r"|(?P<quota>(?:which\s+|that\s+)?complet\w*\s+(?:their|his)\s+(?:full\s+)?\d{1,3}\s+overs"
    r"(?:\s+(?:apiece|each))?|(?:that|which)\s+should\s+be\s+his\s+(?:full\s+)?\d{1,3})"
    r"|(?P<lasting>(?:is\s+to\s+|to\s+|will\s+|should\s+)last\s+(?:for\s+)?(?P<d>\d{1,3})\s+overs)"
    r"|(?P<count>(?P<c>\d{1,3})\s+(?:overs?\s+)?(?:each|apiece|in\s+all|overs?)"
    r"|(?:his|their)\s+(?:full\s+)?(?P<c2>\d{1,3}))"
    # his whole quota said in cricket's words: "bowls out" (a bowler "bowled out" has bowled
    # his last allowed over), "his full quota", "his allocation"
    r"|(?P<full>bowls?\s+out(?![\w'])|(?:his|their)\s+(?:full\s+)?(?:quota|allocation|allotment"
    r"|complement|whack)(?:\s+of\s+overs)?)"
    r"|(?P<onward>(?:from|starting\s+(?:at|from|with))\s+(?:the\s+)?(?:over\s+)?(?P<o>\d{1,3})"
    r"(?:st|nd|rd|th)?(?:\s+over)?\s+(?:on|onwards?)(?![\w']))"
    r"|(?P<start>(?:from|(?:comes\s+|come\s+)?on\s+at|starting\s+at)\s+(?:the\s+)?(?:over\s+)?"
    r"(?P<s>\d{1,3})(?:st|nd|rd|th)?(?:\s+over)?)"
    r"|(?P<upto>(?:until|till|up\s+to|through\s+to)\s+(?:the\s+)?(?:over\s+)?(?P<u>\d{1,3})"
    r"(?:st|nd|rd|th)?)"
    r"|(?P<num>(?P<n>\d{1,3})(?:st|nd|rd|th)?)"
    r"|(?P<odd>odd-numbered|odds?)|(?P<even>even-numbered|evens?)"
    r"|(?P<every>every\s+(?:second|other|2nd|alternate)(?:\s+over)?)"
    r"|(?P<alt>alternat(?:ely|ing|e)(?:\s+overs)?|in\s+alternation)"
    r"|(?P<had>(?:till|until)\s+he(?:'s|\s+is|\s+has)\s+(?:had|bowled)\s+(?P<h>\d{1,3}))"
    r"|(?P<lastover>(?:the\s+)?last\s+over(?:\s+of\s+the\s+innings)?|the\s+last(?=\s*(?:$|[,;]|and\b)))"
    r"|(?P<rest>the\s+rest(?:\s+of\s+the\s+overs)?|rest\s+of\s+the\s+overs)"
    r"|(?P<spell>in\s+a\s+spell)|(?P<starts>starts)|(?P<ends>(?:from|at)\s+both\s+ends)"
    r"|(?P<open>open(?:s|ing)?(?:\s+the\s+bowling)?|(?:take|takes|sharing|share)\s+the\s+new\s+ball"
    r"|new\s+ball)"
    r"|(?P<partner>in\s+turn\s+with\s+\uE000)"
    r"|(?P<ref>(?:to|with|from|than)\s+(?P<refname>\uE000))"
    r"|(?P<comma>,)"
    r"|(?P<name>\uE000)"
    r"|(?P<word>[\w'’-]+)"
)


def _mark(text: str, names: list[str]) -> tuple[str, list[str]]:
    """``text`` with each squad name (longest first, whole words) as one marker character."""
    found: list[tuple[int, int, str]] = []
    taken = [False] * len(text)
    for name in sorted(set(names), key=len, reverse=True):  # a name said 200 times: once
        for m in re.finditer(rf"(?<![\w']){re.escape(name)}(?![\w'])", text):
            if not any(taken[m.start() : m.end()]):
                found.append((m.start(), m.end(), name))
                for i in range(m.start(), m.end()):
                    taken[i] = True
    found.sort()
    out, at, order = [], 0, []
    for a, b, name in found:
        out.append(text[at:a] + "\ue000")
        order.append(name)
        at = b
    out.append(text[at:])
    return "".join(out), order


def bowling_line(text: str, names: list[str], overs: int) -> str | None:
    """A plan line in canonical words, or ``None`` if ``text`` is not a plain plan line.

    ``names``: the words that name squad members as the line writes them (lower case), each
    standing for one bowler; ``overs``: the overs in the innings.
    """
    cue = _BOWLING_CUE.search(text) is not None  # said before the captain's words are read
    # the line's shape first: "Stone + Green", "Warne from one end, Flintoff from the other"
    text = ends(joined(text), names)
    text = plan_words(re.sub(r"(?:,?\s*and)?\s+no\s+more$", "", text))
    # the captain's reason ("since spin is good", "coz the pitch is cracked") is no plan
    text = re.sub(r"\s+(?:since|because|coz|cos|cause)\s+[^,;:]*", "", text)
    # a lone letter is an initial or "a"/"i", never a bowler on its own
    names = [n for n in names if len(n) > 1]
    if m := re.match(
        r"^(?:the\s+)?(\d{1,3})(?:st|nd|rd|th)?\s+over\s+(?:is\s+)?(?:for\s+|to\s+)?(.+)$", text
    ):
        text = f"{m.group(2)} {m.group(1)}"
    if cue or re.search(r"\d(?:st|nd|rd|th)\b", text):
        # "the first" is an over where the line speaks of bowling or of other overs by
        # ordinal ("Root the first, Tom Smith the second" may be a batting order)
        text = _FIRST_OVERS.sub(lambda m: "1st" if "first" in m.group(0) else "2nd", text)
    if _NOT_PLAN.search(_HAD.sub("", text)) or not re.search(
        r"\d|rest|left|remain|open|new ball|last|both ends", text
    ):
        return None
    if not cue and (_OPEN.search(text) or _PLACE.search(text)):
        # "Root and Stokes to open, Tom Smith at 3": openers and places are the batting's as
        # much as the bowling's; with no word of bowling the line is not a plain plan
        return None
    # clauses with no bowler, no over and no "rest" are the captain's reasons: they pass
    parts = re.split(r"\s*[,;:]\s*", text)
    text = ", ".join(
        p
        for p in parts
        if re.search(
            r"\d|rest|left|remain|open|new ball|odd|even|every|alternat|spell|starts|last"
            r"|quota|allocation|allotment|complement|whack|bowls? out",
            p,
        )
        or any(re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", p) for n in names)
    )
    # "the last 4 overs warne, rock, warne, flintoff": one over each, in the order written
    text = in_order(text, names, overs)
    marked, order = _mark(text, names)
    if not order:
        return None
    # "Warne and Flintoff bowl the death, Warne first": he starts their overs
    if _KIND_ALONE.search(marked):
        return None  # "the spinner 41, 43": a bowler said by his kind (``kind_plan``)
    marked = _NAME_FIRST.sub(" starts", marked)
    # "comes on at 21", "takes over from Warne at the 9th": where a spell starts
    marked = _ON_AT.sub(r"\1\2 from ", marked)
    groups: list[Group] = []
    context: tuple[int, int] | None = None  # a range said before any bowler ("the final ten")
    parity: int | None = None  # odd or even said before any bowler ("even overs 32-50: ...")
    opening = False  # "the opening spell ...", said before any bowler
    pre: list[int] = []  # overs said before their bowler ("the last over ... is for Warne")
    pending_and = False
    counted: Group | None = None  # a group whose one over so far is a plain number ("gets 6")
    who = iter(order)
    for m in _TOKEN.finditer(marked):
        kind = m.lastgroup
        g = groups[-1] if groups else None
        if kind == "name":
            name = next(who)
            if g is not None and pending_and and bare(g) and not g.ends and name not in g.names:
                g.names.append(name)
            else:
                # "Open: Warne & Freddie", "the opening pair is ...": said before the first
                # bowler, the opening is his
                groups.append(
                    Group(
                        [name],
                        parity=parity,
                        overs=list(dict.fromkeys(pre)),
                        opens=opening and not groups and context is None,
                    )
                )
                pre = []
            pending_and = False
            continue
        if kind == "comma":
            # "Anderson, Grey and Rock": a list of bowlers, while nothing is said of them
            # (not after an opener: "Warne opens with Rock, Warne overs 1 and 3" says them again)
            pending_and = pending_and or (g is not None and bare(g) and not (g.opens or g.ends))
            counted = None
            continue
        if kind == "partner":
            if g is None or not g.names:
                return None
            g.partner.append(next(who))
            continue
        if kind == "ref":
            name = next(who)
            if (
                m.group(0).startswith("with")
                and g is not None
                and g.overs in ([], [1])
                and (g.opens or _OPENS_TOO.match(marked, m.end()))
            ):
                # "Warne to open, with Flintoff sharing the new ball", "jimmy opens with warne"
                groups.append(Group([name], opens=g.opens, joint=True))
            elif m.group(0).startswith("with") and _STARTS_NEXT.match(marked, m.end()):
                groups.append(Group([name]))  # "with Rock first": he starts the pair's overs
            elif m.group(0).startswith("to") and (
                (g is None and (pre or context)) or (g is not None and g.rest and not g.names)
            ):
                # "overs 11 to 14 go to Stone and Rock", "give the 49th to Warne", "whatever's
                # left to Stone and Green": the bowlers the overs go to
                groups.append(Group([name], parity=parity, overs=list(dict.fromkeys(pre))))
                pre = []
            # else "at the other end to Stone", "takes over from Warne": a reference
            continue
        if kind == "quota":
            continue  # "which completes their ten overs apiece": his whole quota, said again
        if kind == "word":
            word = m.group(0)
            if word == "and":
                pending_and, counted = True, None
                continue
            if word not in _GLUE:
                return None
            continue
        pending_and = False
        if g is not None and g.joint and kind in ("range", "count", "lastn", "firstn", "full"):
            # "Warne opens with Flintoff, overs 1 to 8 between them": the pair's overs
            g = _pair_up(groups)
        if kind == "lasting":
            if g is not None or not opening or context is not None:
                return None
            context = (1, int(m.group("d")))  # "the opening spell is to last ten overs"
        elif kind == "range":
            a, b = int(m.group("a")), int(m.group("b"))
            if g is None:
                context = (a, b)
            else:
                g.span = (a, b)
        elif kind in ("lastn", "firstn"):
            span = (
                (overs - int(m.group("l")) + 1, overs)
                if kind == "lastn"
                else (1, int(m.group("f")))
            )
            if g is None:
                context = span if context is None else _within(context, span)
            elif g.overs:
                pass  # "Freddie 17 and 19 at death": the overs say it
            else:
                g.span = span
        elif kind in ("count", "full"):
            c = overs // 5 if kind == "full" else int(m.group("c") or m.group("c2"))
            if g is None:
                context = (1, c) if context is None else context
            else:
                g.count = c
        elif kind == "onward":
            span = (int(m.group("o")), overs)
            if g is None:
                context = span if context is None else _within(context, span)
            else:
                g.span = span
        elif kind == "upto":
            if g is None:
                return None
            g.end = int(m.group("u"))
        elif kind == "start":
            if g is None:
                return None
            if counted is g and g.count is None:
                # "Grey gets 6 from over 20": the number before where he starts is his count
                g.count, g.overs = g.overs[0], []
            g.overs.append(int(m.group("s")))
            g.started = True
        elif kind in ("num", "lastover"):
            if g is None and kind == "num" and m.group(0).isdigit():
                return None  # "4 - Flintoff 1, 3": a bare number first is no over of his
            o = int(m.group("n")) if kind == "num" else overs
            (pre if g is None else g.overs).append(o)
            plain = g is not None and g.overs == [o] and m.group(0).isdigit() and not g.started
            counted = g if plain else None
        elif kind in ("spell", "starts", "alt", "every", "ends"):
            if g is None:
                return None
            setattr(g, kind, True)
        elif kind in ("odd", "even"):
            if g is None:
                parity = 1 if kind == "odd" else 0
            else:
                g.parity = 1 if kind == "odd" else 0
        elif kind == "had":
            if g is None:
                return None
            g.count = int(m.group("h"))
        elif kind == "rest":
            if g is None or g.overs or g.span is not None:
                # "Warne overs 1-10 odd, the rest to Stone and Green": not Warne's
                groups.append(Group([], rest=True))
            else:
                g.rest = True
        elif kind == "open":
            if g is None:
                opening = True
            else:
                g.opens = True
    if pre:
        return None  # overs said and no bowler after them
    return build(groups, context, overs)


def _pair_up(groups: list[Group]) -> Group:
    """The opener and the partner "with" him as one pair, when what follows is said of both
    (a span or a count): the opener first."""
    g = groups[-1]
    if len(groups) > 1 and groups[-2].opens and bare(groups[-2]) and len(groups[-2].names) == 1:
        groups.pop()
        groups[-1].names += g.names
    return groups[-1]


def _within(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """ "the death overs from the 45th on": the overs both say."""
    return (max(a[0], b[0]), min(a[1], b[1]))


def open_with(text: str) -> str | None:
    """ "jimmy opens with warne since spin is good", with no word of bowling: the pair as
    "jimmy and warne open", which the grammar reads by the squad's roles (two bowlers open
    the bowling, two batsmen the batting, else it asks), never as the bowling's alone."""
    if _BOWLING_CUE.search(text) or _PLACE.search(text):
        return None
    text = re.sub(r"\s+(?:since|because|coz|cos|cause)\s+[^,;:]*", "", text).strip()
    m = re.fullmatch(r"(?P<a>[^,;:]+?)\s+opens?\s+with\s+(?P<b>[^,;:]+?)", text)
    return f"{m.group('a')} and {m.group('b')} open" if m else None


_SHEET = re.compile(
    r"^(?:.*?\b)?(?:the\s+)?(?:eleven|xi|playing\s+xi|team|side|the\s+11|11)\b[^:]*?"
    r"(?::|\bis\b|\bare\b|\bwill\s+be\b)\s*(?P<rest>.+)$"
)


def team_sheet(text: str, names: list[str]) -> str | None:
    """ "The eleven shall be as follows: Root, ...", "team is root stokes ...": ``xi: ...``."""
    m = _SHEET.match(text)
    if m is None:
        return None
    rest = m.group("rest")
    rest = re.sub(
        r"\b(?:in\s+no\s+particular\s+order|just\s+in\s+case|and|n|by\s+squad\s+number)\b",
        ",",
        rest,
    )
    marked, order = _mark(rest, names)
    items = [i.strip() for i in re.split(r"[,\s]+", marked) if i.strip()]
    if len(items) < 11:
        return None
    who = iter(order)
    out = []
    for item in items:
        if item == "\ue000":
            out.append(next(who))
        elif re.fullmatch(r"#?\d{1,2}", item):
            out.append("#" + item.lstrip("#"))
        elif re.fullmatch(r"[a-z]\.?", item):
            continue  # an initial before a name ("T. Smith" marked as "t." and "smith")
        else:
            out.append(item)  # a near miss of a name: the reader says "did you mean"
    if len(out) != 11:
        return None
    return "xi: " + ", ".join(out)


_TOSS = re.compile(r"(?<![\w'])toss(?![\w'])")
_BAT = re.compile(r"(?<![\w'])(?:bat|batting|have\s+a\s+bat)(?![\w'])")
_BOWL = re.compile(r"(?<![\w'])(?:bowl|bowling|field|fielding|put\s+them\s+in)(?![\w'])")


def toss_line(clauses: list[str]) -> str | None:
    """ "Should we win the toss, we shall bat; ...": ``toss: bat``, when the clause with the
    toss and the one after it say one of bat or bowl, and nothing else says the other."""
    for i, clause in enumerate(clauses):
        if _TOSS.search(clause) is None:
            continue
        near = " ".join(clauses[i : i + 2])
        bat, bowl = bool(_BAT.search(near)), bool(_BOWL.search(near))
        if bat == bowl:
            return None
        return "toss: " + ("bat" if bat else "bowl")
    return None


_ORDER_HEAD = re.compile(
    r"^(?:the\s+)?(?:batting\s+order|order|openers?|opening\s+pair)\b(?:\s+(?:is|are|will\s+be))?"
    r"(?:\s+to\s+be)?\s*:?\s*"
)
_ORDER_GLUE = frozenset(
    [
        "and",
        "to",
        "open",
        "opens",
        "then",
        "at",
        "number",
        "no",
        "last",
        "man",
        "first",
        "drop",
        "in",
        "the",
        "is",
        "are",
        "bat",
        "bats",
    ]
)


def batting_order(text: str, names: list[str]) -> str | None:
    """ "The batting order is to be: Root and Stokes to open; Tom Smith at three; ...":
    ``batting order: ...``, when every place said is the place the names' sequence gives."""
    m = _ORDER_HEAD.match(text)
    if m is None or not names:
        return None
    marked, order = _mark(text[m.end() :], names)
    place = 0
    for tok in re.finditer(r"\uE000|\d{1,2}|[\w']+", marked):
        word = tok.group(0)
        if word == "\ue000":
            place += 1
        elif word.isdigit():
            if int(word) != place:
                return None  # a place that is not where the name stands: not plain
        elif word not in _ORDER_GLUE:
            return None
    if len(order) < 2 or len(set(order)) != len(order):
        return None
    return "batting order: " + ", ".join(order)


# A bowler, for "the spinners": bowling 13 or more, which no batsman (2d6) or keeper (d6)
# of the seed's squad table reaches and every all-rounder and bowler does.
BOWLER_SKILL = 13


def _kind_patterns(one: bool) -> dict[str, re.Pattern[str]]:
    """The lexicon's ``[kinds]``: each kind's words as one pattern, "the" or "our" before
    them; ``one``: the words for one bowler of the kind ("our spinner"), else for all."""
    text = importlib.resources.files(__package__).joinpath("lexicon.toml").read_text("utf-8")
    start = text.index("\n[kinds]")
    end = text.find("\n[", start + 1)
    words = tomllib.loads(text[start : end if end > 0 else len(text)])["kinds"]
    out = {}
    for kind in ("spin", "pace"):
        said = sorted(words[f"{kind}_one" if one else kind], key=len, reverse=True)
        alts = "|".join(
            re.escape(w).replace(r"\ ", r"\s+")
            if w.startswith(("the ", "our "))
            else r"(?:the\s+|our\s+)?" + re.escape(w).replace(r"\ ", r"\s+")
            for w in said
        )
        out[kind] = re.compile(rf"(?<![\w'])(?:{alts})(?![\w'])")
    return out


# Made from the shipped lexicon at import, never changed: "the spinners" (all of a kind) and
# "our spinner" (one of it, the one where the squad has one, both asked where it has two)
_KIND_WORDS = _kind_patterns(one=False)
_ONE_OF_KIND = _kind_patterns(one=True)


def bowler_kinds(
    players: Iterable[Player], xi: Iterable[str] | None = None
) -> dict[str, tuple[str, ...]]:
    """The squad's bowlers of each kind, ``spin`` and ``pace`` (fast or medium), their names
    in lower case, best bowler first; only those in ``xi`` when the XI is known."""
    out: dict[str, list[tuple[int, str]]] = {"spin": [], "pace": []}
    chosen = set(xi) if xi is not None else None
    for p in players:
        if p.bowling >= BOWLER_SKILL and (chosen is None or p.name in chosen):
            kind = "spin" if p.bowling_style is BowlingStyle.SPIN else "pace"
            out[kind].append((-p.bowling, p.name.lower()))
    return {k: tuple(n for _, n in sorted(v)) for k, v in out.items()}


def known_xi(items: Iterable[Any], standing: MatchOrders | None) -> tuple[str, ...] | None:
    """The XI a mail gave on a line before (its read items), else the one that stands: the
    side "the spinners" are picked from."""
    given = [i.value for i in items if i.kind == "xi" and i.ok and i.value]
    if given:
        return tuple(given[-1])
    return standing.xi if standing is not None else None


def names_a_kind(text: str) -> bool:
    """Whether ``text`` names a kind of bowler ("the spinners 11 to 26" is no chatter)."""
    return any(p.search(text) is not None for p in (*_KIND_WORDS.values(), *_ONE_OF_KIND.values()))


_RULE_BOWLS = re.compile(r"(?<![\w'])(?:bowl|bowls|bowling)(?![\w'])")
_BOWL_AUX = re.compile(r"\s+(?:to\s+|will\s+|should\s+|can\s+|must\s+|shall\s+)?")


def kinds_in_rule(text: str, kinds: Mapping[str, tuple[str, ...]] | None) -> str:
    """ "if 7 down, the spinners bowl the rest": in a line that says who bowls, a kind of
    bowler the squad makes plain is its bowlers; anywhere else ("attack the spinners") and
    where it is not plain, the line is left as written."""
    if not kinds or _RULE_BOWLS.search(text) is None:
        return text
    # only a kind that is who bowls ("the spinners bowl ..."), never whom one bats against
    if not any(
        _RULE_BOWLS.match(text, m.end() + len(w.group(0)))
        for p in _KIND_WORDS.values()
        for m in p.finditer(text)
        if (w := _BOWL_AUX.match(text, m.end())) is not None
    ):
        return text
    return name_kinds(text, kinds) or text


def kind_plan(
    text: str, kinds: Mapping[str, tuple[str, ...]], runs: Callable[[str], list[str]], overs: int
) -> str | None:
    """A plan line that names bowlers by kind, in canonical words (``bowling_line``): "the
    spinners" as the squad's, "our spinner" as its one; where he is one of two, each is
    read, and the readings that are plans come back on separate lines (two: asked).
    ``runs``: the squad names a text writes (``name_runs``)."""
    texts = [t] if (t := name_kinds(text, kinds)) is not None else []
    for kind, pattern in _ONE_OF_KIND.items():
        if pattern.search(text) is None or len(texts) > 1:
            continue
        who = kinds.get(kind, ())
        if not 1 <= len(who) <= 2:
            return None  # which of many is the manager's to say
        texts = [pattern.sub(w, x) for w in who for x in texts or [text]]
    plans = [p for x in texts if (p := bowling_line(x, runs(x), overs)) is not None]
    return "\n".join(dict.fromkeys(plans)) if plans else None


def name_kinds(text: str, kinds: Mapping[str, tuple[str, ...]]) -> str | None:
    """``text`` with "the spinners", "spin", "the quicks" ... as the squad's bowlers of that
    kind, when the squad makes them plain: one or two of them ("Anderson and Grey").
    ``None`` when the text names no kind, or a kind the squad has none of or more than two
    of (which two of five seamers is for the manager to say, never for pbm to guess)."""
    named = False
    for kind, pattern in _KIND_WORDS.items():
        if pattern.search(text) is None:
            continue
        who = kinds.get(kind, ())
        if not 1 <= len(who) <= 2 or (len(who) == 1 and re.search(r"\bboth\s+ends\b", text)):
            return None
        text = pattern.sub(" and ".join(who), text)
        named = True
    return text if named else None

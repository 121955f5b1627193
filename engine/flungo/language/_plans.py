"""Bowling plans, team sheets and the toss as fans write them, built from their structure.

A captain's plan line is names and overs: "Flintoff the 41st, 43rd and 48th; Warne the 44th",
"Anderson and Grey 7 to 14 between em", "Tweaker Anderson on at 7, every second over till
he's had 6", "the rest split between Stone and Green". Here the line is cut into its tokens
(a bowler or a pair, overs by number or ordinal, a range, odd or even, every second over, a
count of overs, the new ball, the rest) and the plan is built from their order, in the
canonical words ("Jimmy Anderson bowls overs 7, 9, 11"). The canonical reader reads the result
and checks it like any other plan line. A word this module does not know makes it give up, so
the line is refused with that word named, never read without it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.flungo.orders import MatchOrders
from engine.flungo.squad import BowlingStyle, Player

__all__ = [
    "batting_order",
    "bowler_kinds",
    "bowling_line",
    "name_kinds",
    "names_a_kind",
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
        "alternately",
        "alternate",
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
    ]
)
# Words that make a line something other than a plan: a condition, a quota, a style.
_NOT_PLAN = re.compile(
    r"(?<![\w'])(?:if|when|whenever|unless|once|until|till|while|before|after|provided|should|"
    r"should|except|only|not|don't|dont|never|max|maximum|maximal|most|more|less|fewer|"
    r"defensive|normal|aggressive|wahoo|bat|bats|batting|wickets?|runs?|score|hit|injured|"
    r"hurt|emergency|belted|hammered)(?![\w'])"
)
# "with Flintoff sharing the new ball": the partner opens too (else "with" names a reference)
_OPENS_TOO = re.compile(r"\s+(?:sharing|shares|share|taking|takes|to\s+share)\s+the\s+new\s+ball")
# "till he's had 6": a count of overs, not a condition
_HAD = re.compile(r"(?:till|until)\s+he(?:'s|\s+is|\s+has)\s+had\s+\d{1,3}")
_TOKEN = re.compile(
    r"(?P<range>(?:from\s+)?(?:the\s+)?(?:over\s+)?(?P<a>\d{1,3})(?:st|nd|rd|th)?(?:\s+over)?"
    r"\s*(?:to|-|–|until|till)\s*(?:the\s+)?(?:over\s+)?(?P<b>\d{1,3})(?:st|nd|rd|th)?)"
    r"|(?P<lastn>(?:for\s+)?(?:the\s+)?(?:last|final)\s+(?P<l>\d{1,3})(?:\s+overs?)?)"
    r"|(?P<firstn>(?:for\s+)?(?:the\s+)?first\s+(?P<f>\d{1,3})\s+overs?)"
    r"|(?P<quota>(?:which\s+|that\s+)?complet\w*\s+(?:their|his)\s+(?:full\s+)?\d{1,3}\s+overs"
    r"(?:\s+(?:apiece|each))?|(?:that|which)\s+should\s+be\s+his\s+(?:full\s+)?\d{1,3})"
    r"|(?P<lasting>(?:is\s+to\s+|to\s+|will\s+|should\s+)last\s+(?:for\s+)?(?P<d>\d{1,3})\s+overs)"
    r"|(?P<count>(?P<c>\d{1,3})\s+(?:overs?\s+)?(?:each|apiece|in\s+all|overs?)"
    r"|(?:his|their)\s+(?:full\s+)?(?P<c2>\d{1,3}))"
    r"|(?P<num>(?P<n>\d{1,3})(?:st|nd|rd|th)?)"
    r"|(?P<odd>odd-numbered|odds?)|(?P<even>even-numbered|evens?)"
    r"|(?P<every>every\s+(?:second|other|2nd|alternate)\s+over)"
    r"|(?P<had>(?:till|until)\s+he(?:'s|\s+is|\s+has)\s+had\s+(?P<h>\d{1,3}))"
    r"|(?P<lastover>(?:the\s+)?last\s+over(?:\s+of\s+the\s+innings)?)"
    r"|(?P<rest>the\s+rest|whatever\s+is\s+left|the\s+overs\s+which\s+remain|the\s+remaining"
    r"(?:\s+overs)?|any\s+overs\s+that\s+i\s+have\s+failed\s+to\s+account\s+for)"
    r"|(?P<open>open(?:s|ing)?(?:\s+the\s+bowling)?|(?:take|takes|sharing|share)\s+the\s+new\s+ball"
    r"|new\s+ball)"
    r"|(?P<ref>(?:to|with|from|than)\s+(?P<refname>\uE000))"
    r"|(?P<name>\uE000)"
    r"|(?P<word>[\w'’-]+)"
)


@dataclass
class _Group:
    names: list[str]
    overs: list[int] = field(default_factory=list)
    span: tuple[int, int] | None = None
    parity: int | None = None  # 1 odd, 0 even
    every: bool = False
    count: int | None = None
    opens: bool = False
    rest: bool = False
    joint: bool = False  # "with Flintoff": a partner, an opener if the line says so


def _bare(g: _Group) -> bool:
    """Whether nothing is said yet of ``g`` but its names ("Anderson and ..." joins them)."""
    return not g.overs and g.span is None and g.parity is None and not g.every and not g.rest


def _mark(text: str, names: list[str]) -> tuple[str, list[str]]:
    """``text`` with each squad name (longest first, whole words) as one marker character."""
    found: list[tuple[int, int, str]] = []
    taken = [False] * len(text)
    for name in sorted(names, key=len, reverse=True):
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
    text = re.sub(r"(?:,?\s*and)?\s+no\s+more$", "", text)
    # the captain's reason ("since spin is good", "coz the pitch is cracked") is no plan
    text = re.sub(r"\s+(?:since|because|coz|cos|cause)\s+[^,;:]*", "", text)
    # a lone letter is an initial or "a"/"i", never a bowler on its own
    names = [n for n in names if len(n) > 1]
    if m := re.match(
        r"^(?:the\s+)?(\d{1,3})(?:st|nd|rd|th)?\s+over\s+(?:is\s+)?(?:for\s+|to\s+)?(.+)$", text
    ):
        text = f"{m.group(2)} {m.group(1)}"
    if _NOT_PLAN.search(_HAD.sub("", text)) or not re.search(
        r"\d|rest|left|remain|open|new ball", text
    ):
        return None
    # clauses with no bowler, no over and no "rest" are the captain's reasons: they pass
    parts = re.split(r"\s*[,;:]\s*", text)
    text = ", ".join(
        p
        for p in parts
        if re.search(r"\d|rest|left|remain|open|new ball|odd|even|every", p)
        or any(re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", p) for n in names)
    )
    marked, order = _mark(text, names)
    if not order:
        return None
    groups: list[_Group] = []
    context: tuple[int, int] | None = None  # a range said before any bowler ("the final ten")
    parity: int | None = None  # odd or even said before any bowler ("even overs 32-50: ...")
    opening = False  # "the opening spell ...", said before any bowler
    pending_and = False
    who = iter(order)
    for m in _TOKEN.finditer(marked):
        kind = m.lastgroup
        g = groups[-1] if groups else None
        if kind == "name":
            name = next(who)
            if g is not None and pending_and and _bare(g):
                g.names.append(name)
            else:
                groups.append(_Group([name], parity=parity))
            pending_and = False
            continue
        if kind == "ref":
            name = next(who)
            if (
                m.group(0).startswith("with")
                and g is not None
                and not g.overs
                and (g.opens or _OPENS_TOO.match(marked, m.end()))
            ):
                # "Warne to open, with Flintoff sharing the new ball", "jimmy opens with warne"
                groups.append(_Group([name], opens=g.opens, joint=True))
            # else "at the other end to Stone", "takes over from Warne": a reference
            continue
        if kind == "quota":
            continue  # "which completes their ten overs apiece": his whole quota, said again
        if kind == "word":
            word = m.group(0)
            if word == "and":
                pending_and = True
                continue
            if word not in _GLUE:
                return None
            continue
        pending_and = False
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
                context = span
            elif g.overs:
                pass  # "Freddie 17 and 19 at death": the overs say it
            else:
                g.span = span
        elif kind == "count":
            c = int(m.group("c") or m.group("c2"))
            if g is None:
                context = (1, c) if context is None else context
            else:
                g.count = c
        elif kind == "num":
            if g is None:
                return None
            g.overs.append(int(m.group("n")))
        elif kind == "lastover":
            if g is None:
                return None
            g.overs.append(overs)
        elif kind in ("odd", "even"):
            if g is None:
                parity = 1 if kind == "odd" else 0
            else:
                g.parity = 1 if kind == "odd" else 0
        elif kind == "every":
            if g is None:
                return None
            g.every = True
        elif kind == "had":
            if g is None:
                return None
            g.count = int(m.group("h"))
        elif kind == "rest":
            if g is None:
                groups.append(_Group([], rest=True))
            else:
                g.rest = True
        elif kind == "open":
            if g is None:
                opening = True
            else:
                g.opens = True
    return _build(groups, context, overs)


def _build(groups: list[_Group], context: tuple[int, int] | None, overs: int) -> str | None:
    out: list[str] = []
    given: dict[int, str] = {}
    openers: list[str] = []
    rest_names: list[str] = []
    pending_rest = False
    shared: set[int] = set()
    for i, g in enumerate(groups):
        # "Anderson and Grey in harness from the 11th to the 26th, Anderson taking the odd
        # overs and Grey the even": the pair's span, then how they share it
        later = [h for h in groups[i + 1 :] if h.names and set(h.names) <= set(g.names)]
        if (
            len(g.names) > 1
            and g.span is not None
            and not g.overs
            and g.parity is None
            and {n for h in later for n in h.names} == set(g.names)
            and all(h.span is None and not h.overs and h.parity is not None for h in later)
        ):
            shared.add(i)
            for h in later:
                h.span = g.span
    for i, g in enumerate(groups):
        if i in shared:
            continue
        if not g.names:
            pending_rest = pending_rest or g.rest
            continue
        if pending_rest:
            g.rest, pending_rest = True, False
        if g.rest:
            if g.overs or g.span:
                return None
            rest_names += g.names
            continue
        span = g.span or (
            context if (g.parity is not None or g.every or len(g.names) > 1) else None
        )
        if g.opens and not g.overs and span is None:
            if g.count is not None:
                # "Warne and Flintoff to open, two overs each": in turn from the first over
                span = (1, g.count * len(g.names))
            else:
                openers += g.names
                continue
        mine: list[int]
        if g.overs and span is None and g.parity is None and not g.every:
            mine = g.overs
            if g.count is not None and g.count != len(mine):
                return None
        elif span is not None or (g.every and g.overs):
            a, b = span if span is not None else (g.overs[0], overs)
            if not 1 <= a <= b <= overs:
                return None
            if g.every:
                if g.count is not None:
                    b = min(overs, a + 2 * (g.count - 1))
                mine = list(range(a, b + 1, 2))
            elif g.parity is not None:
                mine = [o for o in range(a, b + 1) if o % 2 == g.parity]
            else:
                mine = list(range(a, b + 1))
            if len(g.names) > 1 and g.parity is None and not g.every:
                # a pair over a range: in turn, from both ends
                text = " and ".join(g.names) + f" bowl overs {a}-{b}"
                for i, o in enumerate(mine):
                    if given.setdefault(o, g.names[i % len(g.names)]) != g.names[i % len(g.names)]:
                        return None
                out.append(text)
                continue
            if g.count is not None and g.count != len(mine) and not g.every:
                return None
        else:
            return None  # a bowler with no overs: nothing to build (a quota is not a plan)
        if len(g.names) != 1 or not mine:
            return None
        for o in mine:
            if not 1 <= o <= overs or given.setdefault(o, g.names[0]) != g.names[0]:
                return None  # an over given to two bowlers in one line: not plain
        out.append(f"{g.names[0]} overs {', '.join(map(str, mine))}")
    if openers:
        if len(openers) != 2:
            return None
        out.insert(0, f"{openers[0]} opens the bowling with {openers[1]}")
    if rest_names:
        out.append(" and ".join(rest_names) + " the rest")
    if pending_rest or not out:
        return None
    return ", ".join(out)


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
_KIND_WORDS = {
    "spin": re.compile(
        r"(?<![\w'])(?:the\s+)?(?:spin(?:\s+twins|\s+bowlers)?|spinners|tweakers|slow\s+bowlers)"
        r"(?![\w'])"
    ),
    "pace": re.compile(
        r"(?<![\w'])(?:the\s+)?(?:pace(?:\s+bowlers)?|pacemen|quicks|seamers|fast\s+bowlers)"
        r"(?![\w'])"
    ),
}


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
    return any(p.search(text) is not None for p in _KIND_WORDS.values())


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

"""A refused line of several clauses that leave words out, read again with the words put back.

People write several wishes in one line and leave out what the clauses share: English grammar
calls it coordination with ellipsis (Quirk et al. 1985, ch. 13 and §12.31ff; the Cambridge
Grammar, ch. 15). The reader already takes "X until 30 overs, then aggressive" (a later clause
with no subject or time takes the earlier's). This pass fills the other shapes in a line
refused, or read against its clauses (two styles at once for a batsman, every batsman's
style in a line that names batsmen and no group, "vice versa" passed over, a plan's "then
he's back" dropped), and gives the result to the same reader, whole or not at all
(``docs/rules/orders-several-wishes.md``):

- the **temporal conjuncts** of sequence (Quirk §8.137, §15.34: afterwards, thereafter, after
  that, from then on, subsequently, later, finally, lastly), before or after their clause, are
  "then" at its start: the later clause starts where the earlier clause's span ends;
- a later clause's **subject pronoun** for the earlier clause's batsmen ("both", "all three",
  "the pair", "they", "each of them") is those batsmen, when their number agrees;
- a later clause with no subject and a time of its own, after a clause with none, is a second
  order for the earlier clause's subject ("Stokes normal, then wahoo after 40 overs");
- **"respectively"** pairs a list of batsmen with a list of styles one to one, and is refused
  when the lists differ in length;
- **"vice versa"** ("the other way round") is the earlier clause's two batsmen with their
  styles swapped.

Nothing here guesses: a line that gives one batsman two styles at the same moment is left to
the refusal (or the question) it had.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from engine.errors import InvalidOrder, Span
from engine.flungo.language._items import Item
from engine.flungo.language._lines import CleanLine, clean_line
from engine.flungo.language._meaning import name_runs
from engine.flungo.language._model import EchoLine, NotUnderstood
from engine.flungo.language._names import NameBook
from engine.flungo.language._remarks import without_remarks
from engine.flungo.language._state import Mark, ReadState
from engine.flungo.language._typos import corrected, sure_typos, typos
from engine.flungo.orders import Rule, StyleChange, TargetKind

__all__ = ["MARKERS", "ellipsis_line", "filled"]

ReadOne = Callable[[CleanLine], tuple[bool, Item | None]]

# Quirk's temporal conjuncts of sequence, and "and then"; "next" is left out, as "the next 2
# batsmen" is a group of the orders
_SEQUENCE = (
    r"thereafter|afterwards?|after\s+that|after\s+this|from\s+then\s+on|from\s+there\s+on|"
    r"from\s+that\s+point\s+on|from\s+there|subsequently|later\s+on|later|finally|lastly"
)
_STYLE = r"defensive(?:ly)?|normal(?:ly)?|aggressive(?:ly)?|wahoo"
# what a line must hold for this pass to try it at all (a refused line without any is left
# as it was, at the cost of one search)
MARKERS = re.compile(
    rf"\b(?:{_SEQUENCE}|respectively|vice\s+versa|other\s+way\s+(?:round|around|about)|"
    r"then|both|all\s+(?:three|four|five)|still\s+in|the\s+(?:pair|two|three)|they|each|"
    r"and\s+(?:after|when|once|from|goes|go|bats|turns|switches|moves|changes|becomes|"
    rf"drops|steps|shifts|bowls|bowl|comes|returns|back|{_STYLE}))\b",
    re.IGNORECASE,
)
_LEADING = re.compile(rf"(^|[,;.:]\s*|\s-+\s*)(?:and\s+)?(?:{_SEQUENCE})\b[\s,]*", re.IGNORECASE)
_TRAILING = re.compile(rf"\s*,?\s+(?:{_SEQUENCE})\s*(?=[,;.]|$)", re.IGNORECASE)
# the subject pronouns and quantifiers that stand for batsmen named before (Quirk §6.49ff,
# §6.57: "both", "each", "all" as pronouns), with how many they must be (0: any, 2 or more)
_PRONOUN = re.compile(
    r"(?P<lead>\bthen|[,;:])\s+(?P<p>both\s+of\s+them|they\s+both|both|the\s+pair(?:\s+of\s+them)?|"
    r"the\s+two(?:\s+of\s+them)?|all\s+three(?:\s+of\s+them)?|the\s+three(?:\s+of\s+them)?|"
    r"all\s+four|each\s+of\s+them|all\s+of\s+them|they)\b",
    re.IGNORECASE,
)
_PRONOUN_HINTS = ("then", "Then", "both", "pair", "two", "three", "four", "each", "they")
_COUNTS = {"both": 2, "pair": 2, "two": 2, "three": 3, "four": 4, "five": 5}
_GROUP = re.compile(
    r"\b(?:all\s+batsmen|all|everyone|everybody|the\s+rest|the\s+tail|"
    r"the\s+remaining\s+batsmen)\b",
    re.IGNORECASE,
)
# where a span of the earlier clause ends ("until", "till", "for the first 10 overs"), so that
# "then" is when it ends; and the words that give a clause a time of its own
_ENDS = re.compile(
    r"\b(?:until|till|til|up\s+to|for\s+the\s+first|during\s+the\s+first|in\s+the\s+first|"
    r"first\s+\w+\s+overs|powerplay)\b",
    re.IGNORECASE,
)
_TIME = re.compile(
    r"\b(?:after|when|whenever|once|from|if|unless|at\s+drinks|with\s+\w+\s+(?:balls|overs)|"
    r"in\s+the\s+last|last\s+\w+\s+overs|for\s+the\s+last)\b",
    re.IGNORECASE,
)
_RESPECTIVELY = re.compile(r"\brespectively\b", re.IGNORECASE)
_VICE_VERSA = re.compile(
    r"[,;]?\s*(?:and\s+)?(?:then\s+)?(?:vice\s+versa|the\s+other\s+way\s+(?:round|around|about))",
    re.IGNORECASE,
)


def filled(text: str, protect: frozenset[str], names: tuple[str, ...]) -> str | InvalidOrder:
    """``text`` with the words its clauses leave out put back, in words the reader knows
    (the same text where nothing is left out); an error where "respectively" pairs lists
    of different lengths."""
    paired = _respectively(text, protect, names)
    if isinstance(paired, InvalidOrder):
        return paired
    text = _vice_versa(_distributed(paired, protect, names), protect, names)
    text = _anchored(text, _sequence(text))
    text = _pronouns(text, protect, names)
    return _bowler_clauses(_second_orders(text, protect, names), protect, names)


def ellipsis_line(
    cl: CleanLine,
    read_one: ReadOne,
    st: ReadState,
    mark: Mark,
    ahead: tuple[bool, Item | None],
    protected: Callable[[tuple[str, ...]], frozenset[str]],
    names: list[str],
    overs: int,
) -> tuple[bool, Item | None]:
    """A line refused, read again with the words its clauses leave out put back
    (:func:`filled`), and if need be without its remarks: kept, with a note
    saying how it was read, when it then reads whole and gives no batsman two styles at
    once; else the refusal stands as it was. A line read that gives a batsman two styles
    at the same moment ("Stokes normal and goes wahoo after 40 overs" read as one order at
    40 overs) is read so too, and refused if it still does."""
    read = len(st.errors) == mark[1]
    plain = cl.plain
    if read and " and " not in plain and "," not in plain and "then" not in plain:
        return ahead  # one clause, read: the cost of a line that reads is three looks
    why = _suspect(cl, st, mark, protected, names) if read else ""
    clash = why == "refuse"  # read against its clauses: refused if no filling reads
    if (read and not why) or not MARKERS.search(cl.plain):
        return _refuse_clash(cl, st, mark) if clash else ahead
    protect = protected(tuple(names))  # the words of the squads' names
    text = filled(cl.plain, protect, tuple(names))  # with its commas: they part clauses
    if isinstance(text, InvalidOrder):
        st.undo(mark)  # the lists of "respectively" do not pair: said so, not a word unknown
        at = max(cl.text.lower().find("respectively"), 0)
        span = Span(cl.number, cl.column(at), cl.column(at + len("respectively")))
        st.errors.append(replace_span(text, cl.raw, span))
        return False, None
    said = set(name_runs(MARKERS.sub(" ", cl.plain.lower()), protect, tuple(names)))
    if text == cl.plain or not said <= set(name_runs(text.lower(), protect, tuple(names))):
        # nothing filled, or a squad member the filling lost: never read without him
        return _refuse_clash(cl, st, mark) if clash else ahead
    was = st.since(mark)
    # read as if the player had written the words put back (what is read past is said of
    # them); the items then point at the player's own line
    tried = clean_line(cl.number, text)  # as the player's own line is cleaned
    if tried is None:
        return ahead
    st.undo(mark)
    again = read_one(tried)
    sure: dict[str, str] = {}
    if not st.reads_whole(mark) and (sure := _sure_typos(tried, st, protect)):
        st.undo(mark)  # "he goes agressive and then wahoo": the typo put right as well
        tried = replace(tried, text=corrected(tried.text, sure), plain=corrected(text, sure))
        again = read_one(tried)
    if not st.reads_whole(mark):
        again = without_remarks(tried, read_one, st, mark, again, protect, overs, names)
    if st.reads_whole(mark) and not two_styles(st.items[mark[0] :]):
        for item in st.items[mark[0] :]:
            item.line, item.start, item.end = cl, 0, len(cl.text)
        st.notes.append(EchoLine(cl.number, f"read as '{text.strip()}'"))
        st.notes += [EchoLine(cl.number, f"read '{w}' as '{r}'") for w, r in sure.items()]
        return again
    if clash and _asked(st, mark):
        return again  # both readings shown, neither acted on: better than either guess
    st.restore(mark, was)
    return _refuse_clash(cl, st, mark) if clash else ahead


def _asked(st: ReadState, mark: Mark) -> bool:
    """Whether what was read since ``mark`` is a question with its readings and nothing else."""
    asked = st.not_understood[mark[2] :]
    return (
        len(st.errors) == mark[1]
        and len(st.items) == mark[0]
        and bool(asked)
        and all(len(n.readings) > 1 for n in asked)
    )


def _suspect(
    cl: CleanLine,
    st: ReadState,
    mark: Mark,
    protected: Callable[[tuple[str, ...]], frozenset[str]],
    names: list[str],
) -> str:
    """Whether a line read is read against its clauses ("refuse": refused unless filling
    reads): a batsman given two styles at once; a word that pairs or swaps clauses passed
    over ("and vice versa at drinks" read without it); or every batsman given a style in a
    line that names batsmen and says no group, the default of a clause with no subject
    ("Root defensive, and after 30 overs goes wahoo" read as all batsmen wahoo). "keep": a
    pronoun for batsmen named before ("then both"), read again filled, else as it was."""
    items = st.items[mark[0] :]
    if (
        any(i.kind == "plan" for i in items)
        and (m := _BACK_AGAIN.search(cl.plain))
        and not re.search(rf"\d|{_STYLE}", m.group("rest"), re.IGNORECASE)
    ):
        return "refuse"  # a plan's "then he's back for the death" read as nothing: dropped
    if not any(i.kind in _STYLED for i in items):
        return ""  # no style given: nothing a clause's subject could be wrong in
    if two_styles(items):
        return "refuse"
    if len(st.notes) > mark[5] and any(_PAIRING.search(n.text) for n in st.notes[mark[5] :]):
        return "refuse"
    plain = cl.plain
    if any(w in plain for w in _PRONOUN_HINTS) and _PRONOUN.search(plain):
        return "keep"  # "then both aggressive" read for one of the two
    if not any(_to_all(i) for i in items) or _ANY_GROUP.search(cl.plain):
        return ""
    if re.search(r"[.;]\s", cl.plain):
        return ""  # a sentence of its own: "Root defensive. after 30 overs wahoo" as before
    return "refuse" if name_runs(plain.lower(), protected(tuple(names)), tuple(names)) else ""


# a plan's later clause that brings its bowler back, and what it says of when
_BACK_AGAIN = re.compile(
    r"\bthen\s+(?:(?:he|hes|he's|she|shes|she's|they|they're)\s+)?(?:is\s+|are\s+)?"
    r"(?:comes?\s+)?(?:back|returns?)\b(?P<rest>[^,;.]*)",
    re.IGNORECASE,
)
_STYLED = frozenset(("style", "all_style", "rule"))
_PAIRING = re.compile(
    r"\b(?:respectively|versa|other\s+way|conversely|likewise|similarly|ditto)\b", re.I
)
# any word that may say a group of batsmen itself: where one is written, "all" is no default
_ANY_GROUP = re.compile(
    r"\b(?:all|every\w*|rest|tail\w*|bat\w*men|batters|remaining|others?|team|side|lads|"
    r"boys|guys|girls|whole|any\w*|whoever\S*|squad|order|line-?up|they|them|"
    r"lot|crease|middle|in|except\w*|excluding|bar|barring|apart|besides|save)\b",
    re.IGNORECASE,
)


def _to_all(item: Item) -> bool:
    if item.kind == "all_style":
        return True
    return item.kind == "rule" and isinstance(item.value, Rule) and _rule_to_all(item.value)


def _rule_to_all(rule: Rule) -> bool:
    kinds = (TargetKind.ALL, TargetKind.REMAINING)
    if any(isinstance(a, StyleChange) and a.target.kind in kinds for a in rule.actions):
        return True
    return any(_rule_to_all(r) for r in rule.then)


def _refuse_clash(cl: CleanLine, st: ReadState, mark: Mark) -> tuple[bool, Item | None]:
    """The line's reading goes against its clauses (:func:`_suspect`): never a guess."""
    two = two_styles(st.items[mark[0] :])
    st.undo(mark)
    st.errors.append(
        InvalidOrder(
            "this line gives a batsman two styles at the same moment, so it is not acted on"
            if two
            else "a part of this line says no batsman, and pbm cannot tell whose it is, so"
            " the line is not acted on",
            source_line=cl.raw,
            span=Span(cl.number, cl.column(0), cl.column(len(cl.text))),
            hint="say when each style starts, e.g. 'Stokes normal; after 40 overs: Stokes "
            "wahoo', or give each order a line of its own",
        )
    )
    st.not_understood.append(NotUnderstood(cl.number, cl.raw.strip(), st.errors[-1].message))
    return False, None


def _sure_typos(cl: CleanLine, st: ReadState, protect: frozenset[str]) -> dict[str, str]:
    """The plain typos of ``cl`` that can be one word alone (:mod:`._typos`)."""
    if st.team is None:
        return {}
    own = NameBook([p.name for p in st.team.players])
    they = st.context.opponent
    opponent = NameBook([p.name for p in they.players], "opposing player") if they else None
    return sure_typos(typos(cl.text, own, opponent, protect))


def replace_span(err: InvalidOrder, raw: str, span: Span) -> InvalidOrder:
    """``err`` placed under its word in the player's line."""
    return InvalidOrder(err.message, source_line=raw, span=span, hint=err.hint)


def _sequence(text: str) -> str:
    """The conjuncts of sequence as "then" at the start of their clause ("and then" too:
    "and" adds nothing to "then", Quirk §13.18)."""
    text = _AND_THEN.sub(", then ", text)
    out = _TRAILING_CLAUSE.sub(lambda m: f"{m.group(1)}then {m.group(2).strip()}", text)
    return _LEADING.sub(lambda m: (", " if m.group(1) else "") + "then ", out).strip(" ,")


_AND_THEN = re.compile(r"\s*,?\s+and\s+then\b\s*", re.IGNORECASE)
# a clause (after a comma, a semicolon, a full stop or a dash) that ends in a conjunct
_TRAILING_CLAUSE = re.compile(
    rf"(^|[,;.]\s*|\s-+\s*)(?:and\s+)?([^,;.]*?)\s+(?:{_SEQUENCE})\s*(?=[,;.]|$)", re.IGNORECASE
)


def _anchored(text: str, then: str) -> str:
    """``then`` where its first "then" has somewhere to start: the end of the earlier
    clause's span, the earlier clause's time, or a time of the later clause's own; else
    ``text`` as it was ("Root defensive; Stokes aggressive thereafter": after what?)."""
    if then == text:
        return text
    m = re.search(r"\bthen\b", then, re.IGNORECASE)
    if m is None:
        return text
    before, after = then[: m.start()], then[m.end() :]
    if _ENDS.search(before) or _TIME.search(before) or _TIME.search(after):
        return then
    return text


def _pronouns(text: str, protect: frozenset[str], names: tuple[str, ...]) -> str:
    """ "then both normal": the batsmen named before "then", where their number agrees."""
    m = _PRONOUN.search(text)
    if m is None:
        return text
    said = _named(text[: m.start()], protect, names)
    word = m.group("p").lower()
    need = next((n for w, n in _COUNTS.items() if w in word.split()), 0)
    if len(said) < 2 or (need and len(said) != need):
        return text  # "both" of three batsmen, or of one: not filled, the refusal stands
    if _named(text[m.end() :].split(",")[0].split(" and ")[0], protect, names):
        return text  # "both Root and Stokes": a determiner of the names after it
    last = text.lower().rfind(said[-1], 0, m.start()) + len(said[-1])
    between = text[last : m.start()]
    if not re.search(r"\w", between):
        return text  # "Root and Stokes, both aggressive": "both" floats after its names
    lead = "then" if m.group("lead").lower() == "then" else m.group("lead")
    return f"{text[: m.start()]}{lead} {' and '.join(said)}{text[m.end() :]}"


def _second_orders(text: str, protect: frozenset[str], names: tuple[str, ...]) -> str:
    """ "Stokes bats normal, then wahoo after 40 overs", "Tom Smith normal from the 31st over
    and aggressive from the 41st": the later clause has a time of its own and no subject, so
    it takes the earlier's (Quirk §13.69). After a clause with no time it is a second order;
    after one with a time it follows it ("then"), as the reader chains "until X, then Y"."""
    m = _THEN.search(text) or _AND_VERB.search(text)
    if m is None:
        return text
    first, second = text[: m.start()], text[m.end() :]
    if not _TIME.search(second) or not re.search(_STYLE, second, re.IGNORECASE):
        return text
    if name_runs(second.lower(), protect, names) or _GROUP.search(second):
        return text
    subject = _subject(first, protect, names)
    if not subject:
        return text
    lead = _LEAD_TIME.match(second)  # "after 30 overs goes wahoo": the subject after the time
    at = lead.end() if lead else 0
    said = f"{second[:at]}{subject} {second[at:]}"
    if _TIME.search(first) or _ENDS.search(first):
        return f"{first}, then {said}"
    return f"{first}. {said}"


_THEN = re.compile(r"\s*[,;]?\s*\bthen\b\s*", re.IGNORECASE)
_VERB = r"goes|go|bats|bat|turns|switches|moves|changes|becomes|drops|steps|shifts"
_LEAD_TIME = re.compile(rf"(?:after|when|once|from|at)\b[^,;]*?\s+(?=(?:{_VERB})\b)", re.I)
# "and goes wahoo", "and after 40 overs turns aggressive", "and aggressive from the 41st": a
# verb of the orders or a style with no subject of its own after "and" (subject ellipsis)
_AND_VERB = re.compile(
    rf"\s*,?\s+and\s+(?=(?:(?:after|when|once|from)\b[^,;]*?\s+)?(?:{_VERB}|{_STYLE})\b)",
    re.IGNORECASE,
)


def _subject(clause: str, protect: frozenset[str], names: tuple[str, ...]) -> str:
    said = _named(clause, protect, names)
    if said:
        return " and ".join(said)
    group = _GROUP.search(clause)
    return group.group(0) if group else ""


# "if Root and Stokes are both still in": a state said once of coordinated batsmen, which
# holds of each (Quirk §13.55, "both" as distributive), in the words a condition has
_SHARED_STATE = re.compile(
    r"\b(?P<conj>if|when|once|while|provided|as\s+long\s+as)\s+(?P<who>[^,;:]+?)\s+"
    r"(?:are\s+|r\s+)?(?:both\s+|all\s+(?:three|four)\s+)?(?P<still>still\s+)?"
    r"(?P<state>in|not\s+out|at\s+the\s+crease|batting)\b",
    re.IGNORECASE,
)


def _distributed(text: str, protect: frozenset[str], names: tuple[str, ...]) -> str:
    """ "if Root and Stokes are both still in": "if Root is still in and Stokes is still in"."""
    m = _SHARED_STATE.search(text)
    if m is None:
        return text
    parts = [p for p in re.split(r"\s*(?:,|\band\b|&)\s*", m.group("who")) if p.strip()]
    if len(parts) < 2 or any(name_runs(p.lower(), protect, names) != [p.lower()] for p in parts):
        return text  # not a list of batsmen alone
    state = f"{m.group('still') or ''}{m.group('state')}"
    said = " and ".join(f"{p} is {state}" for p in parts)
    return f"{text[: m.start()]}{m.group('conj')} {said}{text[m.end() :]}"


def _named(clause: str, protect: frozenset[str], names: tuple[str, ...]) -> list[str]:
    """The squad members ``clause`` names, as written, once each; a lone letter ("a
    wicket") is no name here."""
    runs = name_runs(clause.lower(), protect, names)
    return list(dict.fromkeys(r for r in runs if len(r) > 1))


def _pairs(text: str, protect: frozenset[str], names: tuple[str, ...]) -> list[tuple[str, str]]:
    """(batsmen, style) in the order written: each style with the names before it."""
    out: list[tuple[str, str]] = []
    start = 0
    for m in re.finditer(_STYLE, text, re.IGNORECASE):
        who = _named(text[start : m.start()], protect, names)
        if who:
            out.append((" and ".join(who), m.group(0)))
        start = m.end()
    return out


def _respectively(text: str, protect: frozenset[str], names: tuple[str, ...]) -> str | InvalidOrder:
    """ "Root and Stokes defensive and aggressive respectively": one to one, in order."""
    m = _RESPECTIVELY.search(text)
    if m is None:
        return text
    head = text[: m.start()]
    styles = list(re.finditer(_STYLE, head, re.IGNORECASE))
    tail_styles = list(re.finditer(_STYLE, text[m.end() :], re.IGNORECASE))
    if len(styles) < 2:
        return _places(text, m, protect, names)
    first_style = styles[0].start()
    who = _named(head[:first_style], protect, names)
    later = name_runs(head[first_style:].lower(), protect, names)
    if len(who) < 2 or tail_styles or later:
        return text  # a name among the styles: not two lists
    if len(who) != len(styles):
        return InvalidOrder(
            f"'respectively' pairs each of {len(who)} batsmen with a style, but this line "
            f"gives {len(styles)} styles",
            hint="give one style for each batsman, in the same order, or one order a line",
        )
    lead = _name_start(head, who[0])
    said = "; ".join(f"{n} {s.group(0)}" for n, s in zip(who, styles, strict=True))
    # a time after the lists is the whole line's, never the last pair's alone
    tail = text[m.end() :].strip(" ,.;")
    return f"{head[:lead]}{tail + ', ' if tail else ''}{said}".strip(" ,")


# a list of batting places: "Nos. 9, 10 and 11", "numbers 3 and 4"
_PLACES = re.compile(
    r"\b(?:nos?\.?|numbers?|nrs?\.?)\s*(\d{1,2}(?:\s*(?:,|and|&)\s*\d{1,2})+)", re.IGNORECASE
)


def _places(
    text: str, word: re.Match[str], protect: frozenset[str], names: tuple[str, ...]
) -> str | InvalidOrder:
    """ "Warne, Stone and Anderson, Nos. 9, 10 and 11 respectively, defensive": each
    batsman at his place, with the line's one style (or one each, in order)."""
    places = _PLACES.search(text[: word.start()])
    if places is None:
        return text  # overs "respectively": not read here, the refusal stands
    numbers = re.findall(r"\d+", places.group(1))
    who = _named(text[: places.start()], protect, names)
    if len(who) < 2 or name_runs(text[places.start() :].lower(), protect, names):
        return text
    if len(who) != len(numbers):
        return InvalidOrder(
            f"'respectively' pairs each of {len(who)} batsmen with a place, but this line "
            f"gives {len(numbers)} places",
            hint="give one place for each batsman, in the same order, or one order a line",
        )
    styles = [m.group(0) for m in re.finditer(_STYLE, text, re.IGNORECASE)]
    if len(styles) not in (0, 1, len(who)):
        return text
    said = [f"{n} at {k}" for n, k in zip(who, numbers, strict=True)]
    if styles:
        said = [f"{s} {styles[min(i, len(styles) - 1)]}" for i, s in enumerate(said)]
    # what the line says around the lists stays, for the reader to read or refuse: a time
    # before them, anything after ("..., defensive": the style, now each batsman's)
    lead = _name_start(text, who[0])
    rest = re.sub(_STYLE, "", text[word.end() :], flags=re.IGNORECASE)
    rest = _FLOATING.sub(lambda q: "" if _agrees(q.group(0), len(who)) else q.group(0), rest)
    rest = re.sub(r"^[\s,.;()]*(?:(?:are|is)\s+)?(?:to\s+)?(?:bat|go|play)?[\s,.;()]*", "", rest)
    rest = rest.strip(" ,.;()")
    return f"{text[:lead]}{'; '.join(said)}{', ' + rest if rest else ''}"


# a quantifier floating after its batsmen (Quirk §6.51: "all three", "both", "each")
_FLOATING = re.compile(r"\b(?:all\s+(?:three|four|five)|both|each|all\s+of\s+them)\b", re.I)


def _agrees(quantifier: str, count: int) -> bool:
    need = next((n for w, n in _COUNTS.items() if w in quantifier.lower().split()), 0)
    return need in (0, count) and not (quantifier.lower() == "both" and count != 2)


def _name_start(text: str, name: str) -> int:
    at = text.lower().find(name.split()[0])
    return max(at, 0)


def _vice_versa(text: str, protect: frozenset[str], names: tuple[str, ...]) -> str:
    """ "Root defensive and Stokes aggressive, and vice versa after 30 overs": the two
    batsmen with their styles swapped, at the later clause's time or from the end of the
    earlier's span."""
    m = _VICE_VERSA.search(text)
    if m is None:
        return text
    first, rest = text[: m.start()], text[m.end() :].strip(" ,")
    pairs = _pairs(first, protect, names)
    if len(pairs) != 2 or pairs[0][1].lower()[:4] == pairs[1][1].lower()[:4]:
        return text
    swapped = f"{pairs[0][0]} {pairs[1][1]}; {pairs[1][0]} {pairs[0][1]}"
    if rest and _TIME.search(rest) and not _TIME.search(first) and not _ENDS.search(first):
        return f"{first}. {rest}: {swapped}"
    return text


def two_styles(items: list[Item]) -> bool:
    """Whether ``items`` give one batsman two styles at the same moment: a question for the
    player, never a reading of the line."""
    standing: dict[str, str] = {}
    for item in items:
        if item.kind == "style":
            name, style = item.value
            if standing.setdefault(str(name), str(style)) != str(style):
                return True
        if item.kind == "rule" and isinstance(item.value, Rule) and _rule_clash(item.value):
            return True
    return False


def _rule_clash(rule: Rule) -> bool:
    given: dict[str, str] = {}
    for action in rule.actions:
        if isinstance(action, StyleChange) and action.target.kind == TargetKind.NAMED:
            for name in action.target.names:
                if given.setdefault(name, action.style) != action.style:
                    return True
    return any(_rule_clash(r) for r in rule.then)


# a plan's clauses: after a comma, "and" or "then"; a clause of overs with no bowler of its
# own is the bowler's before it ("Warne opens, bowls 1 to 5, then back for 45-50")
_PLAN_CUT = re.compile(r"\s*,\s*(?:and\s+)?(?:then\s+)?|\s+and\s+(?:then\s+)?|\s+then\s+", re.I)
# a clause of its own says what the bowler does: bare overs after "and" are the same clause's
# ("Warne 1, 3 and from 41 every other over" stays the plan reader's, which refuses it)
_PLAN_WORD = re.compile(r"\b(?:opens|bowls|bowl|back|returns|again|takes)\b", re.I)
_NUMBERS = re.compile(r"[\d\s,&-]+(?:\s*(?:to|-)\s*\d+)?", re.I)
_BACK = re.compile(
    r"^(?:(?:comes?|is|he's|hes)\s+)?(?:back|returns?|again)(?:\s+(?:for|at|in))?\b\s*", re.I
)


def _bowler_clauses(text: str, protect: frozenset[str], names: tuple[str, ...]) -> str:
    """A bowling plan's clauses with no bowler of their own, each given the bowler before
    it, one order a sentence; ``text`` as it was where none is filled or a style is said
    (a batting line)."""
    if re.search(_STYLE, text, re.IGNORECASE) or not re.search(r"\d", text):
        return text
    parts = [p for p in _PLAN_CUT.split(text) if p.strip()]
    bowler, out, filled_any = "", [], False
    for part in parts:
        said = name_runs(part.lower(), protect, names)
        if said:
            bowler = said[0] if len(said) == 1 else ""
            out.append(part)
        elif out and _NUMBERS.fullmatch(part.strip()):
            out[-1] += f", {part.strip()}"  # "overs 44, 46 and 48": one list
        elif bowler and _PLAN_WORD.search(part):
            rest = _BACK.sub("", part.strip())
            verb = "" if re.match(r"(?:bowls|bowl)\b", rest, re.I) else "bowls "
            out.append(f"{bowler} {verb}{rest}")
            filled_any = True
        else:
            return text
    return ". ".join(out) if filled_any else text

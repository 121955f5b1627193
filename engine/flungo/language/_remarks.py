"""Remarks and words read past, with a note on the line: what pbm read without them.

A fan writes an order and a remark in one line ("Root - normal. he's the anchor, not a
fireworks display"; "Stokes bats aggressive, don't care how ugly"). A line refused for its
remark alone is read again without the clauses that build no order, and when what is left
reads whole, as one reading, that reading stands and the answer says, on its line, what was
passed over. A clause that builds an order but does not read still refuses the line; a line
with no order clause is chatter already (``docs/rules/orders-unknown-words.md``, "Notes").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from engine.errors import InvalidOrder, Span
from engine.flungo.language._idioms import change_and_count
from engine.flungo.language._items import Item
from engine.flungo.language._lines import CleanLine
from engine.flungo.language._meaning import Reworded, is_name_word, lexicon, prepare, reword
from engine.flungo.language._model import EchoLine
from engine.flungo.language._names import NameBook
from engine.flungo.language._near import close_matches
from engine.flungo.language._state import Mark, ReadState
from engine.flungo.language._tags import FORMAT_LEAD, other_format
from engine.flungo.language._unknown import (
    builds_order,
    closed_filler,
    opened,
    their_condition,
    unknown_words,
)

__all__ = [
    "CONDITION_START",
    "passed_over",
    "read_past",
    "read_without",
    "remarks",
    "their_error",
    "without_remarks",
]

# Where a clause ends: a sentence's end, a semicolon, a dash between spaces (never a hyphen
# or an arrow "->"), a parenthesis.
_BREAK = re.compile(r"(?<=[.!?])\s+|\s*;\s*|\s+[-–—]+\s+|\s*[–—]\s*|\s*\(\s*|\s*\)\s*")
_LETTER = re.compile(r"[^\W\d_]")
_DASH = re.compile(r"\s+[-–—]+\s+|\s*[–—]\s*")
# A remark after an order that starts with a negation: what is not wanted, said in passing
# ("don't care how ugly", "not a fireworks display", "nothing fancy", "no heroics").
_NEGATED_START = re.compile(
    r"^(?:no|not|nothing|never|none|don't|dont|do\s+not|doesn't|won't|can't)(?![\w'])", re.I
)
_NEGATIONS = frozenset(lexicon().carries) & frozenset(
    ["not", "no", "never", "nor", "neither", "none", "nobody", "nothing", "without", "cannot"]
)
_WORD = re.compile(r"[^\W\d_][\w']*")
_JOINED = re.compile(r"^\s*(?:(?:and|but|so|oh|also)\s+)+", re.I)


def _builds(clause: str, protect: frozenset[str], overs: int, names: tuple[str, ...]) -> bool:
    """Whether ``clause`` holds what an order is built from (:func:`._unknown.builds_order`,
    on the clause in canonical words), or a number, which may be all of an order."""
    if any(c.isdigit() for c in clause) or not _LETTER.search(clause):
        return True  # "1." of a numbered line, "97 to defend": never passed over
    if FORMAT_LEAD.match(clause.lower() + " "):
        return True  # "ODI - Root aggressive": the tag says which match the line is for
    texts = reword(clause, protect, overs, names).texts
    if not any(builds_order(t, protect) for t in texts):
        return False
    if len(clause.split()) < _SENTENCE or any(builds_order(t, frozenset()) for t in texts):
        return True
    # built only of a squad name or a near miss of one: in a sentence of its own, a near
    # miss written in lower case is an English word ("improve with wear"), not "Warne"
    words = _WORD.findall(clause)
    if any(is_name_word(w.lower(), protect) for w in words):
        return True
    return any(not w.islower() for w in words if _near_name(w.lower(), protect))


_SENTENCE = 6  # words: a clause this long is a sentence, not a name with a word or two


def _near_name(word: str, protect: frozenset[str]) -> bool:
    """A near miss of a word of the squads' names, as the chatter test has it."""
    return len(word) >= 4 and bool(close_matches(word, sorted(protect), 1, 0.75))


def _negated_remark(part: str, protect: frozenset[str], overs: int, names: tuple[str, ...]) -> bool:
    """A part that starts with a negation and holds no style, number, unit, order word,
    squad name, condition or limit: a remark ("don't care how ugly")."""
    if not _NEGATED_START.match(part.strip()) or _builds(part, protect, overs, names):
        return False
    carries = lexicon().carries - _NEGATIONS
    return not any(w.lower() in carries for w in _WORD.findall(part))


# a clause that says when or whether an order holds: never passed over, whatever else it says
CONDITION_START = re.compile(
    r"(?:and\s+|but\s+|or\s+)?(?:if|unless|when|whenever|until|till|til|once|provided|"
    r"providing|should|except|only|while|whilst|as\s+soon\s+as|as\s+long\s+as|"
    r"so\s+long\s+as|in\s+case)\b",
    re.IGNORECASE,
)


def remarks(
    text: str, protect: frozenset[str], overs: int, names: tuple[str, ...]
) -> tuple[str, tuple[str, ...]] | None:
    """``text`` without the clauses that build no order, and those clauses; None when every
    clause builds one, or none does (a line of chatter is chatter already)."""
    if other_format(text.lower(), overs):
        return None  # a line for another match is refused as a whole, its tag named
    cuts = [0]
    for m in _BREAK.finditer(text):
        cuts += [m.start(), m.end()]
    cuts.append(len(text))
    clauses = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts), 2)]
    keep: list[tuple[int, int]] = []
    passed: list[str] = []
    for k, (a, b) in enumerate(clauses):
        clause = text[a:b].strip(" ,.!")
        if not clause:
            continue
        keyed = len(clauses) > 1 and _DASH.fullmatch(text[clauses[0][1] : clauses[1][0]])
        short = len(text[clauses[0][0] : clauses[0][1]].split()) <= 2
        if (keyed and short and k <= 1) or _builds(clause, protect, overs, names):
            # a line's head before a dash is its key ("Capt - Root", "toss - BAT") and what
            # follows it its value, never a remark, as lists in mail write them
            keep.append((a, b))
        elif CONDITION_START.match(clause):
            return None  # "unless the pitch is green": a condition is never a remark
        else:
            passed.append(clause)
    if not keep:
        return None
    parts = []
    for k, (a, b) in enumerate(keep):
        sep = text[keep[k - 1][1] : a] if k else ""
        parts.append((", " if sep and ("(" in sep or ")" in sep) else sep) + text[a:b])
    rest = "".join(parts)
    if keep[0][0] > 0:  # "good luck us - and Root bats normal": the "and" joined the remark
        rest = _JOINED.sub("", rest)
    # after the order, a part after a comma that only says what is not wanted
    pieces = rest.split(",")
    while len(pieces) > 1 and _negated_remark(pieces[-1], protect, overs, names):
        passed.append(pieces.pop().strip(" .!"))
    if not passed:
        return None
    return ",".join(pieces).strip(" ,"), tuple(passed)


def _says(clause: str) -> bool:
    """Whether ``clause`` holds a word that is neither the lexicon's filler ("obvs",
    "cheers") nor of the closed classes: only such a clause is worth a note."""
    return any(
        w.lower() not in _FILLER and not closed_filler(w.lower(), clause.lower())
        for w in _WORD.findall(clause)
    )


_FILLER = frozenset(w for phrase in lexicon().filler for w in phrase.split())


def passed_over(clause: str) -> str:
    """The note for a clause passed over, its first words only."""
    words = clause.split()
    said = " ".join(words[:6]) + (" ..." if len(words) > 6 else "")
    return f"passed over: '{said}'"


def read_without(raw: str, words: list[str]) -> str:
    """The note for unknown words read past: adjacent ones together, in the line's order
    ("read without 'fireworks display'")."""
    low = raw.lower()
    spans = sorted(
        (m.start(), m.end())
        for w in dict.fromkeys(words)
        for m in re.finditer(rf"(?<![\w'-]){re.escape(w)}(?![\w'])", low)
    )
    groups: list[list[int]] = []
    for a, b in spans:
        if groups and not low[groups[-1][1] : a].strip():
            groups[-1][1] = b
        else:
            groups.append([a, b])
    said = [raw[a:b] for a, b in groups] or list(words)
    return "read without " + ", ".join(f"'{s}'" for s in dict.fromkeys(said))


def _as_written(clause: str, raw: str) -> str:
    """``clause`` (in the reader's lower case, contractions opened) as the player wrote it:
    from its first word to its last in his line, the span nearest its length."""
    words = clause.split()
    if not words:
        return clause
    low = raw.lower()
    ends = [m.end() for m in re.finditer(rf"{re.escape(words[-1])}(?![\w'-])", low)]
    starts = [m.start() for m in re.finditer(rf"(?<![\w'-]){re.escape(words[0])}(?!\w)", low)]
    spans = [(a, b) for a in starts for b in ends if a < b <= a + 2 * len(clause) + 8]
    if not spans:
        return clause
    a, b = min(spans, key=lambda s: abs(s[1] - s[0] - len(clause)))
    return raw[a:b]


def read_past(
    cl: CleanLine,
    rw: Reworded,
    read: str,
    own: NameBook,
    opponent: NameBook | None,
    protect: frozenset[str],
    overs: int,
) -> list[EchoLine]:
    """The notes for a line read for its meaning as ``read`` (canonical words): each clause
    reworded away with a word pbm does not know in it ("passed over: ..."), and the words it
    does not know that the reading left out ("read without ..."). Words of English's closed
    classes and the lexicon's filler say nothing, and are never noted."""
    notes = [
        EchoLine(cl.number, passed_over(_as_written(c, cl.raw)))
        for c in rw.dropped
        if any(not closed_filler(w, c) for w in unknown_words(c, own, opponent, protect))
    ]
    said = set(_WORD.findall(read))
    words = [
        w
        for t in rw.texts[:1]
        for w in unknown_words(t, own, opponent, protect)
        if w not in said and not closed_filler(w, t)
    ]
    if words:
        notes.append(EchoLine(cl.number, read_without(cl.raw, words)))
    # a clause of the line the reading shares no word with, and that holds a word pbm does
    # not know: a reading that took one order from the line ("toss: bat, don't care what
    # anyone says") passed it over
    dropped = {w for c in rw.dropped for w in _WORD.findall(c)} | set(words)
    shared = {w for w in said if len(w) > 2} | set(re.findall(r"\d+", read))
    for c in _CLAUSE.split(change_and_count(prepare(opened(cl.text), protect, overs), overs)):
        own_words = {w for w in _WORD.findall(c) if len(w) > 2 and not closed_filler(w, c)}
        if own_words & shared or set(re.findall(r"\d+", c)) & shared:
            continue
        new = [
            w
            for w in unknown_words(c, own, opponent, protect)
            if w not in dropped and not closed_filler(w, c)
        ]
        if new:
            notes.append(EchoLine(cl.number, passed_over(_as_written(c.strip(), cl.raw))))
    return notes


_CLAUSE = re.compile(r"[,;:.!?()]|\s[-–—]+\s")


def without_remarks(
    cl: CleanLine,
    read_one: Callable[[CleanLine], tuple[bool, Item | None]],
    st: ReadState,
    mark: Mark,
    ahead: tuple[bool, Item | None],
    protect: frozenset[str],
    overs: int,
    all_names: list[str],
) -> tuple[bool, Item | None]:
    """A line refused, read again with its contractions opened ("once I'm 2 down": once
    we're 2 down, as the orders' words say it), then without its remarks: kept, with a note
    for each remark, when it then reads whole; else the refusal stands as it was."""
    if all(e.kind == "illegal" for e in st.errors[mark[1] :]):
        return ahead  # read, and breaking a rule: no remark left out mends that
    text = opened(cl.text)
    split = remarks(text, protect, overs, tuple(all_names))
    tries = [split] if split is not None else [(text, ())] if text != cl.text else []
    if not tries:
        return ahead
    was = st.since(mark)
    for rest, passed in tries:
        st.undo(mark)
        # a final full stop is no part of an order, as the line's cleaning has it
        again = read_one(replace(cl, text=rest.rstrip(" .,;"), plain=rest))
        if st.reads_whole(mark):
            st.notes += [EchoLine(cl.number, passed_over(c)) for c in passed if _says(c)]
            return again
    st.restore(mark, was)
    return ahead


def their_error(cl: CleanLine, protect: frozenset[str]) -> InvalidOrder | None:
    """The refusal of a condition on "they" (:func:`._unknown.their_condition`) in a line
    that builds an order, the caret under the word; None where the line has none."""
    m = their_condition(cl.text)
    if m is None or not builds_order(cl.text.lower(), protect):
        return None
    span = Span(cl.number, cl.column(m.start(1)), cl.column(m.end(1)))
    return InvalidOrder(
        f"'{m.group(1)}' in a condition is the other side, or someone the line does not name:"
        " no order can wait on them",
        source_line=cl.raw,
        span=span,
        hint="say it of your own side or name the batsman, e.g. 'when we are 4 down' or"
        " 'when Root is out'",
    )

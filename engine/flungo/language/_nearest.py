"""The nearest reading pbm can make of a line it refuses: shown to the player, never acted on.

Issue 24: "Errors speak to players: ... a suggestion in the player's own terms, and the nearest
reading that pbm can make." A line refused keeps its refusal; beside it the player is told
what pbm could read if parts of the line were left out (in his own words, with what was left
out named), so that he can write it that way to have it. The line stays refused and nothing
of what is acted on changes: the search reads the line's variants apart and puts the refusal
back as it was.

The variants are the player's line with parts left out: the words pbm does not know (all at
once, and one at a time, each with the empty words beside it); a clause, or the trailing or
leading part at a comma, sentence end, dash or bracket; a condition, from its guard word to
its clause's end; and each of these with the refusal's own "did you mean" put in. Each part
left out costs by what it may carry (``docs/rules/orders-unknown-words.md``, "The nearest
reading"): nothing for the closed classes and punctuation, little for a word pbm does not
know, more for a word of the orders, much for a style, a condition or a limit, most for a
number or a squad member's name. The variants are read cheapest first, at most
:data:`MAX_TRIES` of them, and the first that reads whole (an order, no error, no question)
is the nearest reading.
"""

from __future__ import annotations

import importlib.resources
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, replace

from engine.errors import InvalidOrder, OrderError
from engine.flungo.language._build import echo_lines
from engine.flungo.language._chatter import number_words
from engine.flungo.language._clauses import CLAUSE_WORDS
from engine.flungo.language._ellipsis import two_styles
from engine.flungo.language._grammar import ORDER_WORDS, keywords
from engine.flungo.language._items import Item
from engine.flungo.language._lines import CleanLine
from engine.flungo.language._meaning import STYLE_WORDS, is_name_word, lexicon
from engine.flungo.language._model import Nearest, NotUnderstood, quoted
from engine.flungo.language._names import NameBook
from engine.flungo.language._reader import Overspent
from engine.flungo.language._state import Mark, ReadState
from engine.flungo.language._tags import FOR_ANOTHER_MATCH
from engine.flungo.language._unknown import EMPTY, closed_filler, unknown_words

__all__ = ["MAX_TRIES", "nearest_line"]

# The readings tried for one refused line, at most: the search is bounded whatever the line.
MAX_TRIES = 16
# The variants made for one line, at most, before the cheapest are read (a hostile line of
# many clauses makes no more).
_MAX_VARIANTS = 160
# The characters those readings may read in all, so that a long line gets fewer tries; and
# the longest line searched at all (no fan's line of the seven sets is over 265 characters:
# a longer one is a list or a paste, whose suggestion would help no one)
_MAX_CHARS = 3_200
_LONGEST = 400
_MAX_CLAUSES = 12
_MAX_ONE_BY_ONE = 10
_PAIRED = 8
_CHEAP_TRIES = 6  # the cheapest variants read before the line's core

# What leaving out a word costs, by what it may carry (the order of preference).
_COST_EMPTY = 0  # the closed classes, the lexicon's filler, punctuation
_COST_UNKNOWN = 1  # a word pbm does not know
_COST_KNOWN = 3  # a word pbm reads, of no class below
_COST_SWAP = 2  # a "did you mean" put in
_COST_CARRIES = 20  # a condition or limit word, a negation, the lexicon's [carries]
_COST_STRUCTURE = 25  # a unit, a phase, a group, an order word: only with its whole clause
_COST_STYLE = 30  # defensive, normal, aggressive, wahoo
_COST_NAMED = 50  # a number, a squad member's name
# Never left out (measured on the seven sets: a reading without them was most often not what
# the player meant): a squad member's name, a number, a style, a condition that holds one
_NEVER = _COST_STYLE

_TOKEN = re.compile(r"[\w'’]+(?:-[\w'’]+)*|[^\w\s]")
# Where a line's clauses meet: sentence ends, semicolons, colons, commas, brackets, and a
# dash between spaces (never a hyphen)
_CUT = re.compile(r"[,;:.!?()\[\]]|(?<=\s)[-–—](?=\s)")
# Where a clause starts though no mark says so (a line typed without punctuation): the
# lexicon's [nearest] starts, a word class of English grammar's (read at import, a constant)
_STARTS = frozenset(
    tomllib.loads(
        importlib.resources.files(__package__).joinpath("lexicon.toml").read_text("utf-8")
    )["nearest"]["starts"]
)
_DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'\?$")
_GENERIC = ("say it with the words", "without it, pbm reads", "say when, who and how")
_NUMBER = re.compile(r"\d")


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    start: int
    end: int
    cost: int
    cut: bool  # where clauses meet
    starts: bool = False  # a clause may start here (see _STARTS)


@dataclass(frozen=True, slots=True)
class _Variant:
    gone: frozenset[int]  # the tokens left out
    swap: tuple[int, str] | None  # a token read as the "did you mean" word
    cost: int


def nearest_line(
    cl: CleanLine,
    read_one: Callable[[CleanLine], tuple[bool, Item | None]],
    st: ReadState,
    mark: Mark,
    own: NameBook,
    opponent: NameBook | None,
    protect: frozenset[str],
) -> None:
    """For a line refused since ``mark`` (an error that names what it does not read, and
    nothing read from it), find its nearest reading and say it: in the error's hint, in
    the GM's flag of the line if it has one, and in ``st.nearest``. The refusal stands."""
    mine = [
        k
        for k in range(mark[1], len(st.errors))
        if type(st.errors[k]) is InvalidOrder
        and (span := st.errors[k].span) is not None
        and span.line == cl.number
    ]
    if not mine or len(st.items) > mark[0] or len(cl.text) > _LONGEST:
        return
    if any(len(n.readings) > 1 for n in st.not_understood[mark[2] :]):
        return  # asked with two readings: that is the answer
    if any(c.isdigit() for w in quoted(st.errors[mine[0]].message) for c in w):
        return  # refused for a number ("'10.3' should be a whole number"): never left out
    if FOR_ANOTHER_MATCH in st.errors[mine[0]].message:
        return  # "T20:" in the 50-over match's mail: meant for the other match, never this one
    tokens = _tokens(cl.text, own, opponent, protect)
    if not any(t.cost for t in tokens):
        return
    swaps = _swaps(st.errors[mine[0]], tokens)
    taken = st.since(mark)
    try:
        found = _search(cl, read_one, st, mark, tokens, swaps)
    except Overspent as over:
        st.restore(mark, taken)
        if over.kind == "mail":
            raise  # the mail's budget is spent: the reader says so for the line
        return  # the line's budget: its refusal stands as it was, with no suggestion
    st.restore(mark, taken)
    if found is None:
        return
    v, text, reading = found
    # the words left out as the player wrote them (the line as cleaned keeps their places)
    written = cl.raw[cl.offset : cl.offset + len(cl.text)]
    written = written if len(written) == len(cl.text) else cl.text
    left = _left_out(written, tokens, v)
    near = Nearest(cl.number, text, left, reading, _swapped(written, tokens, v))
    st.nearest.append(near)
    said = near.said()
    # a "did you mean" alone already says it: the hint stays as it was
    for k in mine[: 1 if left else 0]:
        err = st.errors[k]
        st.errors[k] = InvalidOrder(
            err.message, source_line=err.source_line, span=err.span, hint=_hint(err.hint, said)
        )
    for k in range(mark[2], len(st.not_understood)):
        n = st.not_understood[k]
        if n.line == cl.number and len(n.readings) < 2:
            reason = _hint(n.reason, said) if "; " in n.reason else f"{n.reason}; {said}"
            st.not_understood[k] = NotUnderstood(n.line, n.text, reason, (reading,))


def _search(
    cl: CleanLine,
    read_one: Callable[[CleanLine], tuple[bool, Item | None]],
    st: ReadState,
    mark: Mark,
    tokens: list[_Token],
    swaps: list[tuple[int, str]],
) -> tuple[_Variant, str, str] | None:
    """The nearest variant that reads, its text and its reading: first the cheapest few
    variants, then the line's core (its clauses that hold a name, a number or a style,
    without its unknown words) and the core less one word at a time; at most
    :data:`MAX_TRIES` readings in all."""
    tried: set[str] = set()

    def attempt(v: _Variant) -> tuple[_Variant, str, str] | None:
        text = _text(cl.text, tokens, v)
        if (
            text in tried
            or len(tried) >= MAX_TRIES
            or sum(map(len, tried)) + len(text) > _MAX_CHARS
        ):
            return None
        tried.add(text)
        got = _reading(cl, read_one, st, mark, text)
        if got and _GIVES_OVERS.search(got) and not _SPEAKS_OF_OVERS.search(cl.text):
            return None
        if got and _ALL.search(got) and not _SPEAKS_OF_ALL.search(cl.text):
            return None
        return (v, text, got) if got is not None else None

    found = None
    cheap = _variants(tokens, swaps)
    for v in cheap[:_CHEAP_TRIES]:
        if found := attempt(v):
            break
    for v in [] if found else _cores(tokens, swaps):
        if found := attempt(v):
            break
    if found is not None and (extra := _idle(tokens, found[0])):
        # the clauses left that say nothing an order is made of ("give" of "give it some
        # humpty"): left out too, when the reading stays the same
        v = replace(found[0], gone=found[0].gone | extra)
        text = _text(cl.text, tokens, v)
        if text not in tried and _reading(cl, read_one, st, mark, text) == found[2]:
            found = (v, text, found[2])
    return found


def _cores(tokens: list[_Token], swaps: list[tuple[int, str]]) -> list[_Variant]:
    """The line's core (see :func:`_search`), then the core less one word at a time, the
    cheapest first, each with and without the refusal's "did you mean"."""
    gone: set[int] = set()
    for c in _clauses(tokens):
        if _allowed(tokens, frozenset(c)):
            gone.update(c)
    gone.update(i for i, t in enumerate(tokens) if t.cost == _COST_UNKNOWN)
    core = frozenset(gone)
    if len(core) == len(tokens):
        return []
    left = sorted(
        (t.cost, i) for i, t in enumerate(tokens) if i not in core and 0 < t.cost < _COST_STRUCTURE
    )
    # then an empty word alone ("on" of "tom smith on defensive"), nearest the front first
    left += [
        (0, i) for i, t in enumerate(tokens) if i not in core and not t.cost and t.text in EMPTY
    ]
    out = []
    for d in [core, *(core | (_with_empty(tokens, i) if c else {i}) for c, i in left)]:
        if not _allowed(tokens, d):
            continue
        cost = sum(tokens[i].cost for i in d)
        out.append(_Variant(d, None, cost))
        out += [_Variant(d, w, cost + _COST_SWAP) for w in swaps if w[0] not in d]
    return out


def _reading(
    cl: CleanLine,
    read_one: Callable[[CleanLine], tuple[bool, Item | None]],
    st: ReadState,
    mark: Mark,
    text: str,
) -> str | None:
    """What ``text`` read in place of the line reads as (canonical words), if it reads
    whole and lets nothing pass with a note; the state is left as at ``mark``."""
    if not any(c.isalnum() for c in text):
        return None
    st.undo(mark)
    read_one(replace(cl, text=text, plain=text))
    got = None
    # a reading that gives a batsman two styles at one moment is refused once the line is
    # whole (the ellipsis check): a suggestion must read as written
    if st.reads_whole(mark) and not _read_past(st, mark) and not two_styles(st.items[mark[0] :]):
        got = "\n".join(t for _, t in echo_lines(st.items[mark[0] :], st.context.standing))
    st.undo(mark)
    return got or None


def _idle(tokens: list[_Token], v: _Variant) -> frozenset[int]:
    """The clauses ``v`` keeps that hold no word an order is made of (a number, a name, a
    style, a word of an order's structure) and some word that is not empty."""
    out: set[int] = set()
    for c in _clauses(tokens):
        left = [i for i in c if i not in v.gone and (v.swap is None or v.swap[0] != i)]
        costs = [tokens[i].cost for i in left]
        if left and max(costs) < _COST_STRUCTURE and sum(costs) > 0:
            out.update(left)
    if out and all(i in out or i in v.gone or tokens[i].cut for i in range(len(tokens))):
        return frozenset()  # nothing would be left
    return frozenset(out)


def _read_past(st: ReadState, mark: Mark) -> bool:
    """Whether the reading since ``mark`` let a word or a clause pass with a note: the
    suggestion would then hold words it does not read, and is not the nearest."""
    return any(not n.text.startswith("read '") for n in st.notes[mark[5] :])


def _hint(old: str | None, said: str) -> str:
    """``said`` in place of a hint that says nothing of the line's own words, or after it."""
    if not old:
        return said
    head, sep, tail = old.rpartition("; ")
    if sep and tail.startswith(_GENERIC):
        return f"{head}; {said}"
    if old.startswith(_GENERIC):
        return said
    return f"{old}; {said}"


def _tokens(
    text: str, own: NameBook, opponent: NameBook | None, protect: frozenset[str]
) -> list[_Token]:
    low = text.lower().replace("’", "'")
    unknown = set(unknown_words(low, own, opponent, protect))
    out: list[_Token] = []
    for m in _TOKEN.finditer(low):
        word = m.group(0)
        cut = bool(_CUT.fullmatch(word)) or (
            word in "-–—" and m.start() > 0 and low[m.start() - 1].isspace()
        )
        cost = _cost(word, unknown, protect, low)
        starts = out != [] and (word in _STARTS or word in _GUARDS)
        out.append(_Token(word, m.start(), m.end(), cost, cut, starts))
    return out


def _cost(word: str, unknown: set[str], protect: frozenset[str], text: str) -> int:
    """What leaving ``word`` out may lose (see the module)."""
    if not word[0].isalnum():
        return _COST_EMPTY
    if _NUMBER.search(word) or number_words(word) != word:
        return _COST_NAMED
    if word in protect or (word not in keywords() and is_name_word(word, protect)):
        return _COST_NAMED
    if word in STYLE_WORDS:
        return _COST_STYLE
    if word in _STRUCTURE:
        return _COST_STRUCTURE
    if word in _CARRY or word in lexicon().carries or word.endswith("n't"):
        return _COST_CARRIES
    if word in EMPTY or word in lexicon().filler or closed_filler(word, text):
        return _COST_EMPTY
    return _COST_UNKNOWN if word in unknown else _COST_KNOWN


def _swaps(err: OrderError, tokens: list[_Token]) -> list[tuple[int, str]]:
    """The refusal's own "did you mean": the token it quotes, read as the word it offers."""
    hint = err.hint or ""
    offered = _DID_YOU_MEAN.search(hint.split("; ")[0])
    named = quoted(err.message)
    if offered is None or not named or " or " in offered.group(0):
        return []
    word = named[0].lower()
    return [(i, offered.group(1)) for i, t in enumerate(tokens) if t.text == word][:1]


def _variants(tokens: list[_Token], swaps: list[tuple[int, str]]) -> list[_Variant]:
    """The line's variants, cheapest first (ties: fewest tokens left out, then as made)."""
    drops: list[frozenset[int]] = []
    unknown = [i for i, t in enumerate(tokens) if t.cost == _COST_UNKNOWN]
    around = [_with_empty(tokens, i) for i in unknown]
    if around:
        drops.append(frozenset().union(*around))
    # one word at a time, the cheapest first: unknown words, then words pbm reads ("on" of
    # "tom smith on defensive"), then limits ("only")
    single = sorted((t.cost, i) for i, t in enumerate(tokens) if 0 < t.cost < _COST_STRUCTURE)
    drops += [_with_empty(tokens, i) for _, i in single[:_MAX_ONE_BY_ONE]]
    clauses = _clauses(tokens)[:_MAX_CLAUSES]
    if len(clauses) > 1:
        for k, c in enumerate(clauses):
            drops.append(frozenset(c))  # the clause
            if k > 0:
                drops.append(frozenset(range(clauses[k][0], len(tokens))))  # what follows
                drops.append(frozenset(range(clauses[k][0])))  # what leads up to it
    for i, t in enumerate(tokens):
        if t.text in _GUARDS:  # a condition, to its clause's end
            end = next((j for j in range(i + 1, len(tokens)) if tokens[j].cut), len(tokens))
            drops.append(frozenset(range(i, end)))
    more = [d | frozenset().union(*around) for d in drops if around]
    # two parts left out at once: the cheapest few, pairwise
    cheap = sorted(set(drops), key=lambda d: (sum(tokens[i].cost for i in d), len(d)))[:_PAIRED]
    pairs = [a | b for k, a in enumerate(cheap) for b in cheap[k + 1 :]]
    drops = [frozenset(), *drops, *more, *pairs]
    made: dict[tuple[frozenset[int], tuple[int, str] | None], _Variant] = {}
    for d in drops:
        for swap in (None, *swaps):
            if swap is not None and swap[0] in d:
                continue
            if swap is None and not d:
                continue
            key = (d, swap)
            if not _allowed(tokens, d):
                continue
            if key not in made and len(made) < _MAX_VARIANTS:
                cost = sum(tokens[i].cost for i in d) + (_COST_SWAP if swap else 0)
                made[key] = _Variant(d, swap, cost)
    return sorted(made.values(), key=lambda v: (v.cost, len(v.gone)))


# a condition's guard words (left out with the condition they start), and the words of
# time and condition that carry as much (a grammar's subordinators of condition and time)
_GUARDS = frozenset(["if", "when", "whenever", "unless", "once", "until", "till", "provided"])
_CARRY = _GUARDS | frozenset(["while", "whilst", "after", "before", "should", "except", "then"])
# The words an order's structure is made of (the reader's clause words: units, phases, groups
# of batsmen and bowlers, the order words): measured on the seven sets, a reading without one
# was most often not what the player meant ("till over 15" read as "till 15")
_STRUCTURE = frozenset(CLAUSE_WORDS) | frozenset(ORDER_WORDS)
# A reading that gives a bowler overs, from a line that says nothing of bowling or overs: a
# name and a number left side by side ("Tom Smith at three" without "at") is no plan
_GIVES_OVERS = re.compile(r"\bbowls? overs?\b")
# Nor one for every batsman from a line that names no group ("..., wahoo" of "if Stokes is
# still in ... he can give it some humpty, wahoo", its "he" left out): a reading never
# widens whom an order is for
_ALL = re.compile(r"\b(?:all|the remaining) batsmen\b")
_SPEAKS_OF_ALL = re.compile(
    r"\b(?:all|every\w*|whole|team|side|batsmen|lot|rest|remaining|tail|others?)\b", re.I
)
_SPEAKS_OF_OVERS = re.compile(r"\b(?:bowl\w*|overs?|ovs?|spells?|ends?)\b", re.I)


def _allowed(tokens: list[_Token], gone: frozenset[int]) -> bool:
    """Whether a variant may leave out ``gone``: never a name, a number or a style; a word
    of an order's structure only with its whole clause; a condition only whole, and only
    when it holds no count."""
    if any(tokens[i].cost >= _NEVER for i in gone) or _counted(tokens, gone):
        return False
    structure = [i for i in gone if tokens[i].cost == _COST_STRUCTURE]
    if not structure:
        return True
    whole = {i for c in _clauses(tokens) if all(j in gone for j in c) for i in c}
    return all(i in whole for i in structure)


def _counted(tokens: list[_Token], gone: frozenset[int]) -> bool:
    """Whether ``gone`` leaves out a guard word whose condition holds a count or a time (a
    number, a unit, a phase: "once the score crosses two-fifty", "till drinks"), which the
    reading without it would not wait on, or a guard word without all of its condition
    ("if" of "if, at any point after ...")."""
    for i in gone:
        if tokens[i].text in _CARRY:
            end = next((j for j in range(i + 1, len(tokens)) if tokens[j].cut), len(tokens))
            if end == i + 1 or any(tokens[j].cost >= _COST_STRUCTURE for j in range(i + 1, end)):
                return True  # "till drinks", "if, at any point ...": when, or how much
            if any(j not in gone for j in range(i, end)):
                return True
    return False


def _with_empty(tokens: list[_Token], i: int) -> frozenset[int]:
    """Token ``i`` with the empty words beside it, up to a word that says something."""
    out = {i}
    j = i - 1
    while j >= 0 and tokens[j].cost == _COST_EMPTY and not tokens[j].cut:
        out.add(j)
        j -= 1
    j = i + 1
    while j < len(tokens) and tokens[j].cost == _COST_EMPTY and not tokens[j].cut:
        out.add(j)
        j += 1
    return frozenset(out)


def _clauses(tokens: list[_Token]) -> list[list[int]]:
    """The line's clauses: runs of tokens between the places clauses meet (each with the
    mark that ends the clause before it)."""
    out: list[list[int]] = [[]]
    for i, t in enumerate(tokens):
        if t.cut or t.starts:
            out.append([])
        out[-1].append(i)
    return [c for c in out if any(not tokens[i].cut for i in c)]


def _text(text: str, tokens: list[_Token], v: _Variant) -> str:
    """The player's line with the variant's tokens left out, as he wrote the rest."""
    parts: list[str] = []
    at = 0
    for i, t in enumerate(tokens):
        if i in v.gone:
            parts.append(text[at : t.start])
            at = t.end
        elif v.swap is not None and v.swap[0] == i:
            parts.append(text[at : t.start] + v.swap[1])
            at = t.end
    parts.append(text[at:])
    out = "".join(parts)
    out = re.sub(r"\s+([,;:.!?)])", r"\1", out)
    out = re.sub(r"([,;:])(?:\s*[,;:.!?])+", r"\1", out)
    out = re.sub(r"\(\s*\)|\s[-–—](?=\s*(?:[-–—,;:.]|$))", "", out)
    return re.sub(r"\s+", " ", out).strip(" ,;:-–—")


def _left_out(text: str, tokens: list[_Token], v: _Variant) -> tuple[str, ...]:
    """The runs of words left out that say something, as the player wrote them."""
    runs: list[list[int]] = []
    for i in sorted(v.gone):
        # a new part at a gap, or at a mark where clauses meet: each named apart
        if not runs or i != runs[-1][-1] + 1 or tokens[i].cut:
            runs.append([i])
        else:
            runs[-1].append(i)
    out = []
    for run in runs:
        if not any(tokens[i].text[0].isalnum() for i in run):
            continue
        first = next(i for i in run if tokens[i].text[0].isalnum())
        last = max(i for i in run if tokens[i].text[0].isalnum())
        out.append(text[tokens[first].start : tokens[last].end])
    return tuple(out)


def _swapped(text: str, tokens: list[_Token], v: _Variant) -> tuple[tuple[str, str], ...]:
    """The word read as the refusal's "did you mean" offers, as written, and that word."""
    if v.swap is None:
        return ()
    t = tokens[v.swap[0]]
    return ((text[t.start : t.end], v.swap[1]),)

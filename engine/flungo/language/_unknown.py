"""Words pbm does not know in a line it reads for meaning: which may pass, which never.

A fan's sentence holds words no lexicon will ever list ("negotiated", "endeavour",
"quickly"). Refusing every one of them refuses most sentences; letting every one pass reads
"Root bats less aggressive" as "Root bats aggressive". The rule, reviewed
(``docs/rules/orders-unknown-words.md``), is by what a word could do to an order:

- a word that may carry meaning is never let pass: the lexicon's ``[carries]`` list
  (negations, limits, comparisons, conditions and times, exceptions), a word ending in
  "n't", a near miss of a word of the orders or of a squad member's name (a typo of
  "aggressive" is no filler), a word joined by a hyphen to a word of the orders
  ("vice-captain"), a word just before a style ("semi aggressive") or a number ("approx
  100");
- any other unknown word passes, when the line without it reads whole, as one reading.

Where a word that may carry meaning is not understood, the line is refused naming it, with
what pbm reads without it (the caller's :func:`._read._refuse`).
"""

from __future__ import annotations

import difflib
import importlib.resources
import re
import tomllib

from engine.errors import InvalidOrder, Span
from engine.flungo.language._caseless import Caseless
from engine.flungo.language._grammar import (
    ORDER_WORDS,
    START_HINT,
    by_grammar,
    keywords,
    near_miss,
    starters,
)
from engine.flungo.language._lines import CleanLine
from engine.flungo.language._meaning import STYLE_WORDS, is_name_word, lexicon, meaning_words
from engine.flungo.language._names import NameBook
from engine.flungo.language._near import close_matches

__all__ = [
    "EMPTY",
    "GUARDED",
    "NEGATED",
    "bare",
    "builds_order",
    "closed_filler",
    "first_word_error",
    "may_carry",
    "opened",
    "order_vocabulary",
    "their_condition",
    "unguarded",
    "unknown_words",
    "withouts",
]

_WORD = re.compile(r"(?<![\w'])[^\W\d_][\w']*")
NEGATED = re.compile(r"(?<![\w'])(?:don't|do\s+not|not|never|no)\s+$")
# A word inside a condition or a limit: from its guard word to the clause's end.
GUARDED = re.compile(
    r"(?<![\w'])(?:if|when|whenever|unless|once|until|till|provided|should|while|whilst|except|"
    r"as\s+long\s+as|so\s+long\s+as)(?![\w'])(?:(?!\s+then(?![\w']))[^,;:.])*$"
)
_LAST_WORD = re.compile(r"([\w']+)\s+$")
_FIRST_WORD_AFTER = re.compile(r"\s+([\w']+)")
_STYLE_NEXT = re.compile(r"\s+(?:defensive|normal|aggressive|wahoo)(?:ly)?(?![\w'])")
_NUMBER_NEXT = re.compile(r"\s+\d")
# Words of the orders common in any sentence: a word close to one of them is no typo of an
# order ("much" is not "match", "he" not "the").
_PLAIN = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "do",
        "for",
        "get",
        "gets",
        "go",
        "goes",
        "going",
        "got",
        "had",
        "has",
        "have",
        "i",
        "if",
        "in",
        "is",
        "it",
        "its",
        "my",
        "of",
        "off",
        "on",
        "one",
        "or",
        "our",
        "so",
        "the",
        "their",
        "them",
        "then",
        "there",
        "they",
        "this",
        "to",
        "up",
        "us",
        "we",
        "will",
        "with",
        "would",
    ]
)


def unknown_words(
    text: str, own: NameBook, opponent: NameBook | None, protect: frozenset[str]
) -> list[str]:
    """The words of ``text`` (a line in canonical words) that pbm does not know."""
    known = keywords() | meaning_words() | protect
    return [
        w
        for w in _WORD.findall(text)
        if w not in known
        and len(w) > 1
        and not (len(w) >= 3 and (own.candidates(w) or (opponent and opponent.candidates(w))))
    ]


@by_grammar
def order_vocabulary(words: frozenset[str]) -> list[str]:
    """The words an unknown word may be a typo of: the grammar's and the lexicon's words
    that say something in an order, and the words the lexicon says may carry meaning."""
    lex = lexicon()
    out = {w for w in words if len(w) >= 4} - _PLAIN
    out |= set(STYLE_WORDS) | set(ORDER_WORDS)
    out |= {w for idiom in lex.styles for w in idiom.split() if len(w) >= 4}
    return sorted(out)


def may_carry(word: str, text: str, protect: frozenset[str], raw: str = "") -> bool:
    """Whether the unknown ``word`` of ``text`` may carry meaning (see the module).
    ``raw``: the player's line as written, where a capital says a word may be a name."""
    if word in lexicon().carries or word.endswith("n't"):
        return True
    # a typo of a word of the orders: one letter of five changed is a word of its own
    # ("great", "treat"), two letters swapped in seven is a typo ("captian")
    if len(word) >= 4 and close_matches(word, order_vocabulary(keywords()), 1, 0.84):
        return True
    if len(word) >= 4 and close_matches(word, sorted(protect), 1, 0.8):
        return True  # a squad member's name mistyped
    for m in re.finditer(rf"(?<![\w'-]){re.escape(word)}(?![\w'])", text):
        after = text[m.end() :]
        before = text[: m.start()]
        if GUARDED.search(before) and not _counted(before, after):
            return True  # "if we're cruising at drinks": a condition the word may be all of
        if NEGATED.search(before):
            return True  # "don't touch": what is not to be done may be an order
        if (last := _LAST_WORD.search(before)) and is_name_word(last.group(1), protect):
            return True  # "Taylor sits out": what a squad member does may be his order
        first = _FIRST_WORD_AFTER.match(after)
        if first and is_name_word(first.group(1), protect) and _capital(word, raw):
            return True  # "Joe Root" in a squad with "Jo Rooted": it may be half a name
        if after.startswith("-") or text[: m.start()].endswith("-"):
            return True  # "vice-captain", "non-striker": the word changes the next
        if _STYLE_NEXT.match(after) or _NUMBER_NEXT.match(after):
            return True  # "semi aggressive", "approx 100"
    return False


_CLAUSE_END = re.compile(r"[,;:.]")


def _counted(before: str, after: str) -> bool:
    """Whether the condition around a word holds a count (overs, wickets, a score): then
    the condition stands without the word ("if we've lost 5 before the 25 over mark"); a
    condition with none may be the word alone ("if we're cruising")."""
    guard = GUARDED.search(before)
    head = before[guard.start() :] if guard else ""
    end = _CLAUSE_END.search(after)
    return any(c.isdigit() for c in head + (after[: end.start()] if end else after))


def _capital(word: str, raw: str) -> bool:
    """Whether ``word`` is written with a capital in the player's line (or the line is not
    given): a capital just before a name may be a forename."""
    if not raw:
        return True
    return bool(re.search(rf"(?<![\w'-]){re.escape(word.capitalize())}(?![\w'])", raw))


def _load_closed() -> tuple[frozenset[str], frozenset[str]]:
    """The lexicon's closed word classes: those filler everywhere, and the third persons."""
    path = importlib.resources.files(__package__).joinpath("lexicon.toml")
    data = tomllib.loads(path.read_text("utf-8"))["closed"]
    persons = frozenset(data["persons"]["words"])
    rest = frozenset(w for v in data.values() if isinstance(v, list) for w in v)
    return rest, persons


# constants of the package, read once at import like the lexicon itself
_CLOSED, _PERSONS = _load_closed()


# The contractions of the primary auxiliaries opened, and "have got" as "have" (its informal
# twin in British English), as a grammar gives them; a captain's "I" speaks for his side, as
# in the seed's own "if I have lost 3 wickets" ("I'm 3 down": we're 3 down).
_OPENED = (
    (re.compile(r"(?<![\w'])i'm(?![\w'])", re.I), "we're"),
    (re.compile(r"(?<![\w'])i\s+am(?![\w'])", re.I), "we are"),
    (re.compile(r"(?<![\w'])(\w+)['’]ve\s+got(?![\w'])", re.I), r"\1 have"),
    (re.compile(r"(?<![\w'])(ha(?:ve|s))\s+got(?![\w'])", re.I), r"\1"),
    (re.compile(r"(?<![\w'])(\w+)['’]ve(?![\w'])", re.I), r"\1 have"),
    # the inverted conditional of the first person: "should we win the toss" is "if we win"
    (re.compile(r"(?<![\w'])should\s+(we|i)(?![\w'])", re.I), r"if \1"),
)


_MAY_OPEN = re.compile(r"['’]|\sgot\b|\sam\b|should\s", re.I)


def opened(text: str) -> str:
    """``text`` with the auxiliaries' contractions opened ("we've lost 5": we have lost 5)."""
    if not _MAY_OPEN.search(text):
        return text
    for pattern, repl in _OPENED:
        text = pattern.sub(repl, text)
    return text


_THEIR_CONDITION = re.compile(
    r"(?<![\w'])(?:if|when|whenever|once|unless|until|till|provided|should|while|whilst|"
    r"as\s+soon\s+as)\s+(they|they're|they've|they'd|their|them)(?![\w'])",
    re.I,
)


_THEIR_FOUND = Caseless(_THEIR_CONDITION)


def their_condition(text: str) -> re.Match[str] | None:
    """A condition whose subject is "they" (the other side, or someone the line does not
    name: "once they're 4 down", "if they're bowling spin"): no order waits on them."""
    text = text.replace("’", "'")
    if not _THEIR_FOUND.found(text):  # most lines: no condition on them (looked for cheaply)
        return None
    return _THEIR_CONDITION.search(text)


def unguarded(text: str, word: str) -> str:
    """``text`` without the condition ``word`` stands in, from its guard word to the end of
    its clause (for the reading shown with a refusal, never for one acted on)."""
    for m in re.finditer(rf"(?<![\w'-]){re.escape(word)}(?![\w'])", text):
        guard = GUARDED.search(text[: m.start()])
        if guard is not None:
            end = _CLAUSE_END.search(text, m.end())
            cut = end.start() if end else len(text)
            return (text[: guard.start()] + text[cut:]).strip(" ,;:.")
    return text


def withouts(text: str, unknown: list[str]) -> list[str]:
    """The texts a refusal's reading without its unknown words is tried on, nearest first:
    the words alone left out, with the empty words beside them, with the prepositions and
    guards beside them ("in the fixture"), and without the condition the first stands in."""
    if not unknown:
        return []
    plain = " ".join(w for w in text.split() if w.strip(",;:.") not in unknown)
    tries = [
        plain,
        bare(text, unknown),
        bare(text, unknown, wide=True),
        unguarded(text, unknown[0]),
    ]
    return list(dict.fromkeys(tries))


def closed_filler(word: str, text: str) -> bool:
    """Whether the unknown ``word`` of ``text`` is of English's closed classes and says
    nothing for an order there: a pronoun, a contraction, an auxiliary, an article, a
    determiner (anywhere), or a third person but as a condition's subject ("when he's on
    40": the opponents or a batsman, whom no condition can ask about)."""
    if word in _CLOSED:
        return True
    if word not in _PERSONS:
        return False
    return not any(
        _SUBJECT.search(text[: m.start()])
        for m in re.finditer(rf"(?<![\w'-]){re.escape(word)}(?![\w'])", text)
    )


# a condition's subject: the word just after its guard ("when he's", "if they")
_SUBJECT = re.compile(
    r"(?<![\w'])(?:if|when|whenever|unless|once|until|till|provided|should|while|whilst|"
    r"as\s+long\s+as|so\s+long\s+as|as\s+soon\s+as)\s+$"
)


# Words that say nothing of their own: beside a word that passes they go with it ("he can
# hit a little bit", "is enough", "so we don't collapse"), so that what is left reads. Never
# a word that says when (at, in, for, after ...), nor a negation but the one just before the
# word that passes, which is all it negates ("don't embarrass me").
_EMPTY = frozenset(
    [
        "we",
        "they",
        "he",
        "she",
        "it",
        "i",
        "you",
        "me",
        "him",
        "them",
        "us",
        "our",
        "their",
        "his",
        "her",
        "its",
        "my",
        "your",
        "the",
        "a",
        "an",
        "this",
        "that",
        "these",
        "those",
        "which",
        "who",
        "whom",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "must",
        "can",
        "could",
        "should",
        "would",
        "will",
        "shall",
        "may",
        "might",
        "to",
        "of",
        "with",
        "on",
        "so",
        "very",
        "really",
        "quite",
        "just",
        "some",
        "any",
    ]
)
EMPTY = _EMPTY  # for the nearest reading of a refused line (._nearest)
_NEGATION = frozenset(["don't", "not", "never", "no", "didn't", "doesn't", "won't", "can't"])
_TOKEN = re.compile(r"[\w'-]+|[^\w\s]")


# For the nearest reading of a line refused (shown, never acted on): the prepositions and
# guards beside a word left out go with it ("in the fixture", "unless it rains").
_WIDE = _EMPTY | frozenset(
    ["in", "at", "for", "by", "from", "into", "onto", "over", "under", "if", "when", "unless"]
)


def bare(text: str, words: list[str], wide: bool = False) -> str:
    """``text`` without ``words`` and the empty words beside them, up to a word that says
    something or a comma; spaces and commas tidied. ``wide``: the prepositions and guards
    beside them too (for the reading shown with a refusal, never for one acted on)."""
    empty = _WIDE if wide else _EMPTY
    drop = set(words)
    tokens = _TOKEN.findall(text)
    gone = [t in drop for t in tokens]
    for i, t in enumerate(tokens):
        if t not in drop:
            continue
        j = i - 1
        if j >= 0 and tokens[j] in _NEGATION:
            gone[j] = True
            j -= 1
        while j >= 0 and (tokens[j] in empty or tokens[j] in drop):
            gone[j] = True
            j -= 1
        j = i + 1
        while j < len(tokens) and (tokens[j] in empty or tokens[j] in drop):
            gone[j] = True
            j += 1
    out = " ".join(t for t, g in zip(tokens, gone, strict=True) if not g)
    out = re.sub(r"\s+([,;:.])", r"\1", out)
    out = re.sub(r"([,;:])(?:\s*[,;:.])+", r"\1", out)
    return re.sub(r"\s+", " ", out).strip(" ,;:.")


# What an order is built from: who (a squad member, a group of batsmen), how (a style), or
# what (a word that starts an order of its own); or a count of overs or wickets in a condition.
_BUILDER = re.compile(
    r"(?<![\w'])(?:defensive|normal|aggressive|wahoo|all\s+batsmen|remaining\s+batsmen|the\s+rest|"
    r"xi|captain|wicketkeeper|keeps\s+wicket|keeper|toss|batting\s+order|bowls?|bowling|bowled|"
    r"bowlers?|spells?|reviews?|treat|treatment|boost|helper|points?|opens?|openers|opening|"
    r"twelfth)(?![\w'])"
)
_CONDITION = re.compile(
    r"(?<![\w'])(?:if|when|whenever|once|unless|until|after|before|at\s+drinks|from)(?![\w'])"
    r".*\d|\d.*(?<![\w'])(?:overs?|balls?|wickets?|down|runs?)(?![\w'])"
)


def builds_order(text: str, protect: frozenset[str]) -> bool:
    """Whether ``text`` (a line in canonical words) holds what an order is built from: a
    squad member, a group of batsmen, a style, a word of an order of its own, or overs and
    wickets with a condition. A line with none of them is chatter, whatever else it holds."""
    from engine.flungo.language._plans import names_a_kind

    if _BUILDER.search(text) or _CONDITION.search(text) or names_a_kind(text):
        return True
    if _misspelt_command(text):
        return True  # "NAMEE 2 Zippy": a typed order gone wrong, named with "did you mean"
    names = sorted(protect)
    return any(
        is_name_word(w, protect) or (len(w) >= 4 and difflib.get_close_matches(w, names, 1, 0.75))
        for w in _WORD.findall(text)
    )


_FIRST_WORD = re.compile(r"[^\W\d_][\w'’\-]*")
# Words an order may start with ("we'll bowl") that start many a sentence that is no order.
_WEAK_STARTERS = frozenset(["i", "we", "i'll", "we'll", "i've", "we've", "i'd", "we'd", "they"])


def first_word_error(cl: CleanLine, own: NameBook, exc: InvalidOrder) -> InvalidOrder:
    """An unknown first word is reported as an unknown order, with "did you mean"."""
    m = _FIRST_WORD.match(cl.text)
    if m is None or exc.span is None or exc.span.column == cl.column(0):
        return exc
    word = m.group(0)
    weak = word.lower() in _WEAK_STARTERS
    if (word.lower() in starters() and not weak) or own.candidates(word):
        return exc
    if word.lower() in keywords():
        return InvalidOrder(
            "this line is not an order I know",
            source_line=cl.raw,
            span=Span(cl.number, cl.column(0), cl.column(len(word))),
            hint=START_HINT,
        )
    close = near_miss(word, ORDER_WORDS, 0.7)
    hint = f"did you mean '{close[0]}'?" if close else None
    if not close:
        hint = own.unknown(word, source_line=cl.raw, span=exc.span).hint or START_HINT
    return InvalidOrder(
        f"unknown order '{word}'",
        source_line=cl.raw,
        span=Span(cl.number, cl.column(0), cl.column(len(word))),
        hint=hint,
    )


def _misspelt_command(text: str) -> bool:
    """Whether ``text`` starts with a near miss of an order's first word and holds a number:
    a typed command, never a remark to let pass ("NAMEE 2 Zippy"; "Great win!" has none)."""
    m = _FIRST_WORD.match(text)
    if m is None or not any(c.isdigit() for c in text):
        return False
    word = m.group(0).lower()
    if len(word) < 4 or word in keywords() or word in starters():
        return False
    long_words = [w for w in ORDER_WORDS if len(w) >= 4]
    return bool(difflib.get_close_matches(word, long_words, n=1, cutoff=0.8))

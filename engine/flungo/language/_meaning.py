"""Reading a fan's line for its meaning: the lexicon's words and idioms, phases and scores.

A line the canonical orders do not read is read again here. The words that carry meaning
(names, numbers, units, styles and their idioms, the words that start, end and guard an
order, comparisons, scores, phases) are found and put into the canonical words; the words that
carry none (filler, emphasis, politeness, whole clauses of chatter) are let pass; the result is
read by the canonical reader, which builds the order from it. So the canonical form stays the
one contract: whatever this module makes, the echo shows in canonical words.

What the lexicon holds is data (``lexicon.toml``), documented in the player's guide. What is
done here is structure: a range of overs around the actions of an order, phases counted in
the match's overs, scores as commentators write them, and the choice between readings.
"""

from __future__ import annotations

import difflib
import importlib.resources
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass

from engine.flungo.language._chatter import _TENS, number_words
from engine.flungo.language._clauses import CLAUSE_WORDS, GUARD, ordinal, scores, structure
from engine.flungo.language._formal import formal
from engine.flungo.language._grammar import by_grammar
from engine.flungo.language._idioms import change_and_count, forked, ladder_steps
from engine.flungo.language._inflect import alternation, inflected
from engine.flungo.language._names import name_prefixes, named_words
from engine.flungo.language._reader import kept
from engine.flungo.language._reviews import reviews_line
from engine.flungo.language._shorthand import shorthand
from engine.flungo.language._tags import FORMAT_IN, FORMAT_LEAD, markers, other_format
from engine.flungo.language._transform import _ORDINAL_WORDS
from engine.flungo.language._units import down_words, units

__all__ = [
    "STYLE_WORDS",
    "Lexicon",
    "Reworded",
    "lexicon",
    "meaning_words",
    "reword",
]

STYLE_WORDS = ("defensive", "normal", "aggressive", "wahoo")
# The four styles written outright: where one is in a line, idioms beside it are emphasis.
_EXPLICIT = re.compile(
    r"(?<![\w'])(?:defensive(?:ly)?|normal(?:ly)?|aggressive(?:ly)?|wahoo)(?![\w'])"
)


@dataclass(frozen=True, slots=True)
class Lexicon:
    """The reviewed lexicon (``lexicon.toml``), ready to match."""

    spelling: dict[str, str]
    filler: tuple[str, ...]
    styles: dict[str, str]  # idiom -> one of STYLE_WORDS, or two joined by "|" (it asks)
    forms: dict[str, tuple[str, ...]]  # an idiom of the file -> its inflected forms
    phrases: dict[str, str]  # phrase -> canonical words
    phases: dict[str, str]  # phase name -> its kind (powerplay, middle, death)
    overs: dict[int, dict[str, tuple[int, int]]]  # innings overs -> kind -> (first, last)
    carries: frozenset[str] = frozenset()  # words never let pass unknown (see _unknown)


def _load_lexicon() -> Lexicon:
    """The lexicon shipped beside this module."""
    text = importlib.resources.files(__package__).joinpath("lexicon.toml").read_text("utf-8")
    data = tomllib.loads(text)
    styles = {idiom: style for style, idioms in data["styles"].items() for idiom in idioms}
    # an idiom between two styles ("tee off": aggressive or wahoo) reads as both, and asks
    styles |= {
        idiom: pair.replace("_or_", "|")
        for pair, idioms in data["between"].items()
        for idiom in idioms
    }
    fixed = frozenset(data["uninflected"]["words"])
    forms = {i: tuple(f for f in inflected(i, fixed) if f not in styles) for i in styles}
    styles = {f: styles[i] for i, made in forms.items() for f in made} | styles
    phases = {
        name: kind
        for kind, names in data["phases"].items()
        if isinstance(names, list)
        for name in names
    }
    overs = {
        50: {k: (v[0], v[1]) for k, v in data["phases"]["fifty"].items()},
        20: {k: (v[0], v[1]) for k, v in data["phases"]["twenty"].items()},
    }
    return Lexicon(
        spelling=dict(data["spelling"]),
        filler=tuple(w for words in data["filler"].values() for w in words),
        styles=styles,
        forms=forms,
        phrases=dict(data["phrases"]),
        phases=phases,
        overs=overs,
        carries=frozenset(w for words in data["carries"].values() for w in words),
    )


# The lexicon and what is made from it are constants of the package, read at import (a few
# milliseconds), the same in every process; no Reader need keep them.
_LEXICON = _load_lexicon()


def lexicon() -> Lexicon:
    """The lexicon shipped beside this module (read at import)."""
    return _LEXICON


def _meaning_words() -> frozenset[str]:
    """Every word the lexicon gives a meaning to (for naming a word it does not know)."""
    lex = lexicon()
    words: set[str] = set(CLAUSE_WORDS) | set(STYLE_WORDS) | {"we're", "we", "our", "i"}
    for phrase in (*lex.spelling.values(), *lex.styles, *lex.phrases, *lex.phrases.values()):
        words.update(phrase.split())
    for phrase in (*lex.filler, *lex.phases):
        words.update(phrase.split())
    return frozenset(words)


_MEANING_WORDS = _meaning_words()


def meaning_words() -> frozenset[str]:
    """Every word the lexicon gives a meaning to (for naming a word it does not know)."""
    return _MEANING_WORDS


@dataclass(frozen=True, slots=True)
class Reworded:
    """A line in canonical words: ``texts`` has one text, or two where it reads two ways."""

    texts: tuple[str, ...]
    idioms: tuple[tuple[str, str], ...] = ()  # (idiom, style) as read
    dropped: tuple[str, ...] = ()  # clauses let pass as chatter


def _alternation(phrases: list[str]) -> re.Pattern[str]:
    ordered = sorted(set(phrases), key=lambda p: (-len(p), p))
    body = "|".join(re.escape(p) for p in ordered)
    return re.compile(rf"(?<![\w'&+])(?:{body})(?![\w'])")


def _make_patterns() -> dict[str, re.Pattern[str]]:
    lex = lexicon()
    return {
        "spelling": _alternation([k.replace("_", " ") for k in lex.spelling]),
        "filler": _alternation(list(lex.filler)),
        "styles": alternation(lex.forms),
        "phrases": _alternation(list(lex.phrases)),
        "phases": _alternation(list(lex.phases)),
    }


_PATTERNS = _make_patterns()


def _patterns() -> dict[str, re.Pattern[str]]:
    return _PATTERNS


def _sub(kind: str, text: str, protect: frozenset[str], table: dict[str, str] | None = None) -> str:
    """Replace the lexicon's phrases of ``kind`` in ``text`` (a name's word stays)."""

    def repl(m: re.Match[str]) -> str:
        found = m.group(0)
        if " " not in found and found in protect:
            return found
        if table is None:
            return " "
        return table.get(found, table.get(found.replace(" ", "_"), found))

    return _patterns()[kind].sub(repl, text)


_CLAUSE_BREAK = re.compile(r"\s*(?:[.;!?]+(?=\s|$)|[!?]+|,|\s[-–—]\s|\(|\))\s*")
_SPACES = re.compile(r"\s+")
_NOISE = re.compile(r"[^\w\s,;:.!?'()+/<>=&#-]")
_WORD = re.compile(r"[\w']+")


def _meaningful(
    clause: str,
    protect: frozenset[str],
    digits: bool = True,
    names: bool = True,
    negation: bool = True,
) -> bool:
    """Whether a clause may carry an order: a style or idiom, a word of the orders, a guard
    word (``negation``: "don't" too), or (``names``) a name, (``digits``) a number."""
    lex = lexicon()
    if digits and any(ch.isdigit() for ch in clause):
        return True
    # "don't touch" beside an order guards it; "Don't embarrass me!" alone is a cheer
    if (guard := GUARD.search(clause)) and (negation or not guard.group("negation")):
        return True
    for word in _WORD.findall(clause):
        if (names and is_name_word(word, protect)) or word in CLAUSE_WORDS or word in STYLE_WORDS:
            return True
    return bool(
        _patterns()["styles"].search(clause) or _patterns()["phases"].search(clause)
    ) or any(w in lex.styles for w in _WORD.findall(clause))


def _styles(text: str, protect: frozenset[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """The line with its idioms read, each where it stands ("Root block, Stokes slog" is
    Root defensive and Stokes wahoo). Where one clause holds idioms of two styles and no
    style written outright ("Root anchor and tonk"), nothing says which: one text for each,
    so the answer shows both readings and asks. Where the line writes a style outright,
    its idioms are emphasis and pass ("Root - normal, he is our anchor")."""
    lex = lexicon()
    pattern = _patterns()["styles"]

    def own(m: re.Match[str]) -> bool:
        return not (" " not in m.group(0) and m.group(0) in protect)

    found = [(m.group(0), lex.styles[m.group(0)]) for m in pattern.finditer(text) if own(m)]
    if not found:
        return [text], []
    clauses = re.split(r"(,|;)", text)
    variants: list[list[str]] = []
    explicit = bool(_EXPLICIT.search(text))
    # a clause that names a batsman, where every style written outright is another named
    # batsman's, says his own style with its idiom ("Green also attacking, Wilson normal")
    said = [named_words(c, protect) for c in clauses if _EXPLICIT.search(c)]
    others = set().union(*said) if all(said) else None
    for clause in clauses:
        here = named_words(clause, protect)
        if explicit and (others is None or not here or bool(here & others)):
            # the style is written outright: the idioms beside it say it again, or say how
            out = pattern.sub(
                lambda m: m.group(0) if _EXPLICIT.fullmatch(m.group(0)) or not own(m) else " ",
                clause,
            )
            variants.append([out])
            continue
        styles = list(
            dict.fromkeys(
                s
                for m in pattern.finditer(clause)
                if own(m)
                for s in lex.styles[m.group(0)].split("|")
            )
        )
        if len(styles) <= 1:
            out = pattern.sub(lambda m: lex.styles[m.group(0)] if own(m) else m.group(0), clause)
            # two idioms of one style ("nudge and nurdle") say the style once
            variants.append([_SAID_TWICE.sub(r"\1", out)])
            continue
        variants.append(
            [
                pattern.sub(
                    lambda m, style=style: (
                        m.group(0)
                        if not own(m)
                        else (style if style in lex.styles[m.group(0)].split("|") else "\x00")
                    ),
                    clause,
                )
                for style in styles
            ]
        )
    texts = [""]
    for options in variants:
        texts = [t + o for t in texts for o in options][:4]
    # the other reading's idiom goes, with the "and" that joined it
    texts = [re.sub(r"(?:\s+and)?\s*\x00(?:\s*and(?=\s))?", " ", t) for t in texts]
    return texts, found


_SAID_TWICE = re.compile(r"(?<![\w'])(defensive|normal|aggressive|wahoo)\s+and\s+\1(?![\w'])")
# "overs 11 to 40", "overs 11-40", "from over 11 to 40", "between the 30th and 40th overs"
_RANGE = re.compile(
    r"(?:(?:in|for|during|from|between)\s+)?(?:the\s+)?"
    r"(?:overs?\s+(?P<a>\d{1,3})(?:th|st|nd|rd)?\s*(?:to|-|–|until|and)\s*(?:over\s+)?"
    r"(?P<b>\d{1,3})(?:th|st|nd|rd)?(?:\s+overs?)?"
    r"|(?P<c>\d{1,3})(?:th|st|nd|rd)?(?:\s+over)?\s*(?:to|-|–|and)\s*(?:the\s+)?"
    r"(?P<d>\d{1,3})(?:th|st|nd|rd)?\s+overs?"
    r"|(?P<e>\d{1,3})(?:st|nd|rd|th)\s+(?:over\s+)?(?:to|until|and)\s+(?:the\s+)?"
    r"(?P<f>\d{1,3})(?:st|nd|rd|th)(?:\s+overs?)?)"
    r"(?:\s+inclusive)?"
)
_BOWLING = re.compile(r"(?<![\w'])(?:bowl\w*|open\w*|spells?|overs?\s+each|apiece|new ball)")
_FIRST = re.compile(
    r"^(?:(?:in|for|during)\s+)?(?:the\s+)?(?:first|opening)\s+(?P<n>\d{1,3})(?![\d\w])(?:\s+overs)?(?!\s*balls?)"
)
_LAST = re.compile(
    r"(?:(?:in|for|during)\s+)?(?:the\s+)?(?:last|final)\s+(?P<n>\d{1,3})(?![\d\w])(?!\s*balls?)(?:\s+overs)?"
)
# "the 45th over on", "from the 45th on": from that over (the grammar's own "from the 45th over")
_ON = re.compile(r"(?:from\s+)?(?:the\s+)?(?P<n>\d{1,3})(?:st|nd|rd|th)(?:\s+over)?\s+on(?![\w'])")
# Scores as commentators write them: "120 for 3", "120/3"; the Australian "3 for 120", "3/120"
_SCORE = re.compile(r"(?<![\w/])(?P<a>\d{1,3})\s*(?:for|/)\s*(?P<b>\d{1,3})(?![\w/])")


def _scores(text: str) -> str:
    def repl(m: re.Match[str]) -> str:
        a, b = int(m.group("a")), int(m.group("b"))
        if a <= 10 < b and b >= 20:
            a, b = b, a  # wickets for runs: the other number is plainly runs
        if b <= 10 < a:
            return f"{a} for {b}"
        return m.group(0)

    return _SCORE.sub(repl, text)


# A phase with the player's own overs beside it ("middle overs 7 to 15", "powerplay (overs
# 1-6)"): the overs written are what the player means, so they win over the decided phase.
_GIVEN = re.compile(
    r"[\s,]*(?:mein[\s,]*)?\(?\s*(?:overs?\s+)?(?P<a>\d{1,3})\s*(?:-|–|to)\s*(?P<b>\d{1,3})(?!\d)(?:\s*\))?"
)


def _phases(text: str, overs: int, protect: frozenset[str]) -> str:
    lex = lexicon()
    pattern = _patterns()["phases"]
    at = 0
    while (m := pattern.search(text, at)) is not None:
        given = _GIVEN.match(text, m.end())
        if given is None:
            at = m.end()
            continue
        said = f"overs {given.group('a')} to {given.group('b')}"
        text = text[: m.start()] + said + text[given.end() :]
        at = m.start() + len(said)
    table = lex.overs.get(overs, lex.overs[50] if overs > 20 else lex.overs[20])

    def repl(m: re.Match[str]) -> str:
        if _AT_THE_CREASE.search(m.string, 0, m.start()):
            return m.group(0)  # "the batsmen in the middle": at the crease, not a phase
        kind = lex.phases[m.group(0)]
        first, last = table[kind]
        if last == overs and first > 1:
            return f"the last {last - first + 1} overs"
        if first == 1:
            return f"the first {last} overs"
        return f"overs {first} to {last}"

    return _patterns()["phases"].sub(repl, text)


_AT_THE_CREASE = re.compile(r"(?:batsm[ae]n|batters?|who(?:ever)?\s+is|are|is)\s+in\s+$")
# "after 40 overs, ... wahoo for the last 10": to the end, which an order lasts anyway
_FOR_THE_LAST = re.compile(
    r"\s*,?\s+for\s+the\s+(?:last|final|remaining)\s+(?P<n>\d{1,3})(?:\s+overs)?$"
)


def _to_the_end(text: str, overs: int) -> str:
    """ "after 40 overs, ...: wahoo for the last 10" in a 50-over match: the last 10 are the
    ones the order starts at, so the words say it again."""
    start = re.match(r"after\s+(\d{1,3})\s+overs", text)
    end = _FOR_THE_LAST.search(text)
    if start and end and int(start.group(1)) + int(end.group("n")) == overs:
        return text[: end.start()]
    return text


def _window(text: str, overs: int) -> str:
    """An order around a range of overs: "after A-1 overs: ..., until after B overs"."""
    if _BOWLING.search(text):
        return text  # overs for a bowler are the plan's, not a window
    m = _RANGE.search(text)
    if m is None:
        return text
    a = int(m.group("a") or m.group("c") or m.group("e"))
    b = int(m.group("b") or m.group("d") or m.group("f"))
    if not 1 <= a <= b <= overs:
        return text
    rest = (text[: m.start()] + " " + text[m.end() :]).strip(" ,:;-")
    rest = re.sub(r"^(?:then|and)\s+", "", rest)
    until = "" if b == overs else f" until after {b} overs"
    if re.search(r"(?<![\w'])(?:if|when|once|unless)(?![\w'])", rest):
        return text  # a window inside a condition is the grammar's to read
    return f"after {a - 1} overs: {rest}{until}"


def _tidy(text: str) -> str:
    text = _SPACES.sub(" ", text).strip()
    # an "and" left with nothing on one side once filler and idioms have gone
    text = re.sub(r"(?:(?<=^)|(?<=[,;:]))\s*and\s+|\s+and\s*(?=$|[,;:])", " ", text)
    text = _SPACES.sub(" ", text).strip()
    text = re.sub(r"\s+([,;:])", r"\1", text)
    text = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text)
    return text.strip(" ,;:-")


_CONTRACTIONS = (
    (re.compile(r"(?<![\w'])(he|she|it|that|who|whoever|everyone|what)'s(?![\w'])"), r"\1 is"),
    (re.compile(r"(?<![\w'])(hes|its)(?![\w'])"), lambda m: m.group(1)[:-1] + " is"),
    (
        re.compile(r"(?<![\w'])(dont|didnt|doesnt|cant|wont|isnt)(?![\w'])"),
        lambda m: m.group(1)[:-1] + "'t",
    ),
    (re.compile(r"(?<![\w'])(\w+)'ll(?![\w'])"), r"\1 will"),
    (re.compile(r"(?<![\w'])we (?:r|are)(?![\w'])"), "we're"),
)
_NICK_ENDS = ("'s", "sy", "ey", "y", "ie", "o", "s")

_HEAD_PRONOUN = re.compile(r"(?:^|(?<=, ))(?:he|him|she)(?![\w'])")
_HE = re.compile(r"(?<![\w'])(?:he|him)(?![\w'])")


def is_name_word(word: str, protect: frozenset[str]) -> bool:
    """A word of a squad name, or (three letters or more) the start of one ("fred")."""
    if word in protect:
        return True
    return len(word) >= 3 and word not in _common() and any(p.startswith(word) for p in protect)


def _common() -> frozenset[str]:
    from engine.flungo.language._grammar import keywords

    return _common_of(keywords())


@by_grammar
def _common_of(keywords: frozenset[str]) -> frozenset[str]:
    """The grammar's words and the lexicon's (remembered: it is asked for every word)."""
    return keywords | _MEANING_WORDS


_COMPOUND_ORD = re.compile(
    r"(?<![\w'])(twenty|thirty|forty|fifty)[\s-](first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)(?![\w'])"
)


_SINGLE_ORD = {
    "third": 3,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "eleventh": 11,
    "twelfth": 12,
    "thirteenth": 13,
    "fourteenth": 14,
    "fifteenth": 15,
    "sixteenth": 16,
    "seventeenth": 17,
    "eighteenth": 18,
    "nineteenth": 19,
    "twentieth": 20,
    "thirtieth": 30,
    "fortieth": 40,
    "fiftieth": 50,
}
_SINGLE = re.compile(r"(?<![\w'-])(" + "|".join(_SINGLE_ORD) + r")(?![\w'-])")


def _compound_ordinals(text: str) -> str:
    """ "twenty-sixth" -> "26th", "fifth" -> "5th" ("first" and "second" stay words: "first
    change", "second spell")."""
    text = _COMPOUND_ORD.sub(
        lambda m: ordinal(_TENS[m.group(1)] + _ORDINAL_WORDS[m.group(2)]), text
    )
    return _SINGLE.sub(lambda m: ordinal(_SINGLE_ORD[m.group(1)]), text)


def name_runs(text: str, protect: frozenset[str], names: tuple[str, ...]) -> list[str]:
    """The squad names ``text`` writes (lower case), as written: runs of name words, cut
    where one name ends and another begins ("grey warne" is two)."""
    words = [re.findall(r"[\w']+", n.lower()) for n in names]
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        longest = [0] * len(run)  # from each word, the most words of one name (linear)
        for w in words:
            stretch = 0
            for k in range(len(run) - 1, -1, -1):
                stretch = stretch + 1 if any(x.startswith(run[k]) for x in w) else 0
                longest[k] = max(longest[k], stretch)
        i = 0
        while i < len(run):
            j = i + max(longest[i], 1)
            out.append(" ".join(run[i:j]))
            i = j
        run.clear()

    for m in re.finditer(r"[\w'.]+|[^\w'.\s]+", text):
        w = m.group(0).rstrip(".")
        if is_name_word(w, protect):
            run.append(w)
        elif re.fullmatch(r"[a-z]", w) and not run:
            run.append(w)  # an initial ("t. smith"), read with the name after it
        else:
            flush()
    flush()
    return out


def _nicknames(text: str, protect: frozenset[str], known: frozenset[str]) -> str:
    """ "Rooty", "Warney", "Stokesy's", "Warne's": the name they are made from."""

    def repl(m: re.Match[str]) -> str:
        word = m.group(0)
        if word in protect or word in known:
            return word
        if word.endswith("'s") and word[:-2] not in known:
            word = word[:-2]  # "Stokesy's batting": his
        for end in _NICK_ENDS:
            base = word[: -len(end)]
            if word.endswith(end) and len(base) >= 3:
                if base in protect:
                    return base
                if base.endswith("'s") and base[:-2] in protect:
                    return base[:-2]
        if word.endswith("'s") and word[:-2] in protect:
            return word[:-2]
        return word

    return re.sub(r"(?<![\w'])[a-z][\w']*", repl, text)


def _pronouns(text: str, runs: list[str]) -> str:
    """ "Root ... he goes wahoo": "he" is the one batsman the line names before it ("Root
    defensive, if he gets out, Tom Smith ...": Root); with two before it, nobody."""
    if len(set(runs)) == 1:
        return _HE.sub(runs[0], text)

    def repl(m: re.Match[str]) -> str:
        before = {r for r in runs if 0 <= text.find(r) < m.start()}
        return before.pop() if len(before) == 1 else m.group(0)

    return _HE.sub(repl, text)


def prepare(text: str, protect: frozenset[str], overs: int) -> str:
    """The line in lower case with numbers as digits, spellings put right, contractions
    opened, nicknames as the names they come from, and the match's format said first
    ("T20:", "20 over game") taken off: the mail says which match it is."""
    lex = lexicon()
    t = _compound_ordinals(text.replace("’", "'").lower())
    t = _NOISE.sub(" ", shorthand(number_words(t), protect, overs))
    t = re.sub(r"(?<=\w)'(?!\w)|(?<!\w)'(?=\w)", " ", t)  # 'quoted' words
    t = markers(t)
    t = _sub("spelling", t, protect, {k.replace("_", " "): v for k, v in lex.spelling.items()})
    t = formal(t)  # "in the event that": if, "prior to": before (_formal.py)
    for pattern, repl in _CONTRACTIONS:
        t = pattern.sub(repl, t)
    t = _nicknames(t, protect, meaning_words())
    t = re.sub(r"(?<![\w'])([a-z])\.\s+(?=[a-z])", r"\1 ", t)  # "t. smith": an initial
    t = _SPACES.sub(" ", t).strip()
    if other_format(t, overs):
        return t
    return FORMAT_IN.sub("", FORMAT_LEAD.sub("", t))


_QUESTION = re.compile(
    r"(?:^|(?<=[.!;]\s))(?:q\s*[-:]\s*|question\s*:\s*|a\s+question\s*:\s*)?"
    r"(?:can|could|might|may|does|do|did|is|are|will|would|shall|any|what|how|why|who|where)"
    r"\b[^?]*\?+"
)


def reword(
    text: str,
    protect: frozenset[str],
    overs: int,
    names: tuple[str, ...] = (),
    kinds: Mapping[str, tuple[str, ...]] | None = None,
) -> Reworded:
    """``text`` in the canonical words (see the module's docstring).

    ``protect``: the words of the squads' names, lower case, which are never rewritten;
    ``overs``: the overs in an innings of the match (phases and windows count in them);
    ``names``: the squads' full names (to tell where one name ends and the next begins);
    ``kinds``: the squad's bowlers by kind (``_plans.bowler_kinds``), for "the spinners".
    """
    from engine.flungo.language._plans import (
        batting_order,
        bowling_line,
        kind_plan,
        kinds_in_rule,
        names_a_kind,
        open_with,
        team_sheet,
        toss_line,
    )

    lex = lexicon()
    t = change_and_count(prepare(text, protect, overs), overs)  # before clauses are kept
    if other_format(t, overs):
        return Reworded((t,), (), ())  # refused as written, its format named
    # a question to the GM ("Might I ask whether ...?", "Q - can Rock play?") is no order
    t = _QUESTION.sub(" ", t).strip()
    if "?" in t:
        # a question mark left inside a line ("overs 1-2 ?? 7"): what it doubts is not for
        # pbm to guess, so the line is read as written, and refused as written
        return Reworded((t,), (), ())
    clauses = [c for c in _CLAUSE_BREAK.split(t) if c and c.strip()]
    kept = [c for c in clauses if _meaningful(c, protect)]
    dropped = tuple(c for c in clauses if c not in kept)
    chatter = not any(_meaningful(c, protect, digits=False, negation=False) for c in kept)
    if chatter and not names_a_kind(t):
        # no name, style, unit, phase or guard anywhere: a number alone ("97 to defend,
        # come on!") is no order, so the line is chatter, and costs nothing (a name alone
        # may be a mistyped order: "captian root" is told "did you mean")
        if _mistyped_order(t):
            return Reworded((t,), (), ())  # "NAMEE 2 Zippy": refused as written, with the hint
        return Reworded((), (), tuple(clauses))
    if (toss := toss_line(kept)) is not None:
        return Reworded((toss,), (), dropped)
    runs = name_runs(t, protect, names)
    if (sheet := team_sheet(t, runs)) is not None:
        return Reworded((sheet,), (), dropped)
    if (order := batting_order(t, runs)) is not None:
        return Reworded((order,), (), dropped)
    if (reviews := reviews_line(t, runs)) is not None:
        return Reworded((reviews,), (), dropped)
    t = ", ".join(kept)
    t = _phases(t, overs, protect)
    if (plan := bowling_line(t, runs, overs)) is not None:  # one reading a line, or two
        return Reworded(tuple(plan.split("\n")), (), dropped)
    if (pair := open_with(t)) is not None:
        return Reworded((pair,), (), dropped)
    # "spin from both ends", "the quicks": the squad's bowlers of that kind, when plain
    if kinds and (plan := kind_plan(t, kinds, lambda x: name_runs(x, protect, names), overs)):
        return Reworded(tuple(plan.split("\n")), (), dropped)
    t = _scores(scores(kinds_in_rule(ladder_steps(t), kinds)))  # "the spinners bowl the rest"
    texts, idioms = _styles(t, protect)
    out = []
    for s in forked(texts):
        s = _sub("phrases", units(s), protect, lex.phrases)
        s = _sub("filler", s, protect)
        # "Tom Smith defensive he's a bit rubbish": a new subject starts a new clause
        s = re.sub(
            r"(?<!\bif)(?<!\bas)(?<!\bwhen)(?<!\bonce)(?<!\bunless)(?<!\buntil)"
            r"(?<=\w)\s+(?=(?:he|she|they)\s+(?:is|are|was|has|have)(?![\w']))",
            ", ",
            s,
        )
        s = _pronouns(s, name_runs(s, protect, names))
        s = _tidy(s)
        s = _FIRST.sub(lambda m: f"for the first {m.group('n')} overs", s, count=1)
        s = _LAST_OVER.sub("in the last 1 overs", s)
        s = _ON.sub(lambda m: f"from the {m.group('n')}th over", s)
        s = _AT_OVERS.sub(lambda m: f"after {m.group('n')} overs", s)
        if _EXPLICIT.search(s):
            s = _PLACE.sub(" ", s)
        s = re.sub(r"(?<![\w'])([a-z]+)(?:'s)?\s+treatment(?![\w'])", r"treat \1", s)
        s = _UNTIL_NTH.sub(lambda m: f"until the {m.group('n')}th wicket falls", s)
        s = _UNTIL_OVER.sub(lambda m: f"until after {m.group('n')} overs", s)
        s = _FROM_NTH.sub(lambda m: f"from the {m.group('n')}th over", s)
        s = _NTH_WICKET.sub(lambda m: f"when the {ordinal(int(m.group('n')))} wicket falls", s)
        s = _DOWN.sub(_down, down_words(s))
        if (steps := _steps(s, overs)) is not None:
            out.append(steps)
            continue
        parts = [c for c in _CLAUSE_BREAK.split(s) if c and c.strip() and _meaningful(c, protect)]
        s = _window(_tidy(", ".join(parts)), overs)
        out.append(_tidy(_to_the_end(structure(s, names_pattern(protect)), overs)))
    return Reworded(tuple(dict.fromkeys(o for o in out if o)), tuple(idioms), dropped)


# Styles in steps over the innings: "first 6 all aggressive, normal 7 to 15, then wahoo",
# "powerplay aggressive, middle overs normal, death wahoo" (the phases as overs by then)
_STEP_CUT = re.compile(r"\s*[,;]\s*(?:and\s+)?(?:then\s+)?|\s+(?:and\s+)?then\s+")
_STEP_STYLE = re.compile(r"(?<![\w'])(defensive|normal|aggressive|wahoo)(?:ly)?(?![\w'])")
_STEP_WINDOWS = (
    (
        "range",
        re.compile(r"(?:overs?\s+)?(?P<a>\d{1,3})\s*(?:to|-|–)\s*(?P<b>\d{1,3})(?:\s+overs)?"),
    ),
    ("first", re.compile(r"(?:for\s+|in\s+)?the\s+first\s+(?P<b>\d{1,3})(?:\s+overs)?")),
    ("last", re.compile(r"(?:for\s+|in\s+)?the\s+last\s+(?P<n>\d{1,3})(?:\s+overs)?")),
    ("until", re.compile(r"until\s+after\s+(?P<b>\d{1,3})\s+overs")),
    ("after", re.compile(r"after\s+(?P<a1>\d{1,3})\s+overs")),
    ("from", re.compile(r"from\s+the\s+(?P<a>\d{1,3})(?:st|nd|rd|th)\s+over")),
)
_STEP_EMPTY = re.compile(r"(?:\s|(?<![\w'])(?:bats?|all|batsmen|the|for|in|and|overs?)(?![\w']))*")


def _steps(text: str, overs: int) -> str | None:
    """Styles in three or more steps over the innings, each over its overs, for the same
    batsmen: one order for each step, from its first over (a later one wins, so none needs
    an "until"). None unless every step is a style and its overs, and nothing else."""
    if re.search(r"(?<![\w'])(?:if|when|whenever|unless|once|except|but|not)(?![\w'])", text):
        return None
    parts = [p for p in _STEP_CUT.split(text) if p.strip()]
    if len(parts) < 3:
        return None  # two styles in turn are one order with its "but" (``_clauses._sequence``)
    out: list[str] = []
    who, end, start = "all batsmen", 0, 0
    for i, part in enumerate(parts):
        styles = _STEP_STYLE.findall(part)
        if len(styles) != 1:
            return None
        rest, mark = _STEP_STYLE.sub(" ", part), ""
        for kind, pattern in _STEP_WINDOWS:
            if (m := pattern.search(rest)) is None:
                continue
            rest = rest[: m.start()] + " " + rest[m.end() :]
            groups = m.groupdict()
            if kind == "last":
                start, end = overs - int(groups["n"]) + 1, overs
                mark = f"when {6 * int(groups['n'])} balls are left"
            elif kind in ("after", "from"):
                start = int(groups.get("a1") or 0) + 1 if kind == "after" else int(groups["a"])
                end = overs
            else:
                start = int(groups["a"]) if groups.get("a") else (1 if kind == "first" else end + 1)
                end = int(groups["b"])
            break
        else:
            if i == 0:
                return None  # the first step says when it starts
            start, end = end + 1, overs
        subject = _STEP_EMPTY.fullmatch(rest) is None
        if (subject and i > 0) or not 1 <= start <= overs:
            return None  # a word the steps do not have: the line is read another way
        if subject:
            who = rest.strip()
        out.append(f"{mark or f'after {start - 1} overs'}: {who} bat {styles[0]}")
    return ". ".join(out)


# "the last over" of a batting order: its six balls (a bowler's is read as a plan before)
_LAST_OVER = re.compile(r"(?<![\w'])(?:in\s+)?(?:the\s+)?(?:last|final)\s+over(?![\w'])")
# "at 30 overs", "by 15": when the overs are done
_AT_OVERS = re.compile(r"(?<![\w'])(?:at|by)\s+(?P<n>\d{1,3})\s+overs(?![\w'])")
# "at six", "batting at number 3", "at no. 4" beside a style: his place, said again
_PLACE = re.compile(
    r"(?:,\s*)?(?<![\w'])(?:batting\s+at|at)\s+(?:number\s+|no\.?\s*)?\d{1,2}(?![\w'])"
    r"(?=\s*:|\s+(?:is\s+to|to\s+bat|bats)|,\s+is\b)(?:\s*,)?"
)
_UNTIL_OVER = re.compile(
    r"(?<![\w'])(?:until|till)\s+(?:the\s+)?(?P<n>\d{1,3})(?:st|nd|rd|th)(?!\s+wicket)(?:\s+over)?"
    r"(?:\s+(?:has\s+been\s+completed|is\s+done|is\s+bowled|is\s+over|is\s+complete))?"
)
_FROM_NTH = re.compile(r"(?<![\w'])from\s+the\s+(?P<n>\d{1,3})(?:st|nd|rd|th)(?!\s+over)")
_NTH_WICKET = re.compile(
    r"(?:^|(?<=, ))(?:the\s+)?(?P<n>\d{1,2})(?:st|nd|rd|th)\s+wicket\s+"
    r"(?:goes|falls|is\s+lost|down)"
)
_UNTIL_NTH = re.compile(
    r"(?<![\w'])until\s+(?:the\s+)?(?P<n>\d{1,2})(?:st|nd|rd|th)\s+(?:goes|falls|wicket)(?:\s+falls)?"
)
# "8 or fewer down", "7 or more down", "we're 7 down" beside another trigger
_DOWN = re.compile(
    r"(?<![\w'])(?P<if>if\s+)?(?:we're\s+|we\s+are\s+)?(?P<n>\d{1,2})\s+(?:wickets\s+)?(?P<cmp>or\s+fewer|or\s+more)?\s*down(?![\w'])"
)


def _down(m: re.Match[str]) -> str:
    cmp = m.group("cmp") or ""
    n = m.group("n")
    guard = m.group("if") or ""
    if "fewer" in cmp:
        return f"{guard}wickets <= {n}"
    if "more" in cmp:
        return f"{guard}wickets >= {n}"
    s = m.string
    if re.search(r"(?<![\w'])(?:after|at drinks|when|once|with)(?![\w'])", s[: m.start()]):
        return f"{guard}wickets >= {n}"
    return f"when the {ordinal(int(n))} wicket falls"


@kept(maxsize=16)
def names_pattern(protect: frozenset[str]) -> re.Pattern[str] | None:
    """A run of squad names ("warne, anderson and stone"), to match a whole clause (kept by
    the Reader: built once for the squads that need it)."""
    if not protect:
        return None
    # a name's word, or the start of one ("fred" for Freddie), as :func:`is_name_word` reads:
    # each word as its first three letters and the rest optional, letter by letter, and no
    # start of a name that is a word of the orders ("and" of Anderson)
    common = _common()
    starts = sorted({w[:k] for w in protect for k in range(3, len(w))} & common - protect)
    alts = "|".join(name_prefixes(w) for w in sorted(protect, key=lambda w: (-len(w), w)))
    guard = rf"(?!(?:{'|'.join(map(re.escape, starts))})(?![\w']))" if starts else ""
    # atomic, and to the word's end: two names' starts alike ("joe" of Joe and of Joel) match
    # a word one way only, where a run of them cost 2^n steps to refuse (bench/RESULTS.md)
    name = rf"(?>{guard}(?:{alts})(?![\w']))"
    return re.compile(rf"{name}(?:(?:\s+and\s+|\s*,\s*|\s+){name})*")


def _mistyped_order(text: str) -> bool:
    """Whether a line opens with a near miss of an order's first word ("NAMEE 2 Zippy",
    "captian: root"): a typed order the reader must refuse with its "did you mean", never
    let pass as chatter. Only on a line with a number or a colon, as an order has, and words
    of four letters or more."""
    from engine.flungo.language._grammar import ORDER_WORDS

    if not re.search(r"[\d:]", text):
        return False  # "Great win everyone!" is a cheer, not a mistyped "treat"
    first = re.match(r"\s*([A-Za-z]+)", text)
    if first is None or len(first.group(1)) < 4:
        return False
    word = first.group(1).lower()
    longer = [w for w in ORDER_WORDS if len(w) >= 4]
    return word not in longer and bool(difflib.get_close_matches(word, longer, 1, 0.8))

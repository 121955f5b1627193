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

import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from engine.flungo.language._chatter import number_words

__all__ = ["STYLE_WORDS", "Lexicon", "Reworded", "lexicon", "meaning_words", "reword"]

STYLE_WORDS = ("defensive", "normal", "aggressive", "wahoo")
# The four styles written outright: where one is in a line, idioms beside it are emphasis.
_EXPLICIT = re.compile(
    r"(?<![\w'])(?:defensive(?:ly)?|normal(?:ly)?|aggressive(?:ly)?|wahoo)(?![\w'])"
)
# Words that say a clause may be an order (with names, digits and styles): a clause with
# none of them is chatter ("he is our anchor" is not: "anchor" is an idiom).
_ORDER_WORDS = frozenset(
    ["over", "overs", "ball", "balls", "wicket", "wickets", "down", "out", "bowl", "bowls", "bowling", "bowled", "bowler", "bowlers", "bat", "bats", "batting", "batsman", "batsmen", "open", "opens", "opening", "openers", "captain", "wicketkeeper", "keeper", "toss", "review", "reviews", "lbw", "treat", "treatment", "boost", "points", "point", "helper", "physio", "xi", "eleven", "drinks", "score", "runs", "run", "rate", "need", "needs", "needed", "chase", "chasing", "remaining", "rest", "next", "last", "first", "tail", "spin", "spinners", "pace", "seamers", "order", "powerplay", "death", "middle", "everyone", "all"]
)


@dataclass(frozen=True, slots=True)
class Lexicon:
    """The reviewed lexicon (``lexicon.toml``), ready to match."""

    spelling: dict[str, str]
    filler: tuple[str, ...]
    styles: dict[str, str]  # idiom -> one of STYLE_WORDS
    phrases: dict[str, str]  # phrase -> canonical words
    phases: dict[str, str]  # phase name -> its kind (powerplay, middle, death)
    overs: dict[int, dict[str, tuple[int, int]]]  # innings overs -> kind -> (first, last)


@functools.cache
def lexicon() -> Lexicon:
    """The lexicon shipped beside this module."""
    data = tomllib.loads(Path(__file__).with_name("lexicon.toml").read_text(encoding="utf-8"))
    styles = {idiom: style for style, idioms in data["styles"].items() for idiom in idioms}
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
        filler=tuple(data["filler"]["words"]),
        styles=styles,
        phrases=dict(data["phrases"]),
        phases=phases,
        overs=overs,
    )


def meaning_words() -> frozenset[str]:
    """Every word the lexicon gives a meaning to (for naming a word it does not know)."""
    lex = lexicon()
    words: set[str] = set(_ORDER_WORDS) | set(STYLE_WORDS)
    for phrase in (*lex.spelling.values(), *lex.styles, *lex.phrases, *lex.phrases.values()):
        words.update(phrase.split())
    for phrase in (*lex.filler, *lex.phases):
        words.update(phrase.split())
    return frozenset(words)


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


@functools.cache
def _patterns() -> dict[str, re.Pattern[str]]:
    lex = lexicon()
    return {
        "spelling": _alternation([k.replace("_", " ") for k in lex.spelling]),
        "filler": _alternation(list(lex.filler)),
        "styles": _alternation(list(lex.styles)),
        "phrases": _alternation(list(lex.phrases)),
        "phases": _alternation(list(lex.phases)),
    }


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


def _meaningful(clause: str, protect: frozenset[str]) -> bool:
    lex = lexicon()
    if any(ch.isdigit() for ch in clause):
        return True
    for word in _WORD.findall(clause):
        if word in protect or word in _ORDER_WORDS or word in STYLE_WORDS:
            return True
    return bool(
        _patterns()["styles"].search(clause) or _patterns()["phases"].search(clause)
    ) or any(w in lex.styles for w in _WORD.findall(clause))


def _styles(text: str, protect: frozenset[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """The line with its idioms read: one text per style the idioms leave open."""
    lex = lexicon()
    pattern = _patterns()["styles"]
    found = [
        (m.group(0), lex.styles[m.group(0)])
        for m in pattern.finditer(text)
        if not (" " not in m.group(0) and m.group(0) in protect)
    ]
    if not found:
        return [text], []
    if _EXPLICIT.search(text):
        # the style is written outright: the idioms beside it say it again, or say how
        kept = [t for t, s in found if s == "normal" or t.endswith("ly")]
        del kept
        out = pattern.sub(
            lambda m: (
                m.group(0) if _EXPLICIT.fullmatch(m.group(0)) or m.group(0) in protect else " "
            ),
            text,
        )
        return [out], found
    styles = list(dict.fromkeys(s for _, s in found))
    texts = []
    for style in styles:
        texts.append(
            pattern.sub(
                lambda m, style=style: (
                    m.group(0)  # type: ignore[misc]
                    if m.group(0) in protect
                    else (style if lex.styles[m.group(0)] == style else " ")
                ),
                text,
            )
        )
    return texts, found


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
    r"(?:(?:in|for|during)\s+)?(?:the\s+)?(?:first|opening)\s+(?P<n>\d{1,3})(?!\s*(?:balls?|overs?))"
)
_LAST = re.compile(
    r"(?:(?:in|for|during)\s+)?(?:the\s+)?(?:last|final)\s+(?P<n>\d{1,3})(?!\s*balls?)(?:\s+overs)?"
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


def _phases(text: str, overs: int, protect: frozenset[str]) -> str:
    lex = lexicon()
    table = lex.overs.get(overs, lex.overs[50] if overs > 20 else lex.overs[20])

    def repl(m: re.Match[str]) -> str:
        kind = lex.phases[m.group(0)]
        first, last = table[kind]
        if last == overs and first > 1:
            return f"the last {last - first + 1} overs"
        if first == 1:
            return f"the first {last} overs"
        return f"overs {first} to {last}"

    return _patterns()["phases"].sub(repl, text)


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
    until = "" if b == overs else f", until after {b} overs"
    if re.search(r"(?<![\w'])(?:if|when|once|unless)(?![\w'])", rest):
        return text  # a window inside a condition is the grammar's to read
    return f"after {a - 1} overs: {rest}{until}"


def _tidy(text: str) -> str:
    text = _SPACES.sub(" ", text).strip()
    text = re.sub(r"\s+([,;:])", r"\1", text)
    text = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text)
    return text.strip(" ,;:-")


def reword(text: str, protect: frozenset[str], overs: int) -> Reworded:
    """``text`` in the canonical words (see the module's docstring).

    ``protect``: the words of the squads' names, lower case, which are never rewritten;
    ``overs``: the overs in an innings of the match (phases and windows count in them).
    """
    lex = lexicon()
    t = number_words(text.replace("’", "'"))
    t = _NOISE.sub(" ", t.lower())
    t = _sub("spelling", t, protect, {k.replace("_", " "): v for k, v in lex.spelling.items()})
    # 't20:' / 'odi:' and '20 over game:' are the match the line is for: the mail says which
    t = re.sub(
        r"^(?:in\s+)?(?:the\s+)?(?:t20|odi|(?:twenty|fifty|20|50)[\s-]*overs?(?:\s+(?:game|match))?)"
        r"(?:\s+(?:game|match|mein|format))?\s*[:,-]?\s*",
        "",
        t,
    )
    clauses = [c for c in _CLAUSE_BREAK.split(t) if c and c.strip()]
    kept = [c for c in clauses if _meaningful(c, protect)]
    dropped = tuple(c for c in clauses if c not in kept)
    t = ", ".join(kept)
    if not t:
        return Reworded((), (), dropped)
    t = _phases(t, overs, protect)
    t = _scores(t)
    texts, idioms = _styles(t, protect)
    out = []
    for s in texts:
        s = _sub("phrases", s, protect, lex.phrases)
        s = _sub("filler", s, protect)
        s = _ON.sub(lambda m: f"from the {m.group('n')}th over", s)
        s = _FIRST.sub(lambda m: f"for the first {m.group('n')} overs", s)
        s = _LAST.sub(lambda m: f"for the last {m.group('n')} overs", s)
        s = _window(_tidy(s), overs)
        out.append(_tidy(s))
    return Reworded(tuple(dict.fromkeys(out)), tuple(idioms), dropped)

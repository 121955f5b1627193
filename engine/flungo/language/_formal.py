"""The formal register: English's complex conjunctions and prepositions, read as plain words.

"In the event that we are 4 down", "prior to the 40th over", "up to and including the 35th",
"in excess of 150", "save where Root is in": the multi-word forms a grammar lists for "if",
"before", "until", "more than" and "unless". The words are data, the lexicon's ``[formal]``
section (its sources are named there); what is done here is structure, where a form changes
a bound or only means its word in one place:

- "between overs 11 and 20 inclusive" is overs 11 to 20 (a range of the orders is inclusive);
  "between" without "inclusive" is left as written (a drafting guide's warning: it may or
  may not include its ends), so the line is refused, naming it;
- "before the end of the 10th over" is before 10 overs are done; "by the end of" after them;
- "until such time as", "up to and including", "to the end of" are "until" only before an
  over ("up to and including the 35th over"); elsewhere "up to" stays the grammar's "at most"
  and "to the end of the innings" stays the lexicon's "for the rest of the innings";
- "X thereafter" at a step's end is "then X" ("aggressive until 45 overs and wahoo
  thereafter");
- "following" as a preposition (not "the following") is "after";
- "where" opening a clause is the drafter's "if"; "save where", "except where" are "unless",
  matched first, so an exceptive never reads as its positive.

Read only for a line the canonical orders do not read (from ``_meaning.prepare``), so it
costs nothing on lines that read. Decided in docs/rules/orders-formal-words.md.
"""

from __future__ import annotations

import importlib.resources
import re
import tomllib
from collections.abc import Callable

__all__ = ["FORMAL_WORDS", "formal"]

_STYLES = r"(?:defensive(?:ly)?|normal(?:ly)?|aggressive(?:ly)?|wahoo)"
_BE_AHEAD = re.compile(r"\s+be(?![\w'])")
_OVER_AHEAD = re.compile(r"\s*(?:the\s+)?(?:\d|over\s+\d)")
# "through" (US English, "up to and including") only before an over said as one: "bat
# through the innings", "bowl through" are the lexicon's own
_ORDINAL_AHEAD = re.compile(
    r"\s*(?:the\s+\d{1,3}(?:st|nd|rd|th)(?:\s+over)?(?![\w'])"
    r"(?!\s+(?:wicket|place|position|spot|slot|batsman|man|in|of)(?![\w']))|over\s+\d)"
)


def _load() -> dict[str, str]:
    text = importlib.resources.files(__package__).joinpath("lexicon.toml").read_text("utf-8")
    data = tomllib.loads(text)
    return {phrase: plain for plain, phrases in data["formal"].items() for phrase in phrases}


# each formal phrase -> the plain words it is read as (the lexicon's [formal], read at import)
FORMAL_WORDS = _load()
_WORDS = re.compile(
    r"(?<![\w'])(?:"
    + "|".join(re.escape(p) for p in sorted(FORMAL_WORDS, key=lambda p: (-len(p), p)))
    + r")(?![\w'])"
)
# "through", "up to": "until" only before an over said as one ("up to the 15th"); "up to 3"
# is the grammar's "at most"
_UNTIL_ORDINAL = frozenset(("through", "up to and through", "up to"))
# the lexicon's phrases for "until" that mean it only before an over's number
_UNTIL_ONLY_BEFORE_OVERS = frozenset(
    p for p, plain in FORMAL_WORDS.items() if plain == "until" and p != "pending"
)

_BETWEEN = re.compile(
    r"(?<![\w'])between\s+(?P<unit>(?:overs?|the)\s+)?(?P<a>\d{1,3})(?:st|nd|rd|th)?"
    r"\s+and\s+(?:the\s+)?(?P<b>\d{1,3})(?:st|nd|rd|th)?(?P<over>\s+overs?)?"
    r"\s*,?\s*(?:both\s+)?inclusive(?:ly)?(?![\w'])"
)
_END_OF = re.compile(
    r"(?<![\w'])(?P<word>before|by)\s+the\s+end\s+of\s+(?:the\s+(?P<a>\d{1,3})(?:st|nd|rd|th)"
    r"\s+over|over\s+(?P<b>\d{1,3}))(?![\w'])"
)
_THEREAFTER = re.compile(
    r"(?P<lead>[,;]\s*(?:and\s+)?|\s+and\s+)(?P<x>(?:[a-z]+\s+){0,3}?(?:defensive|normal|"
    r"aggressive|wahoo)[a-z]*(?:\s+[a-z]+){0,3}?)\s+(?:thereafter|thenceforth)(?=\s*(?:[,;.]|$))"
)
# a range's bound on the wickets, as the canonical comparison ("not more than one wicket has
# then fallen", "we have lost no more than 2 wickets", "not fewer than 5 wickets in hand")
_LE = r"at\s+most|no\s+more\s+than|not\s+more\s+than|a\s+maximum\s+of|not\s+exceeding|up\s+to"
_GE = (
    r"at\s+least|no\s+fewer\s+than|not\s+fewer\s+than|no\s+less\s+than|not\s+less\s+than"
    r"|a\s+minimum\s+of"
)
_LT = r"fewer\s+than|less\s+than|under|below"
_GT = r"more\s+than|in\s+excess\s+of|upwards?\s+of|over|above"
_CMP = rf"(?:(?P<le>{_LE})|(?P<ge>{_GE})|(?P<lt>{_LT})|(?P<gt>{_GT}))"
_LOST = re.compile(
    rf"(?<![\w'])(?:(?:we|i)\s+(?:have\s+|had\s+)?lost|we've\s+lost|i've\s+lost)\s+{_CMP}\s+"
    r"(?P<n>\d{1,2})\s+wickets?(?![\w'])"
)
# the bound after its number ("lost 2 or fewer wickets"; "unless we are 5 or more down")
_LOST_OR = re.compile(
    r"(?<![\w'])(?:(?:we|i)\s+(?:have\s+|had\s+)?lost|we've\s+lost|i've\s+lost)\s+"
    r"(?P<n>\d{1,2})\s+or\s+(?:(?P<le>fewer|less)|(?P<ge>more))\s+wickets?(?![\w'])"
)
_UNLESS_DOWN = re.compile(
    r"(?<![\w'])unless\s+(?:we're\s+|we\s+are\s+)?(?P<n>\d{1,2})\s+(?:wickets?\s+)?or\s+"
    r"(?:(?P<le>fewer|less)|(?P<ge>more))\s+(?:wickets?\s+)?down(?![\w'])"
)
# "in the event of the 5th wicket falling": the gerund clause, as the grammar's event
_FALLING = re.compile(r"(?<![\w'])(?P<w>if\s+the\s+\d{1,2}(?:st|nd|rd|th)\s+wicket)\s+falling")
_FALLEN = re.compile(
    rf"(?:(?<![\w'])(?:we're\s+|we\s+are\s+)|(?P<with>,?\s*(?<![\w'])with\s+))?{_CMP}\s+(?P<n>\d{{1,2}})\s+(?:wickets?\s+)?"
    r"(?:(?:have|has)\s+)?(?:then\s+)?(?:been\s+)?(?:down|fallen|lost|gone)(?![\w'])"
)
_IN_HAND = re.compile(
    rf"(?<![\w'])(?:we\s+have\s+|we've\s+got\s+|we've\s+|(?P<with>,?\s*with\s+))?{_CMP}\s+(?P<n>\d{{1,2}})\s+"
    r"wickets?\s+(?:(?:remain|remaining|still)\s+)?(?:in\s+hand|left|remaining|remain)(?![\w'])"
)
_COMMA_UNLESS = re.compile(r"\s*,\s*unless\s+")
_OPS = {"le": "<=", "ge": ">=", "lt": "<", "gt": ">"}
# Quirk 14.23, conditional inversion: "should the 6th wicket fall" is "if the 6th wicket falls"
_SHOULD = re.compile(
    r"(?P<pre>^|[,;:]\s*)should\s+(?P<subj>the\s+[a-z\d]+(?:\s+[a-z\d]+)??|we|i|[a-z]+)\s+"
    r"(?P<verb>be|fall|lose|reach|get|need|require|pass|have|exceed)(?![\w'])"
)
# the putative "should" after "if" (Quirk 14.25): "if the 8th wicket should fall" is "if the
# 8th wicket falls"
_IF_SHOULD = re.compile(
    r"(?P<pre>(?<![\w'])(?:if|when|once))\s+(?P<subj>the\s+[a-z\d]+(?:\s+[a-z\d]+)??|we|i|[a-z]+)\s+"
    r"should\s+(?P<verb>be|fall|lose|reach|get|need|require|pass|have|exceed)(?![\w'])"
)
_THIRD = {"be": "is", "have": "has", "pass": "passes", "reach": "reaches", "exceed": "exceeds"}
# "if (and as soon as)", "if and when": the conjunctions joined, read as the later, "when"
_IF_AND_WHEN = re.compile(
    r"(?<![\w'])if\s*(?:\(\s*)?,?\s*and\s+(?:as\s+soon\s+as|when|once)(?:\s*\))?(?![\w'])"
)
# Quirk 13.x, "rather than" (and "instead of") a quasi-coordinator: "defensively rather than
# normally" is defensively; the style it sets aside is said, not ordered
_RATHER = re.compile(
    rf"(?P<style>{_STYLES})\s*,?\s+(?:rather\s+than|instead\s+of)\s+(?:to\s+)?(?:bat\s+|be\s+)?"
    rf"{_STYLES}(?![\w'])"
)
# "before the 15th over has begun": before the 15th over (begun is when it is before)
_BEGUN = re.compile(
    r"(?<![\w'])(?P<head>before\s+(?:the\s+\d{1,3}(?:st|nd|rd|th)\s+over|over\s+\d{1,3}))\s+"
    r"(?:has\s+|is\s+)?(?:begun|started|commenced|under\s+way|underway)(?![\w'])"
)
# "until the 15th over has been bowled": until it is done, as "until the 15th over" reads
_DONE = re.compile(
    r"(?<![\w'])(?P<head>until\s+the\s+\d{1,3}(?:st|nd|rd|th)\s+over)\s+(?:has\s+been|have\s+been|is|has)"
    r"\s+(?:bowled|completed|complete|done|finished|over)(?![\w'])"
)
# "before the total reaches 100", "before 150 is up": the score not yet there, as "before
# the 40th over" is the overs not yet there (a condition beside the trigger)
_BEFORE_SCORE = re.compile(
    r"\s*(?<![\w'])before\s+(?:(?:the\s+|our\s+)?(?:score|total)\s+(?:reaches|gets\s+to|passes|hits)"
    r"|we\s+(?:reach|pass|get\s+to|have\s+passed|have\s+reached|have\s+made|make))\s+"
    r"(?P<n>\d{1,3})(?:\s+runs)?(?![\w'])"
    r"|\s*(?<![\w'])before\s+(?P<m>\d{1,3})\s+(?:runs\s+)?(?:is|are|has\s+been|have\s+been)\s+"
    r"(?:up|reached|on\s+the\s+board|made|scored)"
    r"(?![\w'])"
)
# "notwithstanding anything above," opening a line (a complex preposition, Quirk 9.10): this
# order stands whatever another says, which is how every line of a mail is read; the phrase
# orders nothing. Only at the line's start: inside a line it may name a style the line then
# changes ("Smith, notwithstanding his defensive instructions, ..."), which stays refused.
# A few words, to a comma or to the next clause's first word (the line cleaner may have
# blanked the comma before "when"), never the order after it
_NOTWITHSTANDING = re.compile(
    r"^\s*notwithstanding\s+(?:anything|clause|the|his|any|my|what|that)(?![\w'])(?:\s+[\w'()]+){0,4}?"
    r"\s*(?:[,;:]\s*|(?=\s+(?:when|whenever|if|once|after|until|unless|should|before|from|in)(?![\w'])))"
)
# "from the 30th over forward": onwards
_FORWARD = re.compile(r"(?P<h>\d{1,3}(?:st|nd|rd|th)?(?:\s+overs?)?)\s+forwards?(?![\w'])")
# the passive of a change of side: "Stone to be rested" is "Stone is rested"
_TO_BE = re.compile(
    r"(?<=\w)\s+to\s+be\s+(?=(?:rested|dropped|omitted|left\s+out|recalled|picked|selected|benched)"
    r"(?![\w']))"
)
# "should more than 3 wickets fall", "if 4 or more wickets fall": an event, the wicket that
# passes the bound falling (a bound from below only: "fewer than 3 fall" is no moment)
_WICKETS_FALL = re.compile(
    r"(?<![\w'])(?:should\s+|if\s+)?(?:(?P<gt>more\s+than|in\s+excess\s+of)\s+(?P<a>\d)"
    r"|(?P<ge>at\s+least|no\s+fewer\s+than|not\s+fewer\s+than)\s+(?P<b>\d)"
    r"|(?P<c>\d)\s+or\s+more)\s+wickets\s+(?:should\s+)?(?:fall|go|are\s+lost)(?![\w'])"
)
# "but only until the total reaches 120": the focusing "only" on a time (Quirk 8.116)
# restricts the order to that time, which "until" says already
_ONLY_UNTIL = re.compile(r"\s*,?\s*(?<![\w'])(?:but\s+)?only\s+(?=until(?![\w']))")
# "in the event of Root being dismissed", "of the score reaching 200": the gerund clause
# after the complex preposition (Quirk 9.10, 15.x), read as the finite clause "if" takes
_BEING = re.compile(r"(?<![\w'])(?P<h>if\s+[a-z][\w' ]{0,30}?)\s+being(?![\w'])")
_GERUND = re.compile(
    r"(?<![\w'])(?P<h>if\s+(?:the\s+|our\s+)?(?:score|total|run\s+rate|required\s+rate|asking\s+rate))"
    r"\s+(?P<v>reaching|passing|exceeding|hitting)(?![\w'])"
)
_FINITE = {"reaching": "reaches", "passing": "passes", "exceeding": "exceeds", "hitting": "hits"}
# a score or rate that "exceeds" a number is more than it (the grammar's comparison)
_EXCEEDS = re.compile(r"(?<![\w'])(?P<q>score|total|rate)\s+(?:exceeds|is\s+exceeding)\s+(?=\d)")
# "until the fall of the 3rd wicket": until the 3rd wicket falls
_UNTIL_FALL = re.compile(
    r"(?<![\w'])until\s+the\s+fall\s+of\s+(?:the\s+)?(?P<n>\d{1,2}(?:st|nd|rd|th))\s+wicket(?![\w'])"
)
# a fronted "until" clause of an event ("until the 5th wicket falls, Root defensive", as
# "pending the fall of ..." reads): said after the order it ends, where the grammar has it
# (the overs' own form is _units.py's); only one order after it, so nothing else is bound
_FRONT_UNTIL = re.compile(
    r"^until\s+(?P<e>the\s+\d{1,2}(?:st|nd|rd|th)\s+wicket\s+falls)\s*,\s*(?P<rest>[^,;:]+)$"
)
_FOLLOWING = re.compile(r"(?<![\w'])(?<!the\s)following\s+(?=the\s|\d)")
# the drafter's "where" (= if) opening a clause, before what a condition can ask about: our
# side, the score, the rates, the overs or wickets; "where possible", "where the pitch is
# flat" are left as they were (a remark, passed with a note). "given (that)" the same: it is
# as often a reason ("given that the pitch is cracked") as a condition

_WHERE = re.compile(
    r"(?:^|(?<=[,;:]))(?P<sp>\s*)(?:where|given\s+that|given)\s+(?=(?:we|we're|we've|i|our|there|\d+|fewer|more|less|at|not|no"
    r"|the\s+(?:score|total|run|required|asking|\d)|[a-z]+\s+(?:is|are)\s+(?:still\s+)?(?:in|out|at))(?![\w']))"
)


def _bound(m: re.Match[str], quantity: str) -> str:
    op = next(_OPS[k] for k in _OPS if m.groupdict().get(k))
    said = f"{quantity} {op} {m.group('n')}"
    if not m.groupdict().get("with"):
        return said
    # Quirk 15.53, a "with" clause of circumstance: a condition, joined to one before it
    before = re.split(r"[,;:]", m.string[: m.start()])[-1]
    return f" and {said}" if re.search(r"(?<![\w'])if(?![\w'])", before) else f", if {said}"


def _should(m: re.Match[str], lead: str, word: str) -> str:
    """ "should the score be" (or "if the score should be"): "if the score is"."""
    subj, verb = m.group("subj"), m.group("verb")
    if subj in ("we", "i"):
        return f"{lead}{word} we {'are' if verb == 'be' else verb}"
    return f"{lead}{word} {subj} {_THIRD.get(verb, verb + 's')}"


def _wickets_fall(m: re.Match[str]) -> str:
    n = int(m.group("a")) + 1 if m.group("gt") else int(m.group("b") or m.group("c"))
    return f"when the {n}{_SUFFIX.get(n, 'th')} wicket falls"


_SUFFIX = {1: "st", 2: "nd", 3: "rd"}


def _end_of(m: re.Match[str]) -> str:
    n = m.group("a") or m.group("b")
    return f"before {n} overs" if m.group("word") == "before" else f"after {n} overs"


def _between(m: re.Match[str]) -> str:
    unit = "overs " if (m.group("unit") or "").startswith("over") or m.group("over") else ""
    return f"{unit}{m.group('a')} to {m.group('b')}"


def _word(m: re.Match[str]) -> str:
    found = m.group(0)
    plain = FORMAL_WORDS[found]
    ahead = _ORDINAL_AHEAD if found in _UNTIL_ORDINAL else _OVER_AHEAD
    if found in _UNTIL_ONLY_BEFORE_OVERS and not ahead.match(m.string, m.end()):
        return found  # "to the end of the innings": the lexicon's own phrase, read after
    if found == "shall" and _BE_AHEAD.match(m.string, m.end()):
        return found  # "the XI shall be": the team sheet's own words
    return plain


# "thereafter" follows a span that ends ("until 45 overs", "for the first 10"): with none
# before it there is nothing to follow, and "then" would be read as no time at all, so the
# word is left for the clauses' reader to refuse by name ("Root defensive; Stokes aggressive
# thereafter": after what?)
_SPAN_BEFORE = re.compile(
    r"(?<![\w'])(?:until|till|til|up\s+to|through|for\s+the\s+(?:first|opening|next)|to\s+the)"
    r"(?![\w'])"
)


def _thereafter(m: re.Match[str]) -> str:
    if not _SPAN_BEFORE.search(m.string, 0, m.start()):
        return m.group(0)
    return f", then {m.group('x')}"


# Each step with a word its pattern cannot match without, to skip it cheaply on a line that
# lacks the word (most lines lack most of them); in this order, as each reads the last's text.
_STEPS: tuple[tuple[tuple[str, ...], re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (("notwithstanding",), _NOTWITHSTANDING, lambda m: ""),
    (("between",), _BETWEEN, _between),
    (("end of",), _END_OF, _end_of),
    (("thereafter", "thenceforth"), _THEREAFTER, lambda m: _thereafter(m)),
    (("following",), _FOLLOWING, lambda m: "after "),
    (("only",), _ONLY_UNTIL, lambda m: " "),
    (("forward",), _FORWARD, lambda m: f"{m.group('h')} onwards"),
    (("to be",), _TO_BE, lambda m: " is "),
    (("fall", "go", "lost"), _WICKETS_FALL, _wickets_fall),
    (("begun", "start", "commenced", "way"), _BEGUN, lambda m: m.group("head")),
    (("rather", "instead"), _RATHER, lambda m: m.group("style")),
    (("",), _WORDS, _word),  # its phrases start with common words: no cheap cue
    (("where", "given"), _WHERE, lambda m: f"{m.group('sp')}if "),
    (("until",), _DONE, lambda m: m.group("head")),
    (("and",), _IF_AND_WHEN, lambda m: "when"),
    (("should",), _SHOULD, lambda m: _should(m, m.group("pre"), "if")),
    (("should",), _IF_SHOULD, lambda m: _should(m, "", m.group("pre"))),
    (("lost",), _LOST, lambda m: _bound(m, "wickets")),
    (("lost",), _LOST_OR, lambda m: _bound(m, "wickets")),
    (("unless",), _UNLESS_DOWN, lambda m: "unless " + _bound(m, "wickets")),
    (("hand", "left", "remain"), _IN_HAND, lambda m: _bound(m, "wickets in hand")),
    (
        ("down", "fallen", "lost", "gone"),
        _FALLEN,
        lambda m: _bound(m, "wickets"),
    ),
    (("before",), _BEFORE_SCORE, lambda m: f", if score < {m.group('n') or m.group('m')}"),
    (("falling",), _FALLING, lambda m: f"{m.group('w')} falls"),
    (("being",), _BEING, lambda m: f"{m.group('h')} is"),
    (("ing",), _GERUND, lambda m: f"{m.group('h')} {_FINITE[m.group('v')]}"),
    (("exceed",), _EXCEEDS, lambda m: f"{m.group('q')} is more than "),
    (("fall of",), _UNTIL_FALL, lambda m: f"until the {m.group('n')} wicket falls"),
    (("until",), _FRONT_UNTIL, lambda m: f"{m.group('rest')} until {m.group('e')}"),
    # "Stokes aggressive, save where ...": the comma before the exception joins it to the
    # order it limits, as the line cleaner does for "if" and "until"
    (("unless",), _COMMA_UNLESS, lambda m: " unless "),
)


def formal(text: str) -> str:
    """``text`` (lower case, numbers in digits) with the formal register's words in the
    orders' plain words (see the module)."""
    for cues, pattern, repl in _STEPS:
        if any(c in text for c in cues):
            text = pattern.sub(repl, text)
    return re.sub(r"\s{2,}", " ", text).strip()

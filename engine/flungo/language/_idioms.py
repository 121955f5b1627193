"""Idioms of change and counting: "drops to normal", "step it up", "the 25-over mark".

Read for a line the canonical orders do not read, before its styles (see ``_meaning.reword``).
The words are data, the lexicon's ``[idioms]`` section (its sources are named there); what is
done here is structure:

- a verb of change before "to" and a style ("up it to aggressive", "drops to normal", "go
  back to normal") says the style: the verb goes, the style stays;
- a step with no style named ("step it up", "down a gear", "ease off") is one step of the
  ladder defensive < normal < aggressive < wahoo from the style in force, where the line
  says it (one style written before the step, for everyone it names); where it does not,
  each step is a reading, and the answer shows them all and acts on none;
- an exceptive preposition ("excluding", "barring", "aside from") is "except";
- "the 25-over mark" is after 25 overs, "halfway" after half the innings's overs ("before
  halfway": before them, "until halfway": until them).

The decisions are in docs/rules/orders-idioms.md.
"""

from __future__ import annotations

import importlib.resources
import re
import tomllib

from engine.flungo.language._forks import fork, forked
from engine.flungo.language._inflect import inflected

# forked: the readings the steps make, for _meaning in one import
__all__ = ["change_and_count", "forked", "ladder_steps"]

LADDER = ("defensive", "normal", "aggressive", "wahoo")
_STYLE = r"(?:defensive|normal|aggressive|wahoo)"


def _load() -> dict[str, list[str]]:
    text = importlib.resources.files(__package__).joinpath("lexicon.toml").read_text("utf-8")
    data = tomllib.loads(text)
    return {k: list(v) for k, v in data["idioms"].items()}


def _phrases(entries: list[str], fixed: frozenset[str] = frozenset()) -> str:
    """An alternation of the entries and their verbs' inflected forms, longest first."""
    forms = {f for e in entries for f in (e, *inflected(e, fixed))}
    return "|".join(re.escape(f) for f in sorted(forms, key=lambda f: (-len(f), f)))


_DATA = _load()
_CHANGE_TO = re.compile(
    rf"(?<![\w'])(?:{_phrases(_DATA['change_to'])})\s+to\s+(?:be\s+)?(?={_STYLE}(?![\w']))"
)
_UP = re.compile(rf"(?<![\w'])(?:{_phrases(_DATA['step_up'])})(?![\w'])")
_DOWN = re.compile(rf"(?<![\w'])(?:{_phrases(_DATA['step_down'])})(?![\w'])")
_EXCEPT = re.compile(rf"(?<![\w'])(?:{_phrases(_DATA['except'])})\s+(?=[a-z])")
# a word every entry of a pass holds, to skip the pass cheaply
_EXCEPT_CUES = (
    "except",
    "exclud",
    "barring",
    "save for",
    "aside",
    "leaving out",
    "counting",
    "bar for",
)
_STEP_CUES = ("up", "down", "off", "back", "easy", "rein")
_SAID = re.compile(rf"(?<![\w']){_STYLE}(?![\w'])")
_PREP = r"(?:(?P<prep>at|by|after|from|before|until|till)\s+)?(?:the\s+)?"
_MARK = re.compile(
    rf"(?<![\w']){_PREP}(?P<n>\d{{1,3}})(?:\s*-\s*|\s+)overs?\s+(?:{'|'.join(_DATA['mark'])})"
    r"(?![\w'])"
)
_HALF = re.compile(
    rf"(?<![\w']){_PREP}(?:{_phrases(_DATA['halfway'])})(?:\s+(?:stage|point|mark))?(?![\w'])"
)


# "with 6 wickets in hand", "if we've still got 7 in hand", "6+ wkts in hand": wickets in hand
# are ten less the wickets down (an innings has ten), so "at least N in hand" is "N or fewer
# in hand" turned round; "in hand" says wickets, with the word or without it
_IN_HAND = re.compile(
    r"(?<![\w'])(?:(?:if|with|and)\s+)?(?:we(?:\s+have|'ve)\s+)?(?:still\s+)?(?:got\s+)?"
    r"(?:still\s+)?(?P<cmp>at\s+least|more\s+than|fewer\s+than|less\s+than|under|over)?\s*"
    r"(?P<n>\d{1,2})(?P<tail>\s+or\s+(?:more|fewer|less))?\s+(?:wickets?\s+)?(?:still\s+)?"
    r"in\s+hand(?![\w'])"
)
_HAND_OPS = {
    "more than": "<",
    "over": "<",
    "fewer than": ">",
    "less than": ">",
    "under": ">",
    " or fewer": ">=",
    " or less": ">=",
}


def _in_hand(m: re.Match[str]) -> str:
    """ "with 6 wickets in hand" -> "if wickets <= 4"."""
    n = int(m.group("n"))
    if n > 10:
        return m.group(0)
    said = re.sub(r"\s+", " ", m.group("cmp") or "") or re.sub(r"\s+", " ", m.group("tail") or "")
    op = _HAND_OPS.get(said, _HAND_OPS.get(f" {said.strip()}", "<="))
    return f"if wickets {op} {10 - n}"


def _when(m: re.Match[str], n: int) -> str:
    prep = m.group("prep") or ""
    if prep == "before":
        return f"before {n} overs"
    if prep in ("until", "till"):
        return f"until {n} overs"
    return f"after {n} overs"


def _step(text: str, m: re.Match[str], by: int) -> str:
    """The style one step ``by`` from the style the line says before ``m``, or each; where
    a style is written after it ("go up a gear. Aggressive."), the step says it again."""
    if _SAID.search(text, m.end()):
        return " "
    said = set(_SAID.findall(text[: m.start()]))
    if len(said) == 1:
        at = LADDER.index(said.pop()) + by
        return LADDER[at] if 0 <= at < len(LADDER) else m.group(0)  # no step past the ends
    steps = LADDER[1:] if by > 0 else LADDER[:-1]
    return fork(*steps)


def change_and_count(text: str, overs: int) -> str:
    """``text`` (lower case) with its verbs of change, exceptives and counting idioms in the
    canonical words (first, before the line's clauses are weighed)."""
    # each pass only where its words are (a line read for meaning pays for none it lacks)
    if " to " in text and _SAID.search(text):
        text = _CHANGE_TO.sub("", text)
    if any(w in text for w in _EXCEPT_CUES):
        text = _EXCEPT.sub("except ", text)
    if "over" in text and any(w in text for w in _DATA["mark"]):
        text = _MARK.sub(lambda m: _when(m, int(m.group("n"))), text)
    if "in hand" in text:
        text = _IN_HAND.sub(_in_hand, text)
    if "half" in text or "midway" in text:
        text = _HALF.sub(lambda m: _when(m, overs // 2), text)
    return text


def ladder_steps(text: str) -> str:
    """``text`` with each step of the ladder as the style it comes to, or marked with each
    (last, when the line is in canonical words, so the readings reach :func:`forked`)."""
    if not any(w in text for w in _STEP_CUES):
        return text
    for pattern, by in ((_UP, 1), (_DOWN, -1)):
        at = 0
        while (m := pattern.search(text, at)) is not None:
            said = _step(text, m, by)
            text = text[: m.start()] + said + text[m.end() :]
            at = m.start() + len(said)
    return text

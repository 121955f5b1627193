"""Tags a fan writes on a line beside its order: the format it is for, a scorecard's marks.

"T20: Root aggressive", "ODI - ...", "Flintoff at 5 in the ODI": the line says which match
it is for. Where that is the match being read, the tag says nothing more and goes; where it
is another ("T20:" in a 50-over match), the line is for another match and is never read for
this one (issue 24: a wrong reading is worse than a refusal). "Root (c)", "Wilson (wk)":
the captain and the keeper, as a scorecard marks them.
"""

from __future__ import annotations

import re

from engine.flungo.language._model import quoted

#: What a line tagged for the other match is refused with (the suggestion of a nearer
#: reading is never offered for it: leaving the tag out would act on it in this match).
FOR_ANOTHER_MATCH = "says this line is for another match"

__all__ = ["FORMAT_IN", "FORMAT_LEAD", "markers", "other_format"]

# A format's names (issue 24, shorthand): scorecards' "T20", "T20I", "ODI", "50 ov", and
# the words fans use, "one-dayer", "the shorter game", "the longer format".
_CORE = (
    r"(?:t[\s-]?20i?|odi|twenty[\s-]?20|20[/-]20|one[\s-]?day(?:er|\s+game|\s+match)?|"
    r"(?:short|shorter|long|longer)\s+(?:format|game|one|match)|"
    r"(?:20|40|50|twenty|forty|fifty)[\s-]*(?:overs?|ovr|ov))"
)
_NAME = rf"(?:{_CORE}(?:\s+(?:game|match|one|1|format))?)"
# A line for every match ("both games:", "T20 & ODI -", "all formats"): it names no other.
_EVERY = (
    rf"(?:both\s+(?:games|matches|formats)|all\s+(?:games|matches|formats)|"
    rf"(?:the\s+)?{_NAME}\s*(?:and|&|/|\+)\s*(?:the\s+)?{_NAME})"
)
FORMAT_LEAD = re.compile(
    rf"^(?:for\s+|in\s+)?(?:the\s+)?(?:(?P<every>{_EVERY})|[(\[]?{_NAME}[)\]]?"
    r"(?:\s+(?:game|match|mein|format|one|1))?)(?:\s+only)?\s*(?:[:,-]\s*|\s+)"
)
# The match named inside or at the end of a line ("Stokes skippers the 20 over one", "Flintoff
# at 5 in the ODI", "Root aggressive (T20)"): the mail says which match it is.
FORMAT_IN = re.compile(
    r"\s*(?<![\w'])(?:(?:for\s+|in\s+)?the\s+(?:(?:20|40|50|twenty|forty|fifty)[\s-]*(?:overs?|ovr)\s+"
    r"(?:game|match|one|1|format)|t20i?|odi|twenty20|one[\s-]?dayer|(?:short|shorter|long|longer)\s+"
    r"(?:format|game|one))|[(\[](?:t[\s-]?20i?|odi|twenty[\s-]?20|20[/-]20|one[\s-]?dayer)[)\]])"
    r"(?:\s+only)?(?![\w'])"
)
# what each name says of the overs: a number, or "long" (any match longer than a Twenty20)
_TAG_OVERS: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"t[\s-]?20|twenty|20|short"), 20),
    (re.compile(r"forty|40"), 40),
    (re.compile(r"odi|fifty|50"), 50),
    (re.compile(r"one[\s-]?day|long"), 0),
)
_TAG_WORD = re.compile(_CORE)


def other_format(text: str, overs: int) -> str:
    """The format ``text`` names ("T20:", "in the ODI") where it is not the match's, as
    written (lower case); "" where it names none or the match's own. Such a line is for
    another match of the writer's, and is never read for this one."""
    for tag in (FORMAT_LEAD.match(text), FORMAT_IN.search(text)):
        if tag is None or tag.groupdict().get("every"):
            continue
        said = next((n for p, n in _TAG_OVERS if p.search(tag.group(0))), overs)
        if said == 0:
            said = overs if overs > 20 else 0  # "one-dayer", "the longer game": not a T20
        if said != overs and (word := _TAG_WORD.search(tag.group(0))):
            return word.group(0)
    return ""


# A scorecard's marks after a name: "Root (c)", "Wilson (wk)"; where the line says the role
# in words as well ("captain root (c)"), the mark says it again.
_MARK = re.compile(r"\s*\((?P<m>c|capt|wk)\)(?![\w'])")
_ROLE_SAID = {
    "captain": re.compile(r"(?<![\w'])(?:captain|capt|skipper|skip|captains)(?![\w'])"),
    "keeper": re.compile(r"(?<![\w'/])(?:wicketkeeper|keeper|keeps|wk|w/k)(?![\w'])"),
}


# the name a mark follows: the words from the clause's start, one to three of them
_MARKED = re.compile(r"(?:^|(?<=[,;:]))\s*(?P<name>[\w'.]+(?:\s+[\w'.]+){0,2})\s*$")


def markers(text: str) -> str:
    """``text`` with a scorecard's marks read as the roles they mark ("root captain"). A
    mark with an order after it ("root (c) to bat aggressive") is said as its own clause
    at the line's end ("root to bat aggressive, root captain"), so both are read."""
    if "(" not in text:
        return text
    unmarked = _MARK.sub(" ", text)
    tail: list[str] = []

    def repl(m: re.Match[str]) -> str:
        role = "keeper" if m.group("m") == "wk" else "captain"
        if _ROLE_SAID[role].search(unmarked):
            return ""
        more = re.match(r"\s*[a-z]", text[m.end() :])
        name = _MARKED.search(text, 0, m.start())
        if more and name:
            tail.append(f"{name.group('name')} {role}")
            return ""
        return f" {role}"

    out = _MARK.sub(repl, text)
    return ", ".join([out, *tail]) if tail else out


def names_lead_tag(message: str, line: str) -> bool:
    """Whether an error's quoted word is the line's own leading format tag ("unknown order
    'T20'" for "T20: everyone aggressive ..."): the tag is read, so the error to give the
    player is where the rest of the line stops, not the tag."""
    m = FORMAT_LEAD.match(line.lower().lstrip("-*• ") + " ")
    if m is None:
        return False
    tag = m.group(0).lower()
    return any(q.lower() in tag for q in quoted(message))

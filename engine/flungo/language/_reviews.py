"""Reviews as fans write them ("Batting, only burn a review for the top 6. Tail can walk.",
"reviews: use them on every lbw when we bowl"): whose side, and for whom.

The words that carry a review order are few: the side (batting, bowling, "when we bowl"),
whom it is for (the top so many, "not the last 3", squad members named after "only"), or
everyone or no one. They are found wherever they stand; the rest of the line passes. A line
that says when ("till over 45", "after that") or leaves a doubt is not read here, and the
canonical reader says what it cannot read.
"""

from __future__ import annotations

import re

__all__ = ["reviews_line"]

XI_SIZE = 11  # "not for our last 3" is for the top 8 of the eleven

_REVIEW = re.compile(r"(?<![\w'])(?:reviews?|drs)(?![\w'])")
_TIMED = re.compile(r"(?<![\w'])(?:until|till|after|before|unless|except|once|if)(?![\w'])")
_BOWLING = re.compile(r"(?<![\w'])(?:bowling|we\s+bowl|bowl|in\s+the\s+field|fielding)(?![\w'])")
_BATTING = re.compile(r"(?<![\w'])(?:batting|we\s+bat|bat)(?![\w'])")
_NOT = r"(?:not|don't|dont|no|never)"
_LAST = re.compile(_NOT + r"\b.*?\b(?:the|our)\s+last\s+(?P<n>\d{1,2})(?![\w'])")
_TOP = re.compile(r"(?<![\w'])top\s+(?P<n>\d{1,2})(?![\w'])")
_ALL = re.compile(r"(?<![\w'])(?:all|any|every|both|always|use\s+them|go\s+for\s+it)(?![\w'])")
# A number of reviews, or some kept back ("keep one review back", "only use the first one on
# anyone else"): the model has no count of reviews, so the line is not read here.
_COUNTED = re.compile(
    r"(?<![\w'])(?:keep|keeping|save|saving|hold|holding|spare|back|first|second)(?![\w'])"
)
_NEVER = re.compile(r"(?<![\w'])(?:none|never|no\s+reviews?|don't\s+review|dont\s+review)(?![\w'])")


def reviews_line(text: str, runs: list[str]) -> str | None:
    """The canonical review order ``text`` gives, or ``None`` when it is no review order or
    is one this cannot read whole. ``runs``: the squad names it writes, in order."""
    if not _REVIEW.search(text) or _TIMED.search(text) or _COUNTED.search(text):
        return None
    bowling, batting = bool(_BOWLING.search(text)), bool(_BATTING.search(text))
    if bowling and batting:
        return None  # "bat" and "bowl" both: which side is not for pbm to guess
    side = "bowling " if bowling else "batting " if batting else ""
    if (last := _LAST.search(text)) is not None and 0 < int(last.group("n")) < XI_SIZE:
        return f"{side}reviews: only for the top {XI_SIZE - int(last.group('n'))}"
    if (top := _TOP.search(text)) is not None:
        return f"{side}reviews: only for the top {top.group('n')}"
    if runs and re.search(r"(?<![\w'])(?:only|just)(?![\w'])", text):
        if re.search(r"(?<![\w'])" + _NOT + r"(?![\w'])", text.split(runs[-1], 1)[0]):
            return None  # a name after a "not" before it: for or against him?
        return f"{side}reviews: only for {', '.join(runs)}"
    if runs:
        return None
    said_all, said_never = bool(_ALL.search(text)), bool(_NEVER.search(text))
    if said_all == said_never:
        return None
    return f"{side}reviews: {'all' if said_all else 'none'}"

"""What in a mail is no order: quoted and forwarded text, greetings, a signature, remarks.

Such lines are noted in the reply and never cost an order. The test for a remark is kept
narrow on purpose: a line is only chatter if nothing in it looks like an order, a squad
member or a number, so a mistyped order still gets its error.
"""

from __future__ import annotations

import difflib
import re

from engine.flungo.language._caseless import Caseless
from engine.flungo.language._grammar import by_grammar
from engine.flungo.language._names import NameBook
from engine.flungo.language._reader import kept

__all__ = [
    "forwarded_from",
    "is_quoted",
    "looks_like_chatter",
    "number_words",
]

_QUOTED = re.compile(r"^\s{0,3}>")
_FORWARD = re.compile(
    r"^\s*(?:-{2,}\s*(?:forwarded message|original message|weitergeleitete nachricht"
    r"|message transféré|mensaje reenviado)\s*-{2,}|begin forwarded message:"
    r"|-{5,}\s*$|_{10,}\s*$)",
    re.IGNORECASE,
)
_ATTRIBUTION = re.compile(r"^\s*On\b.{0,200}\bwrote:\s*$", re.IGNORECASE)


def is_quoted(raw: str) -> bool:
    """A ``>`` line (quoted from another mail) or an "On ... wrote:" line."""
    return bool(_QUOTED.match(raw) or _ATTRIBUTION.match(raw))


def forwarded_from(lines: list[str]) -> int | None:
    """The 0-based index of the line where a forwarded or quoted original begins, if any."""
    for i, raw in enumerate(lines):
        if _FORWARD.match(raw):
            return i
    return None


# Words common in sentences and in orders alike: they say nothing about a line being an order.
_COMMON = frozenset(
    [
        "i",
        "we",
        "the",
        "a",
        "an",
        "and",
        "to",
        "is",
        "are",
        "in",
        "it",
        "for",
        "on",
        "of",
        "my",
        "our",
        "at",
        "be",
        "will",
        "so",
        "as",
        "with",
        "this",
        "that",
        "have",
        "has",
        "now",
        "no",
        "yes",
        "ok",
        "okay",
        "all",
        "but",
        "then",
        "up",
        "out",
        "off",
        "new",
        "one",
        "me",
        "you",
        "your",
        "us",
        "here",
        "there",
        "just",
        "think",
        "thanks",
        "thank",
        "fixed",
        "sorry",
        "again",
        "hope",
        "see",
        "soon",
        "good",
        "luck",
        "cheers",
        "hi",
        "hello",
        "hey",
        "dear",
        "many",
        "much",
        "lot",
        "lots",
        "best",
        "regards",
        "mate",
        "guys",
        "gm",
        "team",
        "checking",
        "week",
        "changes",
    ]
)
_WORD = re.compile(r"[^\W\d_][\w'’]*")
_CLITIC = re.compile(r"['’](?:s|d|ll|ve|re)$")
_THANKED = frozenset({"everyone", "everybody"})
# "no treatment needed", "no changes this week": nothing to do, so nothing to read
_NOTHING = re.compile(
    r"^(?:no|nothing)\s+(?:treatments?|injuries|boosts?|changes?|training|to\s+treat)"
    r"(?:\s+(?:needed|required|necessary|this\s+(?:time|week|turn|match)))?$",
    re.IGNORECASE,
)


@by_grammar
def _meaningful(keywords: frozenset[str]) -> list[str]:
    """The order words a remark's words are compared with, sorted once per grammar (a sort
    of some hundreds of words for every greeting and sign-off was a percent of a mail)."""
    return sorted(keywords - _COMMON)


def names_an_order(text: str, own_words: frozenset[str], keywords: frozenset[str]) -> bool:
    """Whether ``text`` names one of our squad (a word of a name, as written) and a word of
    the orders ("Thank you GM for the report - and please, Jimmy bowls the 15th over"):
    a line that starts with thanks and holds both goes on to say something, and is no
    sign-off. The other side's names ("Best of luck to Viv and Lara") and a name with no
    word of an order ("ring us at the Black Bull") leave it one."""
    # "Freddie's batting wahoo": a name with its "'s" (is, has, possessive) is the name
    words = [_CLITIC.sub("", w.lower()) for w in _WORD.findall(text)]
    if not any(w in own_words for w in words):
        return False
    # "everyone" is whom a thanks is said to ("Thanks to everyone, Freddie's a legend")
    return any(w in keywords and w not in _COMMON and w not in _THANKED for w in words)


def looks_like_chatter(text: str, own: NameBook, keywords: frozenset[str]) -> bool:
    """Whether a line that did not read as an order is a remark ("ok fixed i think", "bob").

    Not if it has a digit, a word of the orders (or one close to it), or a word that could
    be a squad member's name.
    """
    if _NOTHING.match(text):
        return True
    if text.rstrip().endswith("?"):
        return True  # a question for the GM: noted in the reply, never an order
    if any(ch.isdigit() for ch in text) or len(text) > 80:
        return False
    words = [w.lower() for w in _WORD.findall(text)]
    if not words or len(words) > 10:
        return False
    meaningful = _meaningful(keywords)
    for w in words:
        if w in _COMMON:
            continue
        if w in keywords:
            return False
        if len(w) >= 4 and difflib.get_close_matches(w, meaningful, 1, 0.8):
            return False
        if len(w) >= 3 and own.candidates(w):
            return False
    return True


_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_ORDINALS = {
    "eleventh": 11,
    "twelfth": 12,
    "fifteenth": 15,
    "twentieth": 20,
    "thirtieth": 30,
    "fortieth": 40,
}
_SMALL = "|".join(sorted(_UNITS, key=len, reverse=True))
_TEN = "|".join(_TENS)
_NUMBER_WORDS = re.compile(
    rf"(?<![\w\ue000-\ue8ff])(?:(?:(?:a|one)\s+)?hundred(?:\s+and\s+(?:(?:{_TEN})(?:[\s-](?:{_SMALL}))?|{_SMALL}))?"
    rf"|(?:{_TEN})(?:[\s-](?:{_SMALL}))?|{_SMALL}|" + "|".join(_ORDINALS) + r")(?![\w'’-])",
    re.IGNORECASE,
)
_NUMBER_FOUND = Caseless(_NUMBER_WORDS)


def _value(words: str) -> int:
    w = words.lower().replace("-", " ").split()
    total = 0
    for word in w:
        if word == "hundred":
            total = 100
        elif word in _TENS:
            total += _TENS[word]
        elif word in _UNITS:
            total += _UNITS[word]
    return total


_LETTER = re.compile(r"[a-z]", re.IGNORECASE)
# The words each number word has one of ("fourteen" has "four"): an ASCII line with none
# of them has no number word (a look for each is quicker than the regex's lookbehind at
# every character). Masked names' tokens have no case; other lines are left to the regex
# (re's caseless matching has its own ideas: the Kelvin sign is a "k").
_NOT_ASCII = re.compile(r"[^\x00-\x7f\ue000-\ue8ff]")
_ALL_WORDS = [*_UNITS, *_TENS, "hundred", *_ORDINALS]
_KEY_WORDS = tuple(w for w in _ALL_WORDS if not any(k != w and k in w for k in _ALL_WORDS))
# one look for them all (a number word is in few lines; every masked line is asked)
_KEY_WORD = re.compile("|".join(re.escape(w) for w in _KEY_WORDS))


@kept(maxsize=4096)
def number_words(text: str) -> str:
    """Numbers written as words ("twenty", "a hundred and fifty") as digits, padded with
    spaces to the same length, so every column stays where the player wrote it.

    Remembered: it reads the masked line, which a turn's mails have alike.
    """
    if not _LETTER.search(text):
        return text
    if text.isascii() or _NOT_ASCII.search(text) is None:
        lower = text.lower()
        if _KEY_WORD.search(lower) is None or _NUMBER_FOUND.lower.search(lower) is None:
            return text  # (a key word inside another, "often", "someone": no number word)

    def repl(m: re.Match[str]) -> str:
        word = m.group(0)
        lower = word.lower()
        out = f"{_ORDINALS[lower]}th" if lower in _ORDINALS else str(_value(word))
        if len(out) > len(word):
            return word
        return out + " " * (len(word) - len(out))

    return _NUMBER_WORDS.sub(repl, text)

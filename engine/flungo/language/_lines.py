"""Reading the email line by line before the grammar sees it.

Cleaning keeps every character where it was (only the ends of a line are trimmed and some
characters blanked), so a column in the cleaned text is a column in the player's line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import Span
from engine.flungo.language._model import MAX_LINE_LENGTH, NAME_MAX_LENGTH
from engine.flungo.language._names import strip_marks
from engine.flungo.language._near import nearest
from engine.flungo.language._reader import kept
from engine.lookalike import invisible

__all__ = [
    "CHATTER_WORDS",
    "CleanLine",
    "FreeText",
    "check_name",
    "clean_line",
    "mask_names",
    "mask_near_miss",
    "match_free_text",
    "needs_mask",
]

# Lines whose first word is one of these are greetings or sign-offs and are skipped silently.
# Any other line that is not an order is reported, so a mistyped order is never lost.
CHATTER_WORDS = frozenset(
    [
        "hi",
        "hello",
        "hey",
        "hiya",
        "dear",
        "greetings",
        "thanks",
        "thank",
        "thx",
        "cheers",
        "regards",
        "best",
        "yours",
        "sincerely",
        "kind",
        "warm",
        "love",
        "ta",
        "bye",
        "goodbye",
        "ps",
        "p.s.",
        "sent",
        "here",
        "here's",
        "please",
        "attached",
    ]
)
# Of those, the words that sign an email off: lines after one that are not orders are taken to
# be the signature and skipped silently (lines after it that are orders still count).
SIGN_OFF_WORDS = frozenset(
    [
        "thanks",
        "thank",
        "thx",
        "cheers",
        "regards",
        "best",
        "yours",
        "sincerely",
        "kind",
        "warm",
        "love",
        "ta",
        "bye",
        "goodbye",
    ]
)


# the patterns a line is read with, compiled once (re's own cache costs a look-up a call)
_SIGN_OFF_SPLIT = re.compile(r"[\s,:;!.]+")
_SIGN_OFF_LONGEST = 5  # words: "Thanks again and good luck, Dave"
_FIRST_SPLIT = re.compile(r"[\s,:;!]+")
_SPACES = re.compile(r"\s+")
_LIST_MARK = re.compile(r"[,;/]")


def is_sign_off(raw: str, names: Callable[[str], bool] | None = None) -> bool:
    """Whether ``raw`` signs the email off ("Thanks,", "Regards", a "-- " signature line).

    A sign-off is short, the word and a name ("Cheers, Dave Smith"). A longer line that starts
    with thanks and names a squad member (``names``) goes on to say something ("Thank you GM
    for the report - and please, Freddie stays captain"): it is read as any other line, and
    what follows it is not taken for a signature."""
    text = raw.strip()
    if text in ("--", "-- ", "—"):
        return True
    low = text.lower()
    # the first word alone first: most lines start with no sign-off word (the separators
    # are runs, so an empty piece can only be the first one, or the last)
    head = [w for w in _SIGN_OFF_SPLIT.split(low, maxsplit=2)[:2] if w]
    if not head or head[0] not in SIGN_OFF_WORDS:
        return False
    words = [w for w in _SIGN_OFF_SPLIT.split(low) if w]
    return len(words) <= _SIGN_OFF_LONGEST or names is None or not names(text)


# Bullets (nested ones too, "- * "), numbers ("1.", "2)", "#3") and letters with a bracket
# ("a)", "(b)"; not "a." which is an initial: "J. Root").
# Bullets and numbering of any kind (issue 24, shorthand): "-", "•", "→", "1.", "1)", "(a)",
# "ii.", "(iv)", "#1", "No. 1:" (a number with its own stop; "No. 4 Root" is his place).
_BULLET = re.compile(
    r"^\s*(?:(?:[-*•·‣▪◦–—>+→⇒»►▸✓✔]+\s*)+|\(?\d{1,3}[.):](?=\s|$)\s*|\(?[a-z]\)\s+|"
    r"\(?(?:i{1,3}|iv|vi{0,3}|ix|x)[.)]\s+|#\d{1,3}\s+|no\.?\s*\d{1,3}[.):]\s+)",
    re.IGNORECASE,
)
# A title over the orders ("Orders for match 3", "My orders v the Blobs"): skipped.
_TITLE = re.compile(r"^(?:my\s+|our\s+)?orders\s+(?:for|v|vs\.?|versus|against)\b", re.I)
_PLEASE = re.compile(r"^please\s+", re.IGNORECASE)
_END = re.compile(r"[\s.!]+$")
# A comma or semicolon before a word that starts a new part of a sentence only separates.
_JOINER = re.compile(
    r"[,;](?=\s*(?:but|until|if|when|once|then|provided|as long as|as soon as|after|"
    r"at the fall|at drinks|at the drinks|whenever)\b)",
    re.IGNORECASE,
)
# The comma of "Root defensive, back to normal once 30 overs are done" begins a new clause,
# as "but" would: the grammar's "⁏" (one character for one, so columns stay where they were).
_BACK = re.compile(
    r"[,;](?=\s*(?:then\s+)?(?:go\s+back|going\s+back|back|revert|reverting|return|returning)"
    r"\s+to\b)",
    re.IGNORECASE,
)
# Typographic marks a mail program puts in, one for one (so columns stay where they were).
_PLAIN = str.maketrans({"’": "'", "‘": "'", "—": "-", "‐": "-", "‑": "-", "−": "-"})
_NAMEWORD = re.compile(r"[^\W\d_][\w.'’\-&]*")
_ALNUM = re.compile(r"[^\W_]")  # str.isalnum, as re's \w is it or "_"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")


@dataclass(frozen=True, slots=True)
class CleanLine:
    """A line ready for parsing; ``text[i]`` is the player's column ``offset + i + 1``."""

    number: int
    raw: str
    text: str
    offset: int
    plain: str  # the text before the final full stop and commas were taken away
    chatter: bool = False  # starts with a greeting word: skipped silently unless it is an order
    # The player's columns (start, end) of the words ``text`` rewords, when ``text`` is a
    # reading in canonical words and not theirs: an index into it is no column of theirs.
    said: tuple[int, int] | None = None

    def span(self, start: int, end: int) -> Span:
        """Where ``text[start:end]`` is in the player's line: the words it rewords, whole,
        when ``text`` is not the player's own (a caret under "T20: everyone wah" for an
        error in "all batsmen wahoo" would point at words that are not the fault)."""
        if self.said is not None:
            return Span(self.number, *self.said)
        return Span(self.number, self.column(start), self.column(max(end, start + 1)))

    def column(self, index: int) -> int:
        """The 1-based column in the player's line of ``text[index]`` (a heading put in for the
        player's words, as for "new batting order:", may start before the line: column 1)."""
        return max(self.offset + index + 1, 1)


@kept(maxsize=16384)
def clean_line(number: int, raw: str) -> CleanLine | None:
    """Strip bullets, numbering, "please" and a final full stop; ``None`` for a line to skip.

    Skipped: blank lines, lines of punctuation only and ``#`` or ``//`` comments. A line that
    starts with a greeting or sign-off word (:data:`CHATTER_WORDS`) is marked ``chatter``: it
    is skipped silently unless it reads as an order ("Best Man bowls overs 1-4").
    """
    if len(raw) > MAX_LINE_LENGTH * 4:
        raw = raw[: MAX_LINE_LENGTH * 4]  # the caller reports it as too long anyway
    m = _BULLET.match(raw)
    start = m.end() if m else 0
    body = raw[start:]
    lead = len(body) - len(body.lstrip())
    start += lead
    body = body.strip()
    if not body or _ALNUM.search(body) is None:
        return None
    if body.startswith(("#", "//")) or _TITLE.match(body):
        return None
    first = _FIRST_SPLIT.split(body, maxsplit=1)[0].lower()
    chatter = first in CHATTER_WORDS
    p = _PLEASE.match(body)
    if p:
        start += p.end()
        body = body[p.end() :]
    plain = body
    body = strip_end(body)
    if not body.isascii():  # every mark _PLAIN puts right is outside ASCII, as most lines are
        body = body.translate(_PLAIN)
    if "," in body or ";" in body:  # both start with one
        body = _BACK.sub("⁏", body)
        body = _JOINER.sub(" ", body)
    return CleanLine(number, raw, body, start, plain, chatter)


def strip_end(text: str) -> str:
    """``text`` without its final full stops, exclamation marks and blanks: what ``_END``
    takes away (re's \\s is str.isspace), without the regex's try at every place."""
    end = len(text)
    while end and (text[end - 1] in ".!" or text[end - 1].isspace()):
        end -= 1
    return text[:end]


def needs_mask(name: str) -> bool:
    """Whether a name is more than one plain word, and so is masked before parsing."""
    return _NAMEWORD.fullmatch(name) is None


def _name_pattern(name: str) -> str:
    """A name as a regex: any run of spaces between words, and "and" the same as "&"."""
    words = []
    for w in name.split():
        words.append(r"(?:and|&)" if w.lower() in ("and", "&") else re.escape(w))
    return r"\s+".join(words).replace(r"\s+(?:and|&)\s+", r"\s*(?:and|&)\s*")


@kept(maxsize=4096)
def _name_regex(name: str) -> re.Pattern[str]:
    """The regex of a name, its word boundaries left to :func:`_whole` (cached: a turn reads
    many emails of the same names)."""
    # The boundaries as lookarounds, (?<![\w\ue000-\ue8ff]) and (?!\w), made compiling a
    # name cost 30 times as much (re builds a case-folded charset of the ranges): a squad
    # never seen paid that for each of its names in its first mail.
    return re.compile(_name_pattern(name), re.I)


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # what re's \w is, character for character


def _stands_whole(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` has no word character next to it and no masked name just
    before it."""
    before = text[start - 1] if start else "."
    if _is_word(before) or "\ue000" <= before <= "\ue8ff":
        return False
    return end >= len(text) or not _is_word(text[end])


def _whole(pattern: re.Pattern[str], text: str) -> list[re.Match[str]]:
    """The matches of a name's regex that stand as whole words (no word character next to
    them, no masked name just before), found as ``re`` would with the boundaries in the
    pattern: the leftmost one that qualifies, then the next after it."""
    out = []
    at = 0
    while (m := pattern.search(text, at)) is not None:
        start, end = m.span()
        if not _stands_whole(text, start, end):
            at = start + 1  # a match starting later may still be whole
            continue
        out.append(m)
        at = end if end > start else end + 1
    return out


def mask_names(text: str, names: list[str]) -> tuple[str, dict[int, str]]:
    """See :func:`_mask_names` (remembered: a turn masks many lines alike)."""
    masked, found = _mask_names(text, tuple(names))
    return masked, dict(found)


@kept(maxsize=16384)
def _mask_names(text: str, names: tuple[str, ...]) -> tuple[str, tuple[tuple[int, str], ...]]:
    masked, found = _mask(text, list(names))
    return masked, tuple(found.items())


def _mask(text: str, names: list[str]) -> tuple[str, dict[int, str]]:
    """Replace every whole-word occurrence of a many-word name by one same-length token.

    ``names[i]`` becomes ``chr(0xE100 + i)`` followed by ``U+E000`` padding, which the grammar
    reads as one NAMEREF; returns the masked text and {index: name} for the names found.
    Longer names are masked first, so "Ben Stokes Jr" wins over "Ben Stokes".
    """
    found: dict[int, str] = {}
    # Matched without accents ("Beyonce Knowles" is "Beyoncé Knowles"); the folded copy has
    # one character for each of the text's, so a match there is a match in the text.
    folded = strip_marks(text)
    # An ASCII line stays ASCII but for the private-use tokens masking puts in, which have
    # no case: its lower-case copy has a character for each of its, too.
    lower = folded.lower() if folded.isascii() else None
    # Words one space apart, as most lines have them, are found as one phrase (masking puts
    # in no whitespace, so a line stays so as its names are masked).
    spaced = lower is not None and single_spaced(lower)
    for i, name, bare, word, words, phrase in _mask_plan(tuple(names)):
        if lower is not None and word is not None and word not in lower:
            continue  # its first word is nowhere in the line, so the name is not
        if lower is not None and words is not None:
            if spaced:
                if phrase not in lower:
                    continue  # (one look for the lot: most names are in no line)
                spans = _phrase_whole(phrase, lower)
            else:
                spans = _literal_whole(words, lower)
        else:
            # compiled only here: most of a squad's names are in none of a mail's lines
            spans = [m.span() for m in _whole(_name_regex(bare), folded)]
        if not spans:
            continue
        found[i] = name
        # The copies take the same tokens: each is the text character for character
        # (strip_marks and lower-casing an ASCII text), and a token has no accent or case.
        put = _put(text, spans, i)
        folded = put if folded is text else _put(folded, spans, i)  # (the same, unaccented)
        text = put
        if lower is not None:
            lower = _put(lower, spans, i)
    return text, found


def _put(text: str, spans: list[tuple[int, int]], i: int) -> str:
    """``text`` with name ``i``'s token over each span."""
    if len(spans) == 1:  # most often
        start, end = spans[0]
        return text[:start] + chr(0xE100 + i) + "\ue000" * (end - start - 1) + text[end:]
    pieces = []
    at = 0
    for start, end in spans:
        pieces += [text[at:start], chr(0xE100 + i) + "\ue000" * (end - start - 1)]
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


def _literal_whole(words: tuple[str, ...], lower: str) -> list[tuple[int, int]]:
    """The spans :func:`_whole` finds for a name of plain words (lower case, no "and" or
    "&") in an ASCII line's lower-case copy, found without a regex: compiling one was most
    of the cost of reading a squad's first mail, and a deadline's mail is mostly first
    mails. The same leftmost-first search: each occurrence of the first word, then a run of
    whitespace (as ``\\s+``: ``str.isspace``) before each next word, then the boundaries."""
    out: list[tuple[int, int]] = []
    first, rest = words[0], words[1:]
    n = len(lower)
    at = 0
    while (start := lower.find(first, at)) >= 0:
        end = start + len(first)
        for w in rest:
            j = end
            while j < n and lower[j].isspace():
                j += 1
            if j == end or not lower.startswith(w, j):
                end = -1
                break
            end = j + len(w)
        if end < 0:
            at = start + 1
            continue
        if not _stands_whole(lower, start, end):
            at = start + 1  # a match starting later may still be whole
            continue
        out.append((start, end))
        at = end
    return out


# The characters other than a space that are whitespace in an ASCII line (str.isspace).
_OTHER_SPACES = "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"
_OTHER_SPACE = re.compile(f"[{_OTHER_SPACES}]")


def single_spaced(lower: str) -> bool:
    """Whether the only whitespace of an ASCII line (but for masking's tokens) is single
    spaces: then a run of whitespace between two words is one space."""
    return "  " not in lower and _OTHER_SPACE.search(lower) is None


def _phrase_whole(phrase: str, lower: str) -> list[tuple[int, int]]:
    """:func:`_literal_whole` for a line that is :func:`single_spaced`, its words joined
    by one space: the same leftmost-first search, each try a look for the whole phrase.
    (Looking for the first word and then the next ones tried every name of a squad whose
    names all start alike, "Celebrity 7-1" to "Celebrity 7-18", at every one of them.)"""
    out: list[tuple[int, int]] = []
    at = 0
    while (start := lower.find(phrase, at)) >= 0:
        end = start + len(phrase)
        if not _stands_whole(lower, start, end):
            at = start + 1  # a match starting later may still be whole
            continue
        out.append((start, end))
        at = end
    return out


@kept(maxsize=256)
def _mask_plan(
    names: tuple[str, ...],
) -> tuple[tuple[int, str, str, str | None, tuple[str, ...] | None, str], ...]:
    """The names to mask, longest first: (index, name, the name without accents, its first
    word in lower case where a plain substring test can rule it out, i.e. both are ASCII,
    its words in lower case where it is ASCII without "and" or "&", for
    :func:`_literal_whole`, and those words one space apart, for :func:`_phrase_whole`)."""
    order = sorted(range(len(names)), key=lambda i: -len(names[i]))
    plan = []
    for i in order:
        name = names[i]
        if i > 0x7FF or not needs_mask(name):
            continue
        bare = strip_marks(name)
        split = bare.lower().split()
        ascii = bare.isascii()
        first = split[0] if split else ""
        # "and" and "&" stand for each other, so a name starting with one has no fixed word
        word = first if ascii and first not in ("", "and", "&") else None
        plain = ascii and bool(split) and "and" not in split and "&" not in split
        plan.append((i, name, bare, word, tuple(split) if plain else None, " ".join(split)))
    return tuple(plan)


_WORD = re.compile(r"[^\s,;:()/\ue000-\ue8ff]+")


@kept(maxsize=256)
def _odd_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """The names with a word the grammar cannot read as part of a name."""
    return tuple(n for n in names if any(_NAMEWORD.fullmatch(w) is None for w in n.split()))


def mask_near_miss(masked: str, names: list[str], at: int, index: int) -> tuple[str, str] | None:
    """Mask the words before ``at`` (where the parse failed) that most nearly spell a name.

    A name with a word the grammar cannot read as part of a name ("Batsman 3", "Ant & Dec")
    is only understood when written exactly; a near miss ("Batsmen 3", "Star Bowlr 2") breaks
    the parse. The closest run of words starting at or before the word at ``at`` is masked
    as name number ``index``, so the line parses and the name gets "did you mean".
    Returns the new masked text and the words masked, or ``None`` when nothing is near.
    """
    odd = _odd_names(tuple(names))
    if not odd:
        return None
    words = list(_WORD.finditer(masked))
    # Windows start at or before the word where the parse broke (a keyword-like first word,
    # "Batting Al-rounder 1", breaks it at the second word, so a window may run past it).
    starts = [i for i, w in enumerate(words) if w.start() <= at]
    last = starts[-1] if starts else -1
    best: tuple[float, int, int, int] | None = None
    # Only near the break (a few words either side), so a long broken line stays cheap.
    for end in range(max(last - 6, 0), min(last + 6, len(words))):
        for size in range(1, 6):
            first = end - size + 1
            if first < max(last - 6, 0):
                break
            if first > last:
                continue
            gaps = [masked[words[i].end() : words[i + 1].start()] for i in range(first, end)]
            if any(g.strip() for g in gaps):
                break  # a window does not run over a comma or a masked name
            text = masked[words[first].start() : words[end].end()]
            if not any(ch.isalpha() for ch in text):
                continue
            folded = " ".join(text.casefold().split())
            ratio = nearest(folded, odd)
            if ratio and (best is None or (ratio, size) > best[:2]):
                best = (ratio, size, words[first].start(), words[end].end())
    if best is None:
        return None
    _, _, start, stop = best
    token = chr(0xE100 + index) + "\ue000" * (stop - start - 1)
    return masked[:start] + token + masked[stop:], masked[start:stop]


def check_name(name: str, keywords: frozenset[str] = frozenset()) -> str | None:
    """Why ``name`` is not acceptable as a squad member's or team's name, or ``None``.

    A name has 1 to 40 characters: letters (any alphabet), digits, spaces and . ' ’ - &,
    with at least one letter, and no character that cannot be seen (a Default_Ignorable_Code_
    Point: the Hangul fillers, which count as letters, the combining grapheme joiner, the
    variation selectors, ...: a name made of them shows blank, one with them looks like
    another name). A one-word name may not be a word the orders use.
    """
    if not name:
        return "a name cannot be empty"
    if hidden := invisible(name):
        # shown as U+XXXX: the character itself would show as nothing in the reply either
        which = ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')}" for ch in hidden)
        return f"a name cannot contain characters that cannot be seen ({which})"
    if len(name) > NAME_MAX_LENGTH:
        return f"a name can have at most {NAME_MAX_LENGTH} characters (this one has {len(name)})"
    for ch in name:
        if ch.isalnum() or ch in " .'’-&" or unicodedata.category(ch).startswith("M"):
            continue
        shown = repr(ch) if not ch.isprintable() or ch.isspace() else f"'{ch}'"
        return f"a name cannot contain {shown}: use letters, digits, spaces and . ' - &"
    if not any(ch.isalpha() for ch in name):
        return "a name needs at least one letter"
    if " " not in name and name.lower() in keywords:
        return f"'{name}' is a word the orders use; give a longer name"
    return None


@dataclass(frozen=True, slots=True)
class FreeText:
    """A naming order, whose new name is free text: ``kind`` is "team", "slot" or "rename"."""

    kind: str
    value: str  # the new name, spaces collapsed
    value_index: int  # where the new name starts in the cleaned text
    slot: int | None = None
    old: str | None = None  # the name being replaced (for "rename")
    old_index: int = 0
    note: bool = False


_TEAM = re.compile(
    r"^(?:(?:our\s+|the\s+)?team(?:'s)?\s*name\s*(?:is\s+|[:=]\s*|-\s+)?|"
    r"(?:our\s+|the\s+)?team\s+(?:is|will\s+be|shall\s+be)\s+(?:called|named)\s*:?\s*|"
    r"we\s+are\s+(?:called|named)\s+|call\s+us\s+|"
    r"name\s+(?:the|our|my)\s+team\s*(?:as\s+|[:=]\s*)?|call\s+(?:the|our|my)\s+team\s+)",
    re.IGNORECASE,
)
# "Team Gunge Rovers", "Team: Gunge Rovers": a team name when what follows is not a list (a
# list of names, "Team: Root, Stokes, ...", is the XI).
_TEAM_SHORT = re.compile(r"^(?:our\s+)?team\s*(?:is\s+|[:=]\s*|-\s+|\s)(?=\s*[^\s,;:/=-])", re.I)
_SLOT = re.compile(
    r"^(?:(?:re)?name\s+(?:slot\s+|player\s+|no\.?\s*|number\s+|#)?|slot\s+|player\s+)"
    r"(\d{1,3})\s*(?:[:=]\s*|-\s+|(?:as|is|to)\s+)?",
    re.IGNORECASE,
)
_RENAME = re.compile(r"^(?:re)?name\s+(.+?)\s+(?:as|to)\s+|^(?:re)?name\s+(.+?)\s*[:=]\s*", re.I)
_NOTE = re.compile(r"^(?:note|gm\s+note|comment)\s*[:\-]\s*", re.IGNORECASE)


def _value(text: str, start: int) -> tuple[str, int]:
    rest = text[start:]
    lead = len(rest) - len(rest.lstrip())
    rest = rest.strip().strip('"“”')
    return _SPACES.sub(" ", rest), start + lead


def match_free_text(text: str) -> FreeText | None:
    """Recognise team naming, squad naming and notes in a line's ``plain`` text.

    The new name is the rest of the line as written, so a final full stop ("Smith Jr.") stays.
    """
    if m := _NOTE.match(text):
        value, at = _value(text, m.end())
        return FreeText("note", value, at, note=True)
    if m := _TEAM.match(text):
        value, at = _value(text, m.end())
        return FreeText("team", value, at)
    if (m := _TEAM_SHORT.match(text)) and not _LIST_MARK.search(text[m.end() :]):
        value, at = _value(text, m.end())
        return FreeText("team", value, at)
    if m := _SLOT.match(text):
        value, at = _value(text, m.end())
        return FreeText("slot", value, at, slot=int(m.group(1)))
    if m := _RENAME.match(text):
        old = m.group(1) or m.group(2)
        value, at = _value(text, m.end())
        return FreeText("rename", value, at, old=old.strip(), old_index=text.index(old))
    return None


def has_control(raw: str) -> int | None:
    """The index of the first control character in ``raw``, if any."""
    m = _CONTROL.search(raw)
    return m.start() if m else None

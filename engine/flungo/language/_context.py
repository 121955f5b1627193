"""Lines that lean on the mail's other lines (issue 24): a change to the XI, a batting place
said as cricket says it, a group of batting places, a pronoun.

Fans write a mail, not a list of independent lines. What each form is read against is
decided in ``docs/rules/orders-in-a-mail.md``:

* a change to the XI ("Rock in for Tom Smith", "drop Green, bring in White", "same side"):
  read against the mail's XI (wherever it stands in the mail) or else the XI that stands; with
  neither, refused naming what is missing. Its echo is the whole XI it gives, with a note
  saying what it was built from;
* a batting place ("Grey first drop", "Jones in at 5", "move Wilson up to 4") and a group of
  places ("the top order", "numbers 8 to 11", "the tail" in a line with no "when"): read
  against the batting order in force at that line (the mail's lines above it, else the order
  that stands, else the XI's order); unknown, refused naming the group;
* a pronoun ("he", "him", "they", "them") in a line that does not read without it: the squad
  member named before it in the line, else in the line before, when exactly one can be meant;
  two, and the line is asked about with both readings.

The words are data (``lexicon.toml``, section ``[context]``, from cricket's glossary). The
changes to the XI are :mod:`._xi_changes`'s; this module hands them to the reader too.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.errors import IllegalOrder, OrderError, Span
from engine.flungo.language._build import echo_lines
from engine.flungo.language._expand import order_in_force
from engine.flungo.language._items import Item
from engine.flungo.language._lines import CleanLine, mask_names
from engine.flungo.language._model import EchoLine, NotUnderstood
from engine.flungo.language._names import NameBook
from engine.flungo.language._state import Mark, ReadState
from engine.flungo.language._xi_changes import (
    LEX,
    NAME_WORDS,
    TRIGGER,
    alt,
    one_named,
    resolve_changes,
    take_change,
)

__all__ = [
    "after_line",
    "groups_text",
    "places_text",
    "pronoun_texts",
    "resolve_changes",
    "take_change",
]

# --- batting places and groups of places, read against the batting order in force ---

_NUMBERS = {w: k for k, w in enumerate(LEX["numbers"], start=1)}
_NUM = r"(?:\d{1,2}|" + "|".join(_NUMBERS) + ")"


def _int(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word.lower()]


_PLACES = {" ".join(k.split()): v for k, v in LEX["places"].items()}
_PLACE_ENDS = frozenset(k.split()[-1] for k in _PLACES)  # "drop"
_PLACE_RE = re.compile(
    rf"(?<![\w'])(?:bats\s+|batting\s+|comes\s+in\s+|come\s+in\s+|goes\s+in\s+|as\s+)?"
    rf"(?:the\s+)?({alt(list(_PLACES))})(?![\w'])",
    re.IGNORECASE,
)
_IN_AT = re.compile(
    rf"(?<![\w'])(?:(?:comes?|goes|go|walks?)\s+)?in\s+at\s+(?:(?:number|no\.?|#)\s*)?(?={_NUM}\b)",
    re.IGNORECASE,
)
# "Flintoff bats 6", "Grey batting at number eight": a place (a batsman bats no overs)
_BATS_AT = re.compile(
    rf"(?<![\w'])(?:bats|batting|to\s+bat|will\s+bat)\s+(?:at\s+)?(?:(?:number|no\.?|#)\s*)?"
    rf"(?={_NUM}(?![\w'])(?!\s*(?:overs?|balls?|ovs?)\b))",
    re.IGNORECASE,
)
# "... up to number 3": where a move takes a batsman
_TO_PLACE = rf"(?:up\s+|down\s+)?to\s+(?:(?:number|no\.?|#)\s*)?(?P<n>{_NUM})(?![\w'])"
_MOVE = re.compile(rf"^(?:{alt(LEX['move'])})\s+(?P<who>.+?)\s+{_TO_PLACE}", re.I)
_MOVES = re.compile(rf"^(?P<who>.+?)\s+(?:{alt(LEX['moves'])})\s+{_TO_PLACE}", re.I)
_OPEN_WITH = re.compile(r"^(?P<a>.+?)\s+to\s+open\s+with\s+(?P<b>.+?)$", re.IGNORECASE)
_VAGUE = re.compile(rf"(?<![\w'])(?:{alt(LEX['vague_places'])})(?![\w'])", re.IGNORECASE)


def places_text(text: str) -> str | None:
    """A batting place said as cricket says it, in the guide's words ("X at 3"), or None."""
    low = text.lower()  # (each pattern only where its word is: most lines have none)
    out = text
    if any(w in low for w in _PLACE_ENDS):
        out = _PLACE_RE.sub(lambda m: f"at {_PLACES[' '.join(m.group(1).lower().split())]}", out)
    if " at " in low:
        out = _IN_AT.sub("at ", out)
    if "bat" in low:
        out = _BATS_AT.sub("at ", out)
    if " to " in low and (m := _MOVE.match(out) or _MOVES.match(out)):
        out = f"{m.group('who')} at {m.group('n')}{out[m.end() :]}"
    if "open" in low and (m := _OPEN_WITH.match(out)):
        out = f"{m.group('a')} and {m.group('b')} open"
    return None if out == text else out


def vague_place(text: str) -> str | None:
    """Words that move a batsman with no place ("down the order"): what to name, or None."""
    low = text.lower()
    if "order" not in low and "further" not in low and "higher" not in low:
        return None
    m = _VAGUE.search(text)
    return m.group(0) if m else None


_GROUPS = {" ".join(k.split()): tuple(v) for k, v in LEX["groups"].items()}
_GROUP_RE = re.compile(
    rf"(?<![\w'])(?:(?:all\s+)?(?:the|our|both)\s+)?(?:{alt(list(_GROUPS))})(?![\w'])",
    re.IGNORECASE,
)
_RANGE = re.compile(
    rf"(?<![\w'])(?:(?:the\s+)?(?:batsmen\s+at\s+)?(?:numbers|nos\.?|no\.?|places|positions)\s+)"
    rf"(?P<a>{_NUM})\s*(?:to|-|through|thru|till)\s*(?P<b>{_NUM})(?![\w'])",
    re.IGNORECASE,
)
# "the top 6", "the bottom three", "the first four batsmen" ("the first 10" alone is overs)
_TOP = re.compile(
    rf"(?<![\w'])(?:the\s+|our\s+)?(?:(?P<end>top|bottom)\s+(?P<n>{_NUM})(?!\s+overs?\b)"
    rf"(?:\s+(?:batsmen|batters|in\s+the\s+order))?|(?P<end2>first|last)\s+(?P<n2>{_NUM})"
    r"\s+(?:batsmen|batters|in\s+the\s+order))(?![\w'])",
    re.IGNORECASE,
)
_OTHERS = re.compile(rf"(?<![\w'])(?:{alt(LEX['others'])})(?![\w'])", re.IGNORECASE)
_STYLE = re.compile(r"(?<![\w'])(?:defensive\w*|normal\w*|aggressive\w*|wahoo)(?![\w'])", re.I)


@dataclass(frozen=True, slots=True)
class Group:
    """A group of batting places a line names, and the names it stands for (or why none)."""

    said: str
    text: str | None  # the line with the group written as the names, or None: refused
    note: str


def groups_text(text: str, order_of: Callable[[], tuple[str, ...]]) -> Group | None:
    """A line's group of batting places ("the top order", "numbers 8 to 11") written as the
    batsmen at those places of the order ``order_of`` gives; None when it names no group."""
    found: list[tuple[int, int, int, int]] = []  # start, end, first place, last place
    if not _STYLE.search(text):
        return None  # a group is read for a batting style ("the openers" may be bowlers)
    for m in _GROUP_RE.finditer(text):
        key = " ".join(m.group(0).lower().split()).removeprefix("all ")
        for lead in ("the ", "our ", "both "):
            key = key.removeprefix(lead)
        if key in _GROUPS and (key not in LEX["tail"] or not TRIGGER.search(text)):
            a, b = _GROUPS[key]
            found.append((m.start(), m.end(), a, b))
    for m in _RANGE.finditer(text):
        found.append((m.start(), m.end(), _int(m.group("a")), _int(m.group("b"))))
    for m in _TOP.finditer(text):
        n = _int(m.group("n") or m.group("n2"))
        if (m.group("end") or m.group("end2")).lower() in ("top", "first"):
            found.append((m.start(), m.end(), 1, n))
        else:
            found.append((m.start(), m.end(), -n, -1))
    if not found:
        if not TRIGGER.search(text) and (o := _OTHERS.search(text)):
            rest = text[: o.start()] + "everyone else" + text[o.end() :]
            return Group(o.group(0), rest, f"read '{o.group(0)}' as everyone else")
        return None
    found.sort()
    said = text[found[0][0] : found[0][1]]
    order = order_of()
    if not order:
        return Group(said, None, "")
    out, at, parts = [], 0, []
    for start, end, a, b in found:
        if start < at:
            continue
        if a < 0:
            a, b = len(order) + a + 1, len(order) + b + 1
        if not 1 <= a <= b <= len(order):
            return Group(text[start:end], None, "")
        names = order[a - 1 : b]
        joined = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        out += [text[at:start], joined]
        parts.append(
            f"'{' '.join(text[start:end].split())}' as {', '.join(names)} (places {a}-{b})"
        )
        at = end
    out.append(text[at:])
    return Group(said, "".join(out), "read " + "; ".join(parts) + " of the batting order")


# --- pronouns ---

# "he's" is "he is" (the name then takes the verb: "when Root is out"), as "they're" is
_HE = re.compile(r"(?<![\w'])(?:he|him|he's|hes)(?![\w'])", re.IGNORECASE)
_THEY = re.compile(r"(?<![\w'])(?:they|them|they're)(?![\w'])", re.IGNORECASE)
_IS = {"he's": " is", "hes": " is", "they're": " are"}
# a pronoun as a clause's subject ("he bats", "and he goes", "if he is out"): in a line that
# reads whole, only such a one is checked ("let him off the leash" is an idiom's)
_SUBJECT_ANY = re.compile(
    r"(?:^|[,;:.!-]\s*|(?<![\w'])(?:and|then|but|so|if|when|whenever|once|unless|until|till|"
    r"should|while)\s+)(?P<p>he|he's|hes|they|they're)(?![\w'])",
    re.IGNORECASE,
)
# a pronoun as the subject of a condition: who is out, who is in, is what the order waits for
_SUBJECT = re.compile(
    r"(?<![\w'])(?:if|when|whenever|once|unless|until|till|should|while)\s+"
    r"(?:he|he's|hes|they|they're)(?![\w'])",
    re.IGNORECASE,
)


def _named(masked: str, found: dict[int, str], own: NameBook) -> list[str]:
    """The squad members a masked line names, in order (each once)."""
    out: list[str] = []
    for m in NAME_WORDS.finditer(masked):
        word = m.group(0)
        if len(word) < 3 and not "\ue100" <= word[0] <= "\ue8ff":
            continue
        who = one_named(word, found, own) if "\ue100" <= word[0] <= "\ue8ff" else None
        if who is None and word[0].isupper():
            got = own.candidates(word)
            who = got[0] if len(got) == 1 else None
        if who is not None and who not in out:
            out.append(who)
    return out


def pronoun_texts(
    text: str,
    masked: str,
    found: dict[int, str],
    before: Callable[[], list[str]],
    own: NameBook,
    subject: bool = False,
) -> tuple[str, tuple[str, ...]] | None:
    """The line with its pronoun (``subject``: a clause's subject) written as the squad
    member(s) meant, one text for each who could be meant: (the pronoun, texts), or None when
    it has none or nobody is named."""
    if subject:
        s = _SUBJECT_ANY.search(text)
        m = _HE.match(text, s.start("p")) or _THEY.match(text, s.start("p")) if s else None
    else:
        m = _HE.search(text) or _THEY.search(text)
    if m is None:
        return None
    named = _named(masked[: m.start()], found, own) or before()
    if not named:
        return None
    if m.group(0).lower().startswith("the"):
        who = [", ".join(named[:-1]) + " and " + named[-1]] if len(named) > 1 else []
    else:
        who = named
    if not who:
        return None
    verb = _IS.get(m.group(0).lower(), "")
    texts = tuple(text[: m.start()] + w + verb + text[m.end() :] for w in who)
    return m.group(0), texts


def pronoun_read(
    cl: CleanLine,
    read_one: Callable[[CleanLine], tuple[bool, Item | None]],
    st: ReadState,
    mark: Mark,
    own: NameBook,
    names: list[str],
    prev: CleanLine | None,
) -> None:
    """A line read whole with a pronoun in it, checked: the pronoun is never let pass when
    the squad member it means changes the reading ("Root wahoo" then "if he is out, Stokes
    defensive" is when Root is out, not Stokes). Read as its one squad member, with a note;
    asked when it can be two; refused when it is a condition's subject and nobody is named."""
    low = cl.text.lower()  # (a look for the letters first: most lines have no pronoun)
    if ("he" not in low and "they" not in low) or _SUBJECT_ANY.search(cl.text) is None:
        return
    masked, found = mask_names(cl.text, names)
    before = functools.partial(lines_named, prev, own, names)
    pro = pronoun_texts(cl.text, masked, found, before, own, subject=True)
    if pro is None:
        if (m := _SUBJECT.search(cl.text)) is not None:
            word = m.group(0).split()[-1]
            st.undo(mark)
            st.errors.append(
                refusal(
                    cl,
                    word,
                    f"'{word}' is what this order waits for, but no squad member is named "
                    "before it",
                    "write his name for it, e.g. 'if Root is out'",
                )
            )
        return
    word, texts = pro
    written = "\n".join(t for _, t in echo_lines(st.items[mark[0] :], st.context.standing))
    readings = [_reading(cl, t, read_one, st, mark) for t in texts]
    if all(r == written for r in readings):
        return  # the pronoun changes nothing: the line as read stands
    if len(texts) > 1:
        shown = tuple(
            f"('{word}' as {w}) {r}"
            for w, r in zip(named_in(texts), readings, strict=True)
            if r is not None
        )
        st.undo(mark)
        st.not_understood.append(asked(cl, shown))  # never a guess: both shown, asked
        return
    if readings[0] is None:
        return  # (the pronoun written out reads nothing: the line as read stands)
    st.undo(mark)
    read_one(with_text(cl, texts[0]))
    st.notes.append(EchoLine(cl.number, f"read '{word}' as {_who_in(texts[0], cl.text)}"))


def lines_named(cl: CleanLine | None, own: NameBook, names: list[str]) -> list[str]:
    """The squad members a line names (for a pronoun on the next line)."""
    if cl is None:
        return []
    masked, found = mask_names(cl.text, names)
    return _named(masked, found, own)


def refusal(cl: CleanLine, said: str, message: str, hint: str) -> OrderError:
    """An error for a line that leans on what the mail does not give, caret under ``said``."""
    at = max(cl.text.lower().find(said.lower()), 0)
    span = Span(cl.number, cl.column(at), cl.column(at + max(len(said), 1)))
    return IllegalOrder(message, source_line=cl.raw, span=span, hint=hint)


def asked(cl: CleanLine, readings: tuple[str, ...]) -> NotUnderstood:
    return NotUnderstood(
        cl.number, cl.raw.strip(), "this can be read two ways, so it is not acted on", readings
    )


def with_text(cl: CleanLine, text: str) -> CleanLine:
    return replace(cl, text=text, plain=text)


# --- reading a refused line again, with what it leans on written out ---


def after_line(
    cl: CleanLine,
    read_one: Callable[[CleanLine], tuple[bool, Item | None]],
    st: ReadState,
    mark: Mark,
    own: NameBook,
    names: list[str],
    before: Sequence[CleanLine | None],
) -> None:
    """A line just read, looked at again for what it leans on (``before``: the line before
    it, if any): refused, read with it written out (:func:`lean_again`); read whole, its
    pronoun checked (:func:`pronoun_read`)."""
    prev = before[0] if before else None
    if failed(st, mark):
        lean_again(cl, read_one, st, mark, (False, None), own, names, prev)
    else:
        pronoun_read(cl, read_one, st, mark, own, names, prev)


def failed(st: ReadState, mark: Mark) -> bool:
    return len(st.errors) > mark[1] or len(st.not_understood) > mark[2]


def lean_again(
    cl: CleanLine,
    read_one: Callable[[CleanLine], tuple[bool, Item | None]],
    st: ReadState,
    mark: Mark,
    ahead: tuple[bool, Item | None],
    own: NameBook,
    names: list[str],
    prev: CleanLine | None,
) -> tuple[bool, Item | None]:
    """A refused line read again with what it leans on written out (a batting place in the
    guide's words, a group of places as its batsmen, a pronoun as its squad member): kept,
    with a note, when it then reads whole; asked, when a pronoun can mean two; else the
    refusal stands (or, for a group with no batting order to read it by, says so)."""
    text = cl.text
    before = functools.partial(lines_named, prev, own, names)
    tries: list[tuple[str, str]] = []  # (text, note)
    if (placed := places_text(text)) is not None:
        tries.append((placed, ""))
        text = placed
    order = functools.cache(functools.partial(order_in_force, st.items, st.context))
    if (group := groups_text(text, order)) is not None:
        if group.text is None and _reads_with_an_order(cl, text, read_one, st, mark):
            st.undo(mark)
            what = "the batting order" if not order() else f"a batting order of {len(order())}"
            st.errors.append(
                refusal(
                    cl,
                    group.said,
                    f"'{' '.join(group.said.split())}' is read by the places of the batting "
                    f"order, and this needs {what}",
                    "give the batting order in this mail (above this line), or name them",
                )
            )
            return False, None
        if group.text is not None:
            tries.append((group.text, group.note))
            text = group.text
    if _HE.search(text) is None and _THEY.search(text) is None:
        pro = None
    else:
        masked, found = mask_names(text, names)
        pro = pronoun_texts(text, masked, found, before, own)
    if pro is not None:
        word, texts = pro
        if len(texts) > 1:
            readings = [_reading(cl, t, read_one, st, mark) for t in texts]
            if all(readings):
                # two squad members it can mean: never a guess, both shown
                who = named_in(texts)
                shown = tuple(f"('{word}' as {w}) {r}" for w, r in zip(who, readings, strict=True))
                st.undo(mark)
                st.not_understood.append(asked(cl, shown))
                return False, None
            return ahead
        note = tries[-1][1] if tries else ""
        tries.append(
            (
                texts[0],
                "; ".join(filter(None, [note, f"read '{word}' as {_who_in(texts[0], text)}"])),
            )
        )
    if not tries:
        if (vague := vague_place(cl.text)) is not None:
            st.undo(mark)
            st.errors.append(
                refusal(
                    cl,
                    vague,
                    f"'{vague}' moves a batsman but gives no place in the batting order",
                    "give the place, e.g. 'Jones at 7'",
                )
            )
            return False, None
        return ahead
    final, note = tries[-1]
    kept = _keep(st, mark)
    st.undo(mark)
    again = read_one(with_text(cl, final))
    # read whole, and plainly: a reading that leans on another line and also passes over
    # words of its own ("everybody wa who except ... they") is two guesses, never made
    if not failed(st, mark) and len(st.items) > mark[0] and len(st.notes) == mark[5]:
        if note:
            st.notes.append(EchoLine(cl.number, note))
        return again
    _put_back(st, mark, kept)  # the refusal as it was
    return ahead


def named_in(texts: tuple[str, ...]) -> list[str]:
    """What each text has in the pronoun's place (they differ only there)."""
    first = texts[0]
    return [_who_in(t, first) if t != first else _who_in(first, texts[-1]) for t in texts]


def _reads_with_an_order(
    cl: CleanLine,
    text: str,
    read_one: Callable[[CleanLine], tuple[bool, Item | None]],
    st: ReadState,
    mark: Mark,
) -> bool:
    """Whether the group is all that stops the line: it reads whole with an order of the
    squad's first eleven (a stand-in, never used)."""
    if st.team is None:
        return False
    stand_in = tuple(p.name for p in st.team.players[:11])
    group = groups_text(text, lambda: stand_in)
    if group is None or group.text is None:
        return False
    return _reading(cl, group.text, read_one, st, mark) is not None


def _who_in(new: str, old: str) -> str:
    """The words ``new`` has where ``old`` had a pronoun."""
    start = next((k for k, (a, b) in enumerate(zip(new, old, strict=False)) if a != b), 0)
    tail = len(old) - start
    for k in range(len(old) - start + 1):
        if new.endswith(old[len(old) - k :]):
            tail = k
    return new[start : len(new) - tail].strip() if tail else new[start:].strip()


def _reading(
    cl: CleanLine,
    text: str,
    read_one: Callable[[CleanLine], tuple[bool, Item | None]],
    st: ReadState,
    mark: Mark,
) -> str | None:
    """``text`` read as ``cl``, whole: its echo, or None; the line stays as it was read."""
    kept = _keep(st, mark)
    st.undo(mark)
    read_one(with_text(cl, text))
    got = None
    if not failed(st, mark) and len(st.items) > mark[0]:
        got = "\n".join(t for _, t in echo_lines(st.items[mark[0] :], st.context.standing))
    _put_back(st, mark, kept)
    return got


Kept = tuple[
    list[Item],
    list[OrderError],
    list[NotUnderstood],
    list[EchoLine],
    list[EchoLine],
    dict[int, str],
]


def _keep(st: ReadState, mark: Mark) -> Kept:
    """What the line read since ``mark`` (for :func:`_put_back` after another reading)."""
    return (
        st.items[mark[0] :],
        st.errors[mark[1] :],
        st.not_understood[mark[2] :],
        st.chatter[mark[3] :],
        st.notes[mark[5] :],
        dict(st.section_lines),
    )


def _put_back(st: ReadState, mark: Mark, kept: Kept) -> None:
    """The line as it was read (all of its passes), after another reading of it."""
    st.undo(mark)
    st.section_lines = dict(kept[5])
    st.items += kept[0]
    st.errors += kept[1]
    st.not_understood += kept[2]
    st.chatter += kept[3]
    st.notes += kept[4]

"""Changes to the XI as a mail says them (issue 24): "Rock in for Tom Smith", "drop Green,
bring in White", "Grey comes in, White sits out", "same side", read against the mail's XI
(wherever it stands in the mail) or else the XI that stands; with neither, refused naming what
is missing. The echo is the whole XI a change gives, with a note saying what it was built
from. Decided in ``docs/rules/orders-in-a-mail.md``; the words are ``lexicon.toml``'s
``[context]`` section (a team sheet's words, cricket's glossary), which :mod:`._context` reads
too.
"""

from __future__ import annotations

import importlib.resources
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from engine.errors import IllegalOrder, OrderError
from engine.flungo.language._caseless import Caseless
from engine.flungo.language._chatter import number_words
from engine.flungo.language._expand import squad_numbers
from engine.flungo.language._items import Item
from engine.flungo.language._lines import CleanLine, mask_names
from engine.flungo.language._model import EchoLine, OrderContext
from engine.flungo.language._names import NameBook, strip_marks
from engine.flungo.language._reader import kept
from engine.flungo.language._state import ReadState

__all__ = [
    "LEX",
    "NAME_WORDS",
    "TRIGGER",
    "Change",
    "alt",
    "find_changes",
    "one_named",
    "resolve_changes",
    "take_change",
]

LEX = tomllib.loads(
    importlib.resources.files(__package__).joinpath("lexicon.toml").read_text("utf-8")
)["context"]


def alt(words: Sequence[str]) -> str:
    """Phrases as one regex alternative, longest first, any run of spaces between words."""
    return "|".join(
        r"\s+".join(re.escape(w) for w in p.split()) for p in sorted(words, key=len, reverse=True)
    )


# One squad member as the masked line has him: a masked many-word name, or one or two words
# (a surname, "T. Smith"); which words are a name is the squad's to say (NameBook).
_W = r"[^\W\d_][\w.'’-]*"
_NAME = "\x01\x02*"  # a squad member, as :func:`_marked` writes him


def _n(group: str) -> str:
    return f"(?P<{group}>{_NAME})"


_SAME = alt(LEX["same_xi"])
_COMES_IN = alt(LEX["comes_in"])
_GOES_OUT = alt(LEX["goes_out"])
_PICK = alt(LEX["pick"])
_DROP = alt(LEX["drop"])
_REPLACES = alt(LEX["replaces"])
_SEP = r"\s*(?:[,;/&-]|\band\b|\bbut\b|\bwith\b|\bthen\b)*\s*"
# Each form gives who comes in (a) and who goes out (b), or two for a swap (s, t).
_FORMS = [
    re.compile(p, re.IGNORECASE)
    for p in (
        rf"(?:bring\s+|brings\s+|get\s+)?{_n('a')}\s+(?:(?:{_COMES_IN})\s+)?in\s+for\s+{_n('b')}",
        rf"(?:bring|brings|get)\s+in\s+{_n('a')}\s+for\s+{_n('b')}",
        rf"{_n('a')}\s+(?:(?:{_COMES_IN})\s+)?(?:{_REPLACES})\s+{_n('b')}",
        rf"replace\s+{_n('b')}\s+(?:with|by)\s+{_n('a')}",
        rf"{_n('b')}\s+(?:makes|make|to\s+make)\s+way\s+for\s+{_n('a')}",
        rf"{_n('b')}\s+(?:{_GOES_OUT}){_SEP}{_n('a')}\s+(?:{_COMES_IN})",
        rf"{_n('a')}\s+(?:{_COMES_IN}){_SEP}{_n('b')}\s+(?:{_GOES_OUT})",
        rf"(?:{_DROP})\s+{_n('b')}{_SEP}(?:{_PICK})\s+{_n('a')}",
        rf"(?:{_PICK})\s+{_n('a')}{_SEP}(?:{_DROP})\s+{_n('b')}",
        rf"(?:{_DROP})\s+{_n('b')}\s+for\s+{_n('a')}",
        rf"swap\s+{_n('s')}\s+(?:and|with|for|&)\s+{_n('t')}",
        rf"{_n('a')}\s+for\s+{_n('b')}",
    )
]
_SAME_RE = re.compile(rf"(?<![\w'])(?:{_SAME})(?![\w'])", re.IGNORECASE)
# what may stand beside a change and say nothing more ("same side but", "for the T20 game")
_JOINERS = re.compile(r"^(?:[\s,;:.!()/&-]|\b(?:and|but|also|then|so|with|except|xi)\b)*$", re.I)


@dataclass(frozen=True, slots=True)
class Change:
    """One line's changes to the XI: (in, out) pairs, or a swap to read by who plays."""

    pairs: tuple[tuple[str, str], ...]
    swaps: tuple[tuple[str, str], ...] = ()
    same: bool = False  # "same side", "unchanged XI": the XI as it stands, said again
    said: str = ""  # the player's words, for the note


def one_named(text: str, found: dict[int, str], own: NameBook) -> str | None:
    """The one squad member a matched name means, else None."""
    if "\ue100" <= text[0] <= "\ue8ff":
        name = found.get(ord(text[0]) - 0xE100)
        return name if name in own.names else None
    got = own.candidates(text)
    return got[0] if len(got) == 1 else None


# Every form of a change has one of these words: a line with none is looked at no further.
_HINT = re.compile(
    r"(?<![\w'])(?:for|replac\w*|instead|place|swap\w*|out|drop\w*|rest\w*|way|stands?|"
    r"bench\w*|omit\w*|leave|left\s+out|miss\w*|same|unchanged|were|changes?)(?![\w'])",
    re.IGNORECASE,
)


# (the same words as plain letters, no boundaries: most lines have none, and one look at
# them is cheaper than the look for whole words)
_HINT_KEYS = re.compile(
    "for|replac|instead|place|swap|out|drop|rest|way|stand|bench|omit|left|miss|same|"
    "unchanged|were|change",
    re.IGNORECASE,
)


_HINT_KEYS_FOUND, _HINT_FOUND = Caseless(_HINT_KEYS), Caseless(_HINT)


def find_changes(
    text: str, masked: str, found: dict[int, str], own: NameBook
) -> tuple[Change, str] | None:
    """The changes to the XI a line gives, and the line with them blanked (same length, for
    the rest of it to be read as usual), or None when it gives none."""
    if not _HINT_KEYS_FOUND.found(masked) or not _HINT_FOUND.found(masked):
        return None
    return _changes(text, masked, tuple(sorted(found.items())), own.names)


@kept(maxsize=4096)
def _changes(
    text: str, masked: str, found_items: tuple[tuple[int, str], ...], names: tuple[str, ...]
) -> tuple[Change, str] | None:
    marked, who = _marked(masked, dict(found_items), NameBook(names))
    pairs: list[tuple[str, str]] = []
    swaps: list[tuple[str, str]] = []
    spans: list[tuple[int, int]] = []
    if len(who) >= 2:
        at = 0
        while True:
            hits = [m for f in _FORMS if (m := f.search(marked, at)) is not None]
            if not hits:
                break
            m = min(hits, key=lambda h: h.start())
            if TRIGGER.search(masked, 0, m.start()):
                break  # "if Root out, Stokes in": a change in a rule is no order pbm has
            got = {g: who[m.start(g)] for g, v in m.groupdict().items() if v}
            if "s" in got:
                swaps.append((got["s"], got["t"]))
            else:
                pairs.append((got["a"], got["b"]))
            spans.append(m.span())
            at = m.end()
    same = _SAME_RE.search(masked)
    if same is not None:
        spans.append(same.span())
    if not pairs and not swaps and same is None:
        return None
    blank = list(text)
    for start, end in spans:
        blank[start:end] = " " * (end - start)
    said = "; ".join(" ".join(text[s:e].split()) for s, e in sorted(spans))
    return Change(tuple(pairs), tuple(swaps), same is not None, said), "".join(blank)


NAME_WORDS = re.compile(r"[\ue100-\ue8ff]\ue000*|" + _W)
# the words of the forms themselves, never read as a name ("in" is no prefix of "Inzamam")
_FORM_WORDS = frozenset(
    w
    for key in ("same_xi", "comes_in", "goes_out", "pick", "drop", "replaces")
    for phrase in LEX[key]
    for w in phrase.split()
) | {"and", "but", "with", "by", "swap", "replace", "makes", "way", "bring", "brings", "get"}


def _may_name(word: str, names: str) -> bool:
    """Whether ``word`` starts a word of the squad's ``names`` (one string, each word after a
    space): a word that starts none names nobody (but for an initial), so it is looked up no
    further."""
    w = strip_marks(word).lower().removesuffix("'s").rstrip(".")
    return len(w) <= 1 or " " + w in names


def _marked(masked: str, found: dict[int, str], own: NameBook) -> tuple[str, dict[int, str]]:
    """``masked`` with each squad member it names written as one mark (\\x01, then \\x02 to
    its length), and who each mark, by where it starts, is."""
    words = list(NAME_WORDS.finditer(masked))
    starts = " " + " ".join(strip_marks(" ".join(own.names)).lower().split())
    out = list(masked)
    who: dict[int, str] = {}
    k = 0
    while k < len(words):
        w = words[k]
        name, end = None, w.end()
        if "\ue100" <= w.group(0)[0] <= "\ue8ff":
            name = found.get(ord(w.group(0)[0]) - 0xE100)
            name = name if name in own.names else None
        elif w.group(0).lower() not in _FORM_WORDS and _may_name(w.group(0), starts):
            if k + 1 < len(words) and not masked[w.end() : words[k + 1].start()].strip():
                nxt = words[k + 1]
                if nxt.group(0).lower() not in _FORM_WORDS and nxt.group(0)[0] < "\ue100":
                    two = own.candidates(masked[w.start() : nxt.end()])
                    if len(two) == 1:
                        name, end = two[0], nxt.end()
                        k += 1
            if name is None:
                one = own.candidates(w.group(0))
                name = one[0] if len(one) == 1 else None
        if name is not None:
            who[w.start()] = name
            out[w.start() : end] = "\x01" + "\x02" * (end - w.start() - 1)
        k += 1
    return "".join(out), who


class Rest(NamedTuple):
    """What a line says beside its change to the XI (``line`` None: nothing), masked."""

    line: CleanLine | None
    masked: str
    found: dict[int, str]


def take_change(
    cl: CleanLine,
    masked: str,
    found: dict[int, str],
    own: NameBook,
    st: ReadState,
    names: list[str],
) -> Rest | None:
    """A line's change to the XI as an item (worked out once the mail is read, by
    :func:`resolve_changes`), and the rest of the line to read as usual; None: no change."""
    got = find_changes(cl.text, masked, found, own)
    if got is None:
        return None
    change, blanked = got
    st.items.append(Item(cl, "xi_change", change, 0, len(cl.text)))
    if _JOINERS.match(blanked) is not None:
        return Rest(None, "", {})  # "same side but": nothing else in it
    rest = replace(cl, text=blanked, plain=blanked)
    masked, found = mask_names(blanked, names)
    return Rest(rest, squad_numbers(number_words(masked), found, own.names), found)


def resolve_changes(
    items: list[Item], ctx: OrderContext, notes: list[EchoLine], said: list[OrderError]
) -> list[OrderError]:
    """Each change to the XI read against the mail's XI, else the XI that stands: in place,
    an "xi" item of the whole XI it gives, with a note; the errors. A change on a line with
    an error (``said``) is not acted on: the rest of its line was refused."""
    changes = [i for i in items if i.kind == "xi_change"]
    if not changes:
        return []
    wrong = {e.span.line for e in said if e.span is not None and e.blocks}
    for item in changes:
        item.ok = item.ok and item.line.number not in wrong
    errors: list[OrderError] = []
    plain = [i for i in items if i.kind == "xi" and i.ok]
    if plain:
        xi = list(plain[-1].value)
        source = f"line {plain[-1].line.number}'s XI"
    elif ctx.standing is not None and ctx.standing.xi:
        xi, source = list(ctx.standing.xi), "the XI that stands"
    else:
        for item in changes:
            errors.append(
                item.error(
                    IllegalOrder,
                    f"'{item.value.said}' changes an XI, but there is none in this mail and "
                    "none stands yet",
                    hint="give the whole XI, e.g. 'xi: Root, Stokes, ...'",
                )
            )
        return errors
    for item in changes:
        change: Change = item.value
        if not item.ok:
            continue
        why = _apply(xi, change)
        if why is not None:
            errors.append(item.error(IllegalOrder, why, hint=f"the XI it changes is {source}"))
            continue
        item.kind, item.value = "xi", tuple(xi)
        notes.append(EchoLine(item.line.number, f"the XI built from {source}: {change.said}"))
    if plain and changes[-1].kind == "xi" and items.index(plain[-1]) > items.index(changes[-1]):
        plain[-1].value = tuple(xi)  # the XI given below its changes is the XI they change
    return errors


def _apply(xi: list[str], change: Change) -> str | None:
    """``xi`` changed in place, the incoming player in the outgoing one's slot; or why not."""
    pairs = list(change.pairs)
    for s, t in change.swaps:
        if (s in xi) == (t in xi):
            where = "both in" if s in xi else "both out of"
            return f"'swap {s} and {t}': they are {where} the XI, so who comes in is not said"
        pairs.append((t, s) if s in xi else (s, t))
    for new, old in pairs:
        if old not in xi:
            return f"{old} is not in the XI, so {new} cannot come in for him"
        if new in xi:
            return f"{new} is already in the XI"
        xi[xi.index(old)] = new
    return None


# a word that starts a rule: a change said after one is no change of the side
TRIGGER = re.compile(r"(?<![\w'])(?:if|when|whenever|once|after|until|till|unless)(?![\w'])", re.I)

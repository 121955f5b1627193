"""What a secret looks like, written once: the alphabet pbm makes seat secrets from, the
shape a secret has in text (so anything shaped like one is scrubbed), the placeholder stored
in its stead until the moment of sending, and the marker left where one was hidden."""

from __future__ import annotations

import re

__all__ = [
    "ALPHABET",
    "PLACEHOLDER",
    "REDACTED",
    "SECRET_BITS",
    "SECRET_CHARS",
    "SECRET_SHAPE",
    "SECRET_SHAPE_BYTES",
    "secret_placeholder",
    "ticket_placeholder",
]

#: The symbols of a seat secret: no 0/O, 1/I, as secrets get typed by hand. 32 symbols, so
#: each carries exactly 5 bits.
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
SECRET_BITS = 80
SECRET_CHARS = SECRET_BITS // 5

#: What stands where a secret was hidden.
REDACTED = "[redacted]"

_SYM = "[" + re.escape(ALPHABET) + "]"
#: A seat secret as pbm writes it (``ABCD-EFGH-JKLM-NPQR``), or typed without dashes: a whole
#: token, so no part of a longer code (Hit for Six's base64url codes) is ever taken for one.
SECRET_SHAPE = re.compile(
    rf"(?<![\w-]){_SYM}{{4}}(?:-?{_SYM}{{4}}){{{SECRET_CHARS // 4 - 1}}}(?![\w-])", re.IGNORECASE
)
SECRET_SHAPE_BYTES = re.compile(SECRET_SHAPE.pattern.encode(), re.IGNORECASE)

#: The marker stored in place of a seat's secret (``[[pbm-secret:<seat>:<version>]]``) or a
#: Test by Post ticket (``[[pbm-secret:h6:<seat>:<version>]]``) until the moment of sending.
PLACEHOLDER = re.compile(r"\[\[pbm-secret:(?:(h6):)?(\d+):(\d+)\]\]")
#: The start every placeholder shares (a cheap test for "this text waits for a secret").
PLACEHOLDER_START = "[[pbm-secret:"


def secret_placeholder(seat_id: int, version: int) -> str:
    """The marker stored in place of a seat's secret until the moment of sending."""
    return f"{PLACEHOLDER_START}{seat_id}:{version}]]"


def ticket_placeholder(h6_seat_id: int, version: int = 1) -> str:
    """The marker stored in place of a Test by Post seat ticket until the moment of sending."""
    return f"{PLACEHOLDER_START}h6:{h6_seat_id}:{version}]]"

"""A player's internationalised address (RFC 6531/6532) goes out in To as it is, in UTF-8;
any other byte beyond ASCII in a header block is refused as an altered message."""

from __future__ import annotations

import pytest

from pbm.core.errors import SmtpError
from pbm.mail.wire import outgoing

BODY = b"\nHello\n"


def test_a_utf8_address_in_to_goes_out() -> None:
    """``To: jörg@example.de`` is what pbm writes for an SMTPUTF8 player: sent unchanged."""
    raw = "From: pbm@example.test\nTo: jörg@example.de\nSubject: hi\n".encode() + BODY
    assert outgoing(raw) == raw


@pytest.mark.parametrize(
    ("head", "line"),
    [
        ("From: pbm@example.test\nTo: x@example.de\nSubject: café\n".encode(), 3),
        (b"From: pbm@example.test\nTo: j\xf6rg@example.de\n", 2),  # Latin-1, not UTF-8
        ("From: pbm@example.test\nTo: x@example.de\nX-Note: ☕\n".encode(), 3),
    ],
)
def test_other_bytes_beyond_ascii_in_the_header_are_refused(head: bytes, line: int) -> None:
    """UTF-8 outside To, or bytes that are not UTF-8, were never written by pbm."""
    with pytest.raises(SmtpError, match=f"beyond ASCII in line {line} "):
        outgoing(head + BODY)

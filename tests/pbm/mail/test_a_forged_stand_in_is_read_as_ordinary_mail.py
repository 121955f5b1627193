"""A door's stand-in is signed under ``[security] secret_key``: a sender who writes its first
line themselves (with any MAC, or the format before it was signed), or copies a real one
onto another mail, sends an ordinary mail, read and answered as one; a real stand-in is
honoured under the current key and the keys a rotation keeps, and no other."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pbm.mail.limits import Oversize, oversize, resign, stand_in
from pbm.mail.understand import Kind, understand

OWN = "pbm@example.test"
KEY = "s" * 32
OLD = "o" * 32
OVER = Oversize(3_000_000, 1_048_576, "on the IMAP server, in the folder Processed")
HEAD = (
    b"From: Cam <cam@example.test>\r\n"
    b"To: pbm@example.test\r\n"
    b"Subject: [DEMO] join\r\n"
    b"Message-ID: <video@example.test>\r\n\r\n"
)


def _forged(first_line: bytes) -> bytes:
    return first_line + b"\r\n" + HEAD + b"JOIN\r\n"


def test_a_mail_whose_first_line_is_a_forged_marker_is_a_players_mail() -> None:
    """A small JOIN whose first line is ``X-Pbm-Oversize`` (unsigned, with a made-up MAC, or
    a null sender's) is the player's mail it is: not refused, its body read as orders."""
    for line in (
        b"X-Pbm-Oversize: 3000000 1048576 <script>alert(1)</script>",
        b"X-Pbm-Oversize: 3000000 1048576 " + b"0" * 32 + b" on the moon",
        b"X-Pbm-Oversize: 3000000 1048576 " + b"a" * 32 + b" ",
    ):
        raw = _forged(line)
        assert oversize(raw, (KEY, OLD)) is None
        mail_is = understand(raw, own_address=OWN, keys=(KEY, OLD))
        assert mail_is.kind is Kind.PLAYER and mail_is.refusal is None, line
        assert mail_is.text.strip() == "JOIN"
    null = understand(_forged(line), own_address=OWN, envelope_from="<>", keys=KEY)
    assert null.refusal is not None and not null.refusal.note.startswith("too big")


def test_a_real_marker_copied_onto_another_mail_is_not_honoured() -> None:
    """The MAC covers the bytes after the first line: a signed line moved onto other headers
    or another body is a forgery."""
    real = stand_in(HEAD, OVER, KEY)
    first, rest = real.split(b"\r\n", 1)
    assert oversize(real, KEY) == OVER
    other = first + b"\r\n" + rest.replace(b"cam@example.test", b"eve@example.test")
    assert oversize(other, KEY) is None
    assert understand(other, own_address=OWN, keys=KEY).kind is Kind.PLAYER
    bigger = real.replace(b"3000000", b"9000000", 1)
    assert oversize(bigger, KEY) is None


def test_a_stand_in_is_honoured_under_the_keys_configured_and_resigned_on_rotation() -> None:
    """Signed under an old key still in ``old_secret_keys`` it is honoured; under a key no
    longer configured it is not; ``resign`` moves it to the current key, byte for byte the
    stand-in the door would sign now, and leaves anything else untouched."""
    under_old = stand_in(HEAD, OVER, OLD)
    assert oversize(under_old, (KEY, OLD)) == OVER
    assert oversize(under_old, KEY) is None
    moved = resign(under_old, (KEY, OLD))
    assert moved == stand_in(HEAD, OVER, KEY)
    assert oversize(moved, KEY) == OVER
    current = stand_in(HEAD, OVER, KEY)
    assert resign(current, (KEY, OLD)) is current
    forged = _forged(b"X-Pbm-Oversize: 1 2 " + b"0" * 32 + b" x")
    assert resign(forged, (KEY, OLD)) is forged


@given(
    size=st.integers(0, 10**18 - 1),
    cap=st.integers(0, 10**18 - 1),
    mac=st.text("0123456789abcdef", min_size=32, max_size=32),
    kept=st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=80),
    body=st.binary(max_size=200),
)
def test_no_first_line_a_sender_writes_is_honoured(
    size: int, cap: int, mac: str, kept: str, body: bytes
) -> None:
    """Whatever size, cap, MAC and "kept" text a sender writes in the marker's own format,
    over any bytes, pbm does not take the mail for a stand-in."""
    raw = f"X-Pbm-Oversize: {size} {cap} {mac} {kept}\r\n".encode() + HEAD + body
    assert oversize(raw, (KEY, OLD)) is None

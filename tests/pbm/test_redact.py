"""Secrets hidden in whole raw messages, whatever their transfer encoding."""

from __future__ import annotations

import base64

from hypothesis import given
from hypothesis import strategies as st

from pbm.mail.parse import parse_message
from pbm.redact import redact_message

SECRET = "abcd-efgh-ijkl"


def _mail(body: bytes, cte: str, subject: str = "orders") -> bytes:
    return (
        f"From: bob@example.com\nSubject: {subject}\nMIME-Version: 1.0\n"
        f"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: {cte}\n\n"
    ).encode() + body


def test_secret_in_base64_body_is_removed() -> None:
    """A secret inside a base64 part is found after decoding and gone from the bytes."""
    raw = _mail(base64.encodebytes(f"JOIN\nSECRET {SECRET}\n".encode()), "base64")
    out = redact_message(raw, [SECRET])
    assert SECRET.encode() not in base64.b64decode(b"".join(out.split(b"\n\n", 1)[1].split()))
    assert parse_message(out).body == "JOIN\nSECRET [redacted]"


def test_secret_split_by_quoted_printable_soft_break_is_removed() -> None:
    """A secret cut in two by a QP soft line break is still redacted."""
    raw = _mail(b"JOIN\nSECRET abcd-ef=\ngh-ijkl\n", "quoted-printable")
    assert "ijkl" not in parse_message(redact_message(raw, [SECRET])).full_text


def test_secret_in_subject_is_removed() -> None:
    """Headers are redacted too."""
    out = redact_message(_mail(b"JOIN\n", "7bit", subject=f"SECRET {SECRET}"), [SECRET])
    assert SECRET.encode() not in out
    assert b"Subject: SECRET [redacted]" in out


def test_parts_without_secret_keep_their_bytes() -> None:
    """A message without the secret comes back unchanged."""
    raw = _mail(b"JOIN\n", "7bit")
    assert redact_message(raw, [SECRET]) == raw
    assert redact_message(raw, []) == raw


@given(st.binary(max_size=500))
def test_never_raises_and_removes_plain_occurrences(noise: bytes) -> None:
    """On any bytes, redaction returns bytes without the secret in plain form."""
    out = redact_message(noise + SECRET.encode() + noise, [SECRET])
    assert SECRET.encode() not in out.lower()

"""Secrets hidden in whole raw messages, whatever their transfer encoding."""

from __future__ import annotations

import base64
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbm.mail.parse import parse_message
from pbm.secrets.scrub import _redact_bytes, _redact_mime, is_plain_ascii, redact, redact_message

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


_TEXT = st.text(alphabet="abcdefghijklAB -\n:=", max_size=60)


@given(
    head=_TEXT,
    tail=_TEXT,
    cte=st.sampled_from(["7bit", "8bit", "binary", ""]),
    charset=st.sampled_from(["utf-8", "us-ascii", "iso-8859-1", "windows-1252"]),
    multipart=st.booleans(),
    secret=st.sampled_from([SECRET, "ABCD", "ijkl-x"]),
)
def test_a_plain_ascii_mail_is_redacted_by_bytes_as_the_mime_pass_would(
    head: str, tail: str, cte: str, charset: str, multipart: bool, secret: str
) -> None:
    """A mail of ASCII text, nothing encoded, takes the byte pass alone: its text reads the
    same as after the MIME pass (the slow path), and no secret is left in it."""
    part = f"Content-Type: text/plain; charset={charset}\n"
    part += f"Content-Transfer-Encoding: {cte}\n" if cte else ""
    body = f"{head}\nSECRET {secret}\n{tail}\n"
    if multipart:
        raw = (
            'From: bob@example.com\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b"'
            f"\n\n--b\n{part}\n{body}\n--b--\n"
        ).encode()
    else:
        raw = f"From: bob@example.com\nSubject: x {secret}\n{part}\n{body}".encode()
    assert is_plain_ascii(raw)
    fast = redact_message(raw, [secret])
    slow = _redact_bytes(_redact_mime(raw, [secret]), [secret])
    assert parse_message(fast).full_text == parse_message(slow).full_text
    assert secret.lower().encode() not in fast.lower()


@pytest.mark.parametrize(
    "raw",
    [
        _mail(b"x", "base64"),
        _mail(b"x", "quoted-printable"),
        _mail(b"x", "x-uuencode"),
        _mail(b"x", "7bit").replace(b"charset=utf-8", b"charset=utf-7"),
        _mail(b"x", "7bit").replace(b"charset=utf-8", b"charset=utf-16"),
        _mail(b"x", "7bit").replace(b"charset=utf-8", b"charset*=utf-8''"),
        _mail("café".encode(), "8bit"),
    ],
    ids=["base64", "qp", "uuencode", "utf-7", "utf-16", "rfc2231", "non-ascii"],
)
def test_an_encoded_or_odd_mail_takes_the_mime_pass(raw: bytes) -> None:
    """Anything whose text is not its bytes (a transfer encoding, a charset where ASCII is
    not itself, an RFC 2231 parameter, bytes beyond ASCII) is read as MIME first."""
    assert not is_plain_ascii(raw)


def test_a_secret_in_utf7_is_found_by_the_mime_pass() -> None:
    """UTF-7 writes '-' and letters as they are, but a secret can be spelt in its base64
    form: decoded, it is the secret, and it is gone from what is stored."""
    encoded = f"SECRET {SECRET}\n".encode("utf-7").replace(b"-", b"+AC0-")
    raw = _mail(encoded, "7bit").replace(b"charset=utf-8", b"charset=utf-7")
    assert SECRET.encode() not in raw
    assert SECRET not in parse_message(redact_message(raw, [SECRET])).full_text


def _by_regex(text: str, secrets: list[str]) -> str:
    """The redaction as it was written before the ASCII shortcut: one caseless regex each."""
    for value in sorted({s.strip() for s in secrets if s.strip()}, key=len, reverse=True):
        escaped = re.escape(value)
        pattern = escaped if len(value) >= 6 else rf"(?<![\w-]){escaped}(?![\w-])"
        text = re.sub(pattern, "[redacted]", text, flags=re.IGNORECASE)
    return text


_ASCII = st.text(alphabet=st.sampled_from("aAbB-_ 9x.\n"), max_size=60)


@given(_ASCII, st.lists(st.text(alphabet=st.sampled_from("aAbB-_9x "), max_size=8), max_size=3))
def test_ascii_text_is_redacted_as_the_regex_would(text: str, secrets: list[str]) -> None:
    """For ASCII text and secrets, the ``str.find`` redaction gives what the caseless regex
    gave: short secrets only as whole tokens (not touching a letter, digit, ``_`` or ``-``),
    long ones anywhere, any case, the longest first."""
    assert redact(text, secrets) == _by_regex(text, secrets)


@given(
    st.binary(max_size=80),
    st.lists(st.text(alphabet=st.sampled_from("aAbB-é9"), min_size=1, max_size=8), max_size=3),
)
def test_bytes_are_redacted_as_a_caseless_bytes_regex_would(raw: bytes, secrets: list[str]) -> None:
    """The byte pass hides each secret's UTF-8 bytes in any ASCII case, as a caseless bytes
    regex would, whatever else the bytes hold."""
    values = sorted({s.strip() for s in secrets if s.strip()}, key=len, reverse=True)
    expected = raw
    for value in values:
        pattern = re.escape(value.encode("utf-8", "replace"))
        expected = re.sub(pattern, b"[redacted]", expected, flags=re.IGNORECASE)
    assert _redact_bytes(raw, values) == expected


def test_a_short_secret_glued_to_a_word_is_left_and_a_long_one_is_not() -> None:
    """A mistyped short guess is hidden only standing alone; a real secret even glued on."""
    assert redact("abc xabc abc-1 (ABC)", ["abc"]) == "[redacted] xabc abc-1 ([redacted])"
    assert redact("xxABCD-EFGH-IJKLyy", [SECRET]) == "xx[redacted]yy"
